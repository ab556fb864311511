import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StatementItem } from '@mw/contract/statement';
import i18next from 'i18next';
import { formatTimeAgo, timeAgoParts } from '../src/shared/format/timeAgo';
import { la } from '../src/i18n/la';
import { pageWindow } from '../src/shared/ui/pageWindow';
import { th } from '../src/i18n/th';
import { mockApi, ok, renderApp } from './helpers';
import { loginMember, walletAnswer } from './walletFixtures';

const at = '2026-01-02T03:04:05.000Z';
const item = (patch: Partial<StatementItem>): StatementItem => ({
  _id: patch._id ?? Math.random().toString(16).slice(2),
  statementType: 'transfer',
  status: 'SUCCESS',
  from: 'WALLET',
  to: 'PG',
  amount: 100,
  createdAt: at,
  ...patch,
});

const rows: StatementItem[] = [
  item({ _id: 'd', statementType: 'deposit', from: 'SANDBOX', to: 'WALLET', amount: 500 }),
  item({ _id: 'b', statementType: 'bonus', from: 'BONUS', to: 'WALLET', amount: 50, bonus: { description: 'Welcome 10%' } }),
  item({ _id: 'in', from: 'PG', to: 'WALLET', amount: 230.5 }),
  item({ _id: 'out', from: 'WALLET', to: 'PG', amount: 200, status: 'FAILED', note: 'TRANSFER_FAIL' }),
  item({ _id: 'w', statementType: 'withdraw', from: 'WALLET', to: 'KBANK 1234567890', amount: 100, status: 'PENDING' }),
  item({ _id: 'r', statementType: 'withdraw', from: 'WALLET', to: 'KBANK 1234567890', amount: 1000, status: 'FAILED', note: 'Name does not match' }),
];

describe('pagination window and time ago (spec section 9)', () => {
  it('shows up to 3 pages before and 1 after the current page', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2]);
    expect(pageWindow(2, 10)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 10)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(10, 10)).toEqual([7, 8, 9, 10]);
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(9, 3)).toEqual([1, 2, 3]);
  });

  it('counts a year as 365 days and a month as 30', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const ago = (ms: number) => timeAgoParts(new Date(now.getTime() - ms), now);
    const day = 86_400_000;
    expect(ago(365 * day)).toEqual({ value: 1, unit: 'year' });
    expect(ago(364 * day)).toEqual({ value: 12, unit: 'month' });
    expect(ago(30 * day)).toEqual({ value: 1, unit: 'month' });
    expect(ago(29 * day)).toEqual({ value: 29, unit: 'day' });
    expect(ago(3 * 3_600_000 + 59_000)).toEqual({ value: 3, unit: 'hour' });
    expect(ago(61_000)).toEqual({ value: 1, unit: 'minute' });
    expect(ago(4_000)).toEqual({ value: 4, unit: 'second' });
  });

  it("writes time ago with Intl, or with the app's own words where the browser lacks the locale", () => {
    const now = new Date('2026-06-01T00:03:00Z');
    expect(formatTimeAgo('2026-06-01T00:00:00Z', 'th', now)).toBe('3 นาทีที่ผ่านมา');
    expect(formatTimeAgo('2026-05-30T00:00:00Z', 'en', now)).toBe('2 days ago');
    // Chromium ships no Lao data: Intl would fall back to English.
    vi.spyOn(Intl.RelativeTimeFormat, 'supportedLocalesOf').mockReturnValue([]);
    i18next.addResourceBundle('la', 'translation', la);
    expect(formatTimeAgo('2026-06-01T00:00:00Z', 'la', now)).toBe('3 ນາທີກ່ອນ');
  });
});

