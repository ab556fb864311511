import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import type { ComponentType } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { en } from '../admin/src/i18n/en';
import { mockApi, ok } from './helpers';

/**
 * Loaded at run time: the back office's screens type their texts against its own i18n (its own
 * tsconfig), which this project's compiler (the member app's texts) does not load.
 */
const RECON = '../admin/src/features/reconciliation/ReconciliationPage';
const AUDIT = '../admin/src/features/audit/AuditPage';
const { ReconciliationPage } = (await import(/* @vite-ignore */ RECON)) as { ReconciliationPage: ComponentType };
const { AuditPage } = (await import(/* @vite-ignore */ AUDIT)) as { AuditPage: ComponentType };

async function renderPage(Page: ComponentType) {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false }, showSupportNotice: false });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <Page />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const checked = { credits: 2, matched: 2, outside: 3, manual: 0, held: 0, unverifiable: 0, systems: {} };
const report = {
  ok: true,
  from: '2026-01-01T17:00:00.000Z',
  to: '2026-01-02T17:00:00.000Z',
  checked,
  breaches: [],
  uncredited: [],
  payouts: { ok: true, provider: 'sandbox', listed: true, from: '2026-01-01T17:00:00.000Z', to: '2026-01-02T17:00:00.000Z', checked: {} },
  timeZone: 'Asia/Bangkok',
  days: [
    { day: '2026-01-02', system: 'bank', currency: 'THB', matched: 3, matchedAmount: 1500, open: 1, openAmount: 30.5 },
    { day: '2026-01-02', system: 'payout', currency: 'LAK', matched: 1, matchedAmount: 50000, open: 0, openAmount: 0 },
  ],
  items: [
    { kind: 'unmatched', system: 'bank', reference: 'KTB/REF0001ABC', amount: 30.5, currency: 'THB', at: '2026-01-02T03:00:00.000Z', detail: null, memberId: null, link: { screen: 'deposits', id: 'u1' } },
    { kind: 'held', system: 'slip', reference: 'SCB/REF0002XYZ', amount: 700, currency: 'THB', at: '2026-01-02T04:00:00.000Z', detail: null, memberId: 'm1', link: { screen: 'held', id: 'op1' } },
  ],
};

const games = {
  ok: false,
  from: report.from,
  to: report.to,
  timeZone: 'Asia/Bangkok',
  checked: ['JILI', 'PG'],
  unreachable: ['JOKER'],
  days: [{ day: '2026-01-02', code: 'PG', currency: 'LAK', matched: 4, matchedAmount: 200000, open: 1, openAmount: 1001 }],
  items: [
    { kind: 'AMOUNT_MISMATCH', code: 'PG', reference: 'op-transfer-1', amount: 1001, currency: 'LAK', at: '2026-01-02T05:00:00.000Z', memberId: 'm9', theirs: { username: 'pgm9', direction: 'out', amount: 1000 } },
    { kind: 'PENDING', code: 'JILI', reference: 'op-transfer-2', amount: 20, currency: 'THB', at: '2026-01-02T06:00:00.000Z', memberId: 'm8', theirs: null },
  ],
};

