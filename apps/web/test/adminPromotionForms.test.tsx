import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { en } from '../admin/src/i18n/en';
import { mockApi, ok } from './helpers';

/** Loaded at run time: the back office's screens type their texts against its own i18n (its own tsconfig). */
const PAGE = '../admin/src/features/promotions/PromotionsPage';
const { PromotionsPage } = (await import(/* @vite-ignore */ PAGE)) as { PromotionsPage: ComponentType };

const slice = (code: string, label: string, weight: number, amount: number) => ({ code, label, bgColor: '#f5c451', textColor: '#1d1b3a', htmlDescription: '', weight, prize: { name: label, amount } });
const wheel = (currency: 'THB' | 'LAK') => ({
  wheel:
    currency === 'THB'
      ? { name: 'Golden Wheel', active: true, slices: [slice('B1', '฿1', 300, 100), slice('B500', '฿500', 100, 50_000)], depositPerCoin: 10_000, couponTtlDays: 7, updatedAt: '2026-01-01T00:00:00.000Z' }
      : { name: 'Golden Wheel', active: true, slices: [slice('K2000', '₭2,000', 1, 200_000), slice('K1M', '₭1,000,000', 1, 100_000_000)], depositPerCoin: 5_000_000, couponTtlDays: 7, updatedAt: '2026-01-01T00:00:00.000Z' },
});
const bonus = { code: 'WELCOME20', type: 'limit', max_received: 1, max_total: null, percent_fail: '10', banners: [], percent: '20', amounts: { THB: { minDeposit: 10_000, maxBonus: 50_000 }, LAK: { minDeposit: 6_000_000, maxBonus: 30_000_000 } }, turnover_multiple: '5', categories: ['slot'], deposit_window_minutes: 60, active: true, sort: 1 };
const promotion = { code: 'FREE50', kind: 'credit', amounts: { THB: 5_000, LAK: 3_000_000 }, bonus_code: null, percent_fail: '0', description: { th: 'ฟรี', la: 'ຟຣີ', en: 'Free' }, valid_from: null, valid_to: null, max_uses: null, max_per_member: 1, active: true, updated_at: '2026-01-01T00:00:00.000Z' };
const banners = { th: [{ image: '/banners/invite.svg', html: '<h3>ชวนเพื่อน</h3><p>รับ 1%</p>' }], en: [{ image: '/banners/invite.svg', html: '<h3>Invite friends</h3><p>Earn 1%</p>' }] };

function routes() {
  return {
    'GET /api/operator/bonuses': ok({ bonuses: [bonus] }),
    'GET /api/operator/promotions': ok({ promotions: [promotion] }),
    'GET /api/operator/spinwheel': (call: { query: URLSearchParams }) => ok(wheel(call.query.get('currency') === 'LAK' ? 'LAK' : 'THB')),
    'PUT /api/operator/spinwheel': (call: { query: URLSearchParams; body: unknown }) => ok({ wheel: { ...(call.body as object), updatedAt: '2026-01-02T00:00:00.000Z' } }),
    'GET /api/operator/invite-banners': ok(banners),
    'GET /api/operator/refund-banners': ok([]),
    'PUT /api/operator/invite-banners': (call: { body: unknown }) => ok(call.body),
    'GET /api/operator/invite-settings': ok({ active: true, percent: 1, minimum: { THB: 100, LAK: 100_000 }, successPercent: 100, failPercent: 0 }),
    'GET /api/operator/refund-settings': ok({ active: true, period: 'week', percent: 5, minimum: { THB: 100, LAK: 100_000 }, maximum: { THB: 500_000, LAK: 100_000_000 }, successPercent: 100, failPercent: 0, info: { THB: { th: '<p>คืน 5%</p>', la: '<p>ຄືນ 5%</p>', en: '<p>5% back</p>' } } }),
    'PUT /api/operator/refund-settings': (call: { body: unknown }) => ok(call.body),
    'PUT /api/operator/promotions/NEW100': { status: 202, body: { status: 'awaiting-approval', approvalId: 'ap1' } },
  };
}

