import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import type { ResponsibleState } from '@mw/contract/responsible';
import { en } from '../admin/src/i18n/en';
import { mockApi, ok } from './helpers';

/** Loaded at run time: the back office types its texts against its own i18n (its own tsconfig). */
const CARD = '../admin/src/features/members/MemberResponsible';
const { MemberResponsible } = (await import(/* @vite-ignore */ CARD)) as { MemberResponsible: ComponentType<{ memberId: string }> };

const state = (currency: 'THB' | 'LAK', over: Partial<ResponsibleState> = {}): ResponsibleState => ({
  limits: { day: currency === 'LAK' ? 2_000_000 : 1000, week: null, month: null },
  pending: [],
  used: { day: currency === 'LAK' ? 500_000 : 250.5, week: 0, month: 0 },
  left: { day: currency === 'LAK' ? 1_500_000 : 749.5, week: null, month: null },
  currency,
  timeOutUntil: null,
  selfExcludedUntil: null,
  realityCheckMinutes: 60,
  held: [],
  session: { startedAt: '2026-01-02T03:04:05.000Z', deposits: 0, withdrawals: 0, gameResult: 0 },
  now: '2026-01-02T03:04:05.000Z',
  ...over,
});

async function show(memberId: string) {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false }, showSupportNotice: false });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemberResponsible memberId={memberId} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('a member’s responsible play in the back office', () => {
  it('shows the limits, what was deposited and what is left in baht, a self-exclusion nobody can lift, and held deposits', async () => {
    mockApi({
      'GET /api/operator/members/m1/responsible': ok(
        state('THB', {
          selfExcludedUntil: '2026-07-02T03:04:05.000Z',
          held: [
            { id: 'h1', amount: 300, from: 'KBANK', reason: 'SELF_EXCLUDED', status: 'HELD', receivedAt: '2026-01-02T03:04:05.000Z' },
            { id: 'h2', amount: 50, from: 'KBANK', reason: 'SELF_EXCLUDED', status: 'RETURNED', receivedAt: '2026-01-02T03:04:05.000Z' },
          ],
        }),
      ),
    });
    await show('m1');
    const row = await screen.findByRole('row', { name: /Day/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['฿1,000.00', '฿250.50', '฿749.50']);
    expect(within(screen.getByRole('row', { name: /Week/ })).getAllByRole('cell')[0]?.textContent).toBe(en.responsible.none);
    expect(screen.getByText(/Self-excluded until .*nobody can lift it/)).toBeTruthy();
    expect(screen.getByText(/1 deposit\(s\) held, ฿300\.00/)).toBeTruthy();
  });

  it('a kip member’s figures read in kip, never baht', async () => {
    mockApi({ 'GET /api/operator/members/m2/responsible': ok(state('LAK')) });
    const { container } = await show('m2');
    const row = await screen.findByRole('row', { name: /Day/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['₭2,000,000', '₭500,000', '₭1,500,000']);
    expect(container.textContent).not.toMatch(/฿|THB|baht/);
    expect(screen.getByText(en.responsible.noBreak)).toBeTruthy();
  });
});