describe('back office reconciliation and audit sentences', () => {
  it('lists the game providers\' differences in the member\'s currency with what the provider says, names one that did not answer, and counts a transfer in doubt apart', async () => {
    mockApi({ 'GET /api/operator/reconciliation': ok(report), 'GET /api/operator/reconciliation/games': ok(games) });
    await renderPage(ReconciliationPage);
    const reference = await screen.findByText('op-transfer-1');
    const row = reference.closest('tr') as HTMLElement;
    expect(within(row).getByText(en.recon.games.kinds.AMOUNT_MISMATCH)).toBeTruthy();
    // Ours and the provider's, both in kip (the member's currency), never as baht.
    expect(within(row).getAllByText('₭1,001')).toHaveLength(1);
    expect(within(row).getByTestId('recon-game-theirs').textContent).toBe(`${en.recon.games.directions.out} ₭1,000 for pgm9`);
    expect(row.textContent).not.toContain('฿');
    expect(within(row).getByRole('link', { name: `${en.recon.links.member}: op-transfer-1` }).getAttribute('href')).toBe('/members/m9');
    const pending = (screen.getByText('op-transfer-2').closest('tr') as HTMLElement);
    expect(within(pending).getByText(en.recon.games.kinds.PENDING)).toBeTruthy();
    expect(within(pending).getByText(en.recon.games.nothing)).toBeTruthy();
    // One difference (the transfer in doubt is not one), and the provider that did not answer.
    expect(screen.getByTestId('recon-games-status').textContent).toBe('1 differences with the providers: see below.');
    expect(screen.getByText(/Did not answer .*: JOKER/)).toBeTruthy();
    expect(screen.getByText(/₭200,000/)).toBeTruthy();
  });


  it('lists the unmatched bank transfer by its reference, with its amount and a link to the unmatched deposits; sums per day and system', async () => {
    const api = mockApi({ 'GET /api/operator/reconciliation': ok(report), 'GET /api/operator/reconciliation/games': ok(games) });
    await renderPage(ReconciliationPage);
    const reference = await screen.findByText('KTB/REF0001ABC');
    const row = reference.closest('tr') as HTMLElement;
    expect(within(row).getByText(en.recon.kinds.unmatched)).toBeTruthy();
    expect(within(row).getByText(/฿30\.50/)).toBeTruthy();
    expect(within(row).getByRole('link', { name: `${en.recon.links.deposits}: KTB/REF0001ABC` }).getAttribute('href')).toBe('/deposits');
    expect(screen.getByRole('link', { name: `${en.recon.links.held}: SCB/REF0002XYZ` }).getAttribute('href')).toBe('/held');
    const bank = screen.getAllByText(en.recon.systems.bank)[0]?.closest('tr') as HTMLElement;
    expect(within(bank).getByText(/฿1,500\.00/)).toBeTruthy();
    expect(screen.getByText(/₭50,000/)).toBeTruthy();
    expect(screen.getByTestId('recon-status').textContent).toBe(en.recon.ok);
    // The last 24 hours by default: the server's own default period.
    expect(api.callsTo('GET', '/api/operator/reconciliation')[0]?.query.toString()).toBe('');
  });

  it('writes an approval as a sentence naming the operator, the amount with its currency sign and the member\'s phone', async () => {
    const row = (id: string, patch: Record<string, unknown>) => ({ id, at: '2026-01-02T03:00:00.000Z', operatorId: 'o1', address: '127.0.0.1', onBehalfOf: null, before: { status: 'PENDING' }, ...patch });
    mockApi({
      'GET /api/operator/audit': ok({
        rows: [
          row('a1', { operator: 'finance', who: 'finance', role: 'finance', action: 'withdrawal.change', entity: 'withdrawal', target: 'w1', after: { payout: 'processing' }, subject: { memberId: 'm1', phone: '0860778823', amount: 50000, currency: 'THB', request: null } }),
          row('a2', { operator: 'owner', who: 'owner', role: 'owner', action: 'approval.change', entity: 'approval', target: 'ap1', before: { status: 'pending' }, after: { status: 'approved', action: 'deposit.manual' }, subject: { memberId: 'm2', phone: '0201234567', amount: 50000, currency: 'LAK', request: 'deposit.manual' } }),
        ],
        total: 2,
        page: 1,
        limit: 50,
      }),
    });
    await renderPage(AuditPage);
    const sentences = await screen.findAllByTestId('audit-sentence');
    expect(sentences.map((s) => s.textContent)).toEqual(['finance approved withdrawal ฿50,000.00 of 0860778823', 'owner approved (four eyes): manual credit ₭50,000 of 0201234567']);
  });
});