describe('statement page', () => {
  it('signs each amount by its direction and writes each status, with the reason when it failed; names games and banks', async () => {
    loginMember();
    const banks = [{ code: 'KBANK', nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank', nameLA: 'ທະນາຄານກະສິກອນໄທ', country: 'TH' }];
    const api = mockApi({
      'POST /api/statement': ok({ total: rows.length, statements: rows }),
      'GET /api/wallet': ok(walletAnswer()),
      'GET /api/lookup/banks': ok(banks),
    });
    renderApp('/user/statement');
    const list = await screen.findByTestId('statement-list');
    expect(api.callsTo('POST', '/api/statement')[0]?.body).toEqual({ page: 1, limit: 10 });
    const cells = () =>
      within(list)
        .getAllByTestId('statement-row')
        .map((row) => [
          within(row).getByTestId('statement-activity').textContent,
          within(row).getByTestId('statement-amount').textContent,
          within(row).getByTestId('statement-status').textContent,
        ]);
    // Games by name (the wallet's list), accounts as the profile writes them, banks in the UI language.
    await waitFor(() =>
      expect(cells()).toEqual([
        ['เติมเงินทดลอง', '+฿500.00', 'สำเร็จ'],
        ['รับโบนัส: Welcome 10%', '+฿50.00', 'สำเร็จ'],
        ['โอนเงิน PG Games → กระเป๋าเงิน', '+฿230.50', 'สำเร็จ'],
        ['โอนเงิน กระเป๋าเงิน → PG Games', '\u2212฿200.00', `ไม่สำเร็จ: ${th.errors.TRANSFER_FAIL}`],
        ['ถอนเงินเข้าบัญชี ธนาคารกสิกรไทย 123-456-7890', '\u2212฿100.00', 'กำลังดำเนินการ'],
        ['ถอนเงินเข้าบัญชี ธนาคารกสิกรไทย 123-456-7890', '\u2212฿1,000.00', 'ไม่สำเร็จ: Name does not match'],
      ]),
    );
    const first = within(list).getAllByTestId('statement-row')[0] as HTMLElement;
    expect(within(first).getByTestId('statement-time').textContent).toMatch(/^02\/01\/2026 \d{2}:04:05$/);
    expect(within(first).getByTestId('statement-ago').textContent).toMatch(/ที่ผ่านมา$/);
  });

  it('names every source in words and signs a condition\'s end only when it took money back', async () => {
    loginMember();
    const named: StatementItem[] = [
      item({ _id: 'p', statementType: 'bonus', from: 'FREE50', to: 'WALLET', amount: 50 }),
      item({ _id: 'i', statementType: 'bonus', from: 'INVITE', to: 'WALLET', amount: 10 }),
      item({ _id: 'f', statementType: 'bonus', from: 'REFUND', to: 'WALLET', amount: 30 }),
      item({ _id: 's', statementType: 'bonus', from: 'SPIN', to: 'WALLET', amount: 5 }),
      item({ _id: 'e', statementType: 'deposit', from: 'TRUEWALLET', to: 'WALLET', amount: 20 }),
      item({ _id: 'q', statementType: 'deposit', from: 'WW', to: 'WALLET', amount: 200 }),
      item({ _id: 'c', statementType: 'finish_bonus', from: 'WELCOME20', to: 'WALLET', amount: 200, status: 'FAILED', note: 'BONUS_CLEAR', takenBack: true }),
      item({ _id: 'm', statementType: 'finish_bonus', from: 'INVITE', to: 'WALLET', amount: 10, status: 'SUCCESS', note: 'TURNOVER_MET', takenBack: false }),
    ];
    mockApi({ 'POST /api/statement': ok({ total: named.length, statements: named }), 'GET /api/wallet': ok(walletAnswer()), 'GET /api/lookup/banks': ok([]) });
    renderApp('/user/statement');
    const list = await screen.findByTestId('statement-list');
    const a = th.statement.activity;
    await waitFor(() =>
      expect(
        within(list)
          .getAllByTestId('statement-row')
          .map((row) => [within(row).getByTestId('statement-activity').textContent, within(row).getByTestId('statement-amount').textContent, within(row).getByTestId('statement-status').textContent]),
      ).toEqual([
        [a.bonusOf.replace('{{name}}', 'FREE50'), '+฿50.00', th.statement.status.success],
        [a.invitePayout, '+฿10.00', th.statement.status.success],
        [a.refundPayout, '+฿30.00', th.statement.status.success],
        [a.wheelPrize, '+฿5.00', th.statement.status.success],
        [a.deposit.replace('{{source}}', 'TrueMoney Wallet'), '+฿20.00', th.statement.status.success],
        [a.deposit.replace('{{source}}', a.qrSource.replace('{{provider}}', 'WW')), '+฿200.00', th.statement.status.success],
        [a.finishCleared.replace('{{name}}', 'WELCOME20'), '\u2212฿200.00', th.statement.status.ended],
        [a.finishMet.replace('{{name}}', a.payoutInvite), '฿10.00', th.statement.status.ended],
      ]),
    );
  });

  it('pages through the list at 10 a page', async () => {
    loginMember();
    const api = mockApi({
      'POST /api/statement': (call) => {
        const { page } = call.body as { page: number };
        return ok({ total: 95, statements: [item({ _id: `p${page}`, amount: page })] });
      },
    });
    renderApp('/user/statement?page=6');
    await screen.findByTestId('statement-list');
    const pages = () => screen.getAllByTestId('pagination-page').map((b) => b.textContent);
    expect(pages()).toEqual(['3', '4', '5', '6', '7']);
    expect(screen.getByRole('button', { current: 'page' }).textContent).toBe('6');
    fireEvent.click(screen.getByTestId('pagination-next'));
    await waitFor(() => expect(pages()).toEqual(['4', '5', '6', '7', '8']));
    expect(screen.getByTestId('location').textContent).toBe('/user/statement?page=7');
    expect(api.callsTo('POST', '/api/statement').map((c) => c.body)).toContainEqual({ page: 7, limit: 10 });
    fireEvent.click(screen.getByRole('button', { name: th.pagination.page.replace('{{page}}', '8') }));
    await waitFor(() => expect(pages()).toEqual(['5', '6', '7', '8', '9']));
    fireEvent.click(screen.getByTestId('pagination-next'));
    await waitFor(() => expect(pages()).toEqual(['6', '7', '8', '9', '10']));
    fireEvent.click(screen.getByTestId('pagination-next'));
    await waitFor(() => expect(pages()).toEqual(['7', '8', '9', '10']));
    expect((screen.getByTestId('pagination-next') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a clean empty state', async () => {
    loginMember();
    mockApi({ 'POST /api/statement': ok({ total: 0, statements: [] }) });
    renderApp('/user/statement');
    expect((await screen.findByTestId('statement-empty')).textContent).toContain(th.statement.emptyTitle);
    expect(screen.queryByTestId('statement-pagination')).toBeNull();
  });

  it('slip history: a dash until read, the translated slip reason, and the image in a new window', async () => {
    loginMember();
    const opened = { opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
    const open = vi.fn(() => opened);
    vi.stubGlobal('open', open);
    const api = mockApi({
      'POST /api/statement': ok({ total: 0, statements: [] }),
      'POST /api/statement/slip': ok({
        total: 2,
        slips: [
          { _id: 's1', createdAt: at, amount: 0, status: 'PENDING', note: null, link: '', reference: 'REF-1' },
          { _id: 's2', createdAt: at, amount: 300, status: 'FAILED', note: 'SLIP_REFNO_DUPLICATED', link: '', reference: 'REF-2' },
        ],
      }),
      'GET /api/statement/slip/reference/REF-2': ok({ url: '/uploads/slips/REF-2.jpg' }),
    });
    renderApp('/user/statement');
    fireEvent.click(await screen.findByTestId('open-slips'));
    const modal = await screen.findByTestId('slip-modal');
    const slipRows = await within(modal).findAllByTestId('slip-row');
    expect(slipRows.map((row) => within(row).getByTestId('slip-amount').textContent)).toEqual(['–', '฿300.00']);
    expect(slipRows.map((row) => within(row).getByTestId('slip-status').textContent)).toEqual([
      'กำลังดำเนินการ',
      `ไม่สำเร็จ: ${th.slipReasons.SLIP_REFNO_DUPLICATED}`,
    ]);
    expect(api.callsTo('POST', '/api/statement/slip')[0]?.body).toEqual({ page: 1, limit: 10 });

    fireEvent.click(within(slipRows[1] as HTMLElement).getByTestId('slip-view'));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() => expect(opened.location.href).toBe('/uploads/slips/REF-2.jpg'));
    expect(opened.opener).toBeNull();

    fireEvent.click(within(modal).getByTestId('slips-refresh'));
    await waitFor(() => expect(api.callsTo('POST', '/api/statement/slip')).toHaveLength(2));
  });
});