async function renderPage() {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false }, showSupportNotice: false });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <PromotionsPage />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
const noTextarea = (container: HTMLElement) => expect(container.querySelectorAll('textarea')).toHaveLength(0);

describe('back office promotions: forms, not JSON', () => {
  it('shows no textarea on any tab, and amounts in major units with their currency', async () => {
    mockApi(routes());
    const { container } = await renderPage();
    fireEvent.click(await screen.findByRole('button', { name: `${en.promotions.edit} WELCOME20` }));
    // The bonus's amounts: ฿100.00 minimum (10,000 satang), ₭300,000 maximum (30,000,000 hundredths).
    expect((screen.getAllByLabelText(`${en.promotions.minDeposit} (THB)`)[0] as HTMLInputElement).value).toBe('100.00');
    expect((screen.getAllByLabelText(`${en.promotions.maxBonus} (LAK)`)[0] as HTMLInputElement).value).toBe('300,000');
    noTextarea(container);

    tab(en.promotions.codes);
    const row = (await screen.findByText('FREE50')).closest('tr') as HTMLElement;
    expect(within(row).getByText('฿50.00')).toBeTruthy();
    expect(within(row).getByText('₭30,000')).toBeTruthy();
    expect(row.textContent).not.toContain('5000');
    noTextarea(container);

    tab(en.promotions.wheel);
    await screen.findByTestId('wheel-preview');
    noTextarea(container);
    tab(en.promotions.banners);
    expect((await screen.findAllByDisplayValue('ชวนเพื่อน')).length).toBe(1);
    noTextarea(container);
    tab(en.promotions.rules);
    expect((await screen.findByRole('form', { name: en.forms.rules.refund })).textContent).toContain('LAK');
    noTextarea(container);
  });

  it('a wheel weight edit moves the chance and the preview; saving sends minor units', async () => {
    const api = mockApi(routes());
    await renderPage();
    tab(en.promotions.wheel);
    const preview = await screen.findByTestId('wheel-preview');
    const chances = () => screen.getAllByTestId('wheel-chance').map((cell) => cell.textContent);
    expect(chances()).toEqual(['75.0%', '25.0%']);
    expect(preview.getAttribute('aria-label')).toContain('฿500: 25.0%');
    // Prizes in baht: 100 satang is ฿1.00, 50,000 satang is ฿500.00.
    expect((screen.getByLabelText(en.forms.wheel.cell.replace('{{field}}', en.forms.wheel.prizeAmount.replace('{{currency}}', 'THB')).replace('{{n}}', '2')) as HTMLInputElement).value).toBe('500.00');

    fireEvent.change(screen.getByLabelText(en.forms.wheel.cell.replace('{{field}}', en.forms.wheel.weight).replace('{{n}}', '2')), { target: { value: '300' } });
    expect(chances()).toEqual(['50.0%', '50.0%']);
    expect(screen.getByTestId('wheel-preview').getAttribute('aria-label')).toContain('฿500: 50.0%');
    expect(screen.getAllByTestId('wheel-slice-chance').map((t) => t.textContent)).toEqual(['50.0%', '50.0%']);

    fireEvent.change(screen.getByLabelText(en.forms.wheel.cell.replace('{{field}}', en.forms.wheel.prizeAmount.replace('{{currency}}', 'THB')).replace('{{n}}', '2')), { target: { value: '1,234.50' } });
    fireEvent.click(screen.getByRole('button', { name: en.common.save }));
    await screen.findByText(en.common.saved);
    const sent = api.callsTo('PUT', '/api/operator/spinwheel')[0];
    expect(sent?.query.get('currency')).toBe('THB');
    expect(sent?.body).toMatchObject({ depositPerCoin: 10_000, slices: [{ code: 'B1', weight: 300, prize: { amount: 100 } }, { code: 'B500', weight: 300, prize: { amount: 123_450 } }] });

    // The kip wheel: whole kip on screen, hundredths of a kip on the wire.
    fireEvent.click(screen.getByRole('button', { name: en.forms.wheel.of.replace('{{currency}}', 'LAK') }));
    const kip = (await screen.findAllByLabelText(en.forms.wheel.cell.replace('{{field}}', en.forms.wheel.prizeAmount.replace('{{currency}}', 'LAK')).replace('{{n}}', '2')))[0] as HTMLInputElement;
    expect(kip.value).toBe('1,000,000');
  });

  it('a wheel weight that is not a whole number gets its own message and nothing is sent', async () => {
    const api = mockApi(routes());
    await renderPage();
    tab(en.promotions.wheel);
    await screen.findByTestId('wheel-preview');
    const weight = screen.getByLabelText(en.forms.wheel.cell.replace('{{field}}', en.forms.wheel.weight).replace('{{n}}', '1'));
    fireEvent.change(weight, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: en.common.save }));
    expect(weight.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(weight.getAttribute('aria-describedby') ?? '')?.textContent).toBe('From 1 to 1,000,000.');
    expect(api.callsTo('PUT', '/api/operator/spinwheel')).toHaveLength(0);
  });

  it('a credit code is typed in baht and kip, sent in minor units, and a 202 says it waits for a second person', async () => {
    const api = mockApi(routes());
    await renderPage();
    tab(en.promotions.codes);
    fireEvent.click(await screen.findByRole('button', { name: en.forms.code.new }));
    const form = screen.getByRole('form', { name: en.forms.code.new });
    fireEvent.change(within(form).getByLabelText(en.promotions.code), { target: { value: 'new100' } });
    fireEvent.change(within(form).getByLabelText(en.forms.code.kind), { target: { value: 'credit' } });
    fireEvent.click(within(form).getByRole('button', { name: en.common.save }));
    expect(within(form).getByText(en.forms.err.amountNeeded)).toBeTruthy();
    expect(api.callsTo('PUT', '/api/operator/promotions/NEW100')).toHaveLength(0);
    fireEvent.change(within(form).getByLabelText(`${en.forms.code.amount} (THB)`), { target: { value: '1,500.00' } });
    fireEvent.change(within(form).getByLabelText(`${en.forms.code.amount} (LAK)`), { target: { value: '50,000' } });
    fireEvent.click(within(form).getByRole('button', { name: en.common.save }));
    await within(form).findByText(en.settings.awaiting);
    expect(within(form).queryByText(en.common.saved)).toBeNull();
    expect(api.callsTo('PUT', '/api/operator/promotions/NEW100')[0]?.body).toMatchObject({ kind: 'credit', amounts: { THB: 150_000, LAK: 5_000_000 }, maxPerMember: 1, maxUses: null });
  });

  it('refund rules: amounts in major units per currency, sent in minor units; a server refusal lands under its field', async () => {
    const api = mockApi({
      ...routes(),
      'PUT /api/operator/refund-settings': { status: 400, body: { message: 'KEY_INVALID', fields: [{ path: 'percent', code: 'too_big' }] } },
    });
    await renderPage();
    tab(en.promotions.rules);
    const form = await screen.findByRole('form', { name: en.forms.rules.refund });
    const maximum = within(form).getByLabelText(`${en.forms.rules.maximum} (THB)`) as HTMLInputElement;
    expect(maximum.value).toBe('5,000.00');
    expect((within(form).getByLabelText(`${en.forms.rules.maximum} (LAK)`) as HTMLInputElement).value).toBe('1,000,000');
    fireEvent.change(maximum, { target: { value: '2,500' } });
    fireEvent.click(within(form).getByRole('button', { name: en.common.save }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/operator/refund-settings')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/operator/refund-settings')[0]?.body).toMatchObject({ minimum: { THB: 100, LAK: 100_000 }, maximum: { THB: 250_000, LAK: 100_000_000 }, info: { THB: { en: '<p>5% back</p>' } } });
    const percent = within(form).getByLabelText(`${en.forms.rules.refundPercent} (%)`);
    await waitFor(() => expect(percent.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(percent.getAttribute('aria-describedby') ?? '')?.textContent).toBe(en.forms.err.invalid);
  });
});
