import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { th } from '../src/i18n/th';
import { fail, input, mockApi, ok, renderApp } from './helpers';
import { homeRoutes, loginMember } from './walletFixtures';

const moneyResult = (amount: number) => ({ ok: true, wallet: { amount: 400 }, amount, reference: 'op-9' });

describe('withdraw modal', () => {
  it('shows the limits, checks min and max with their values, then withdraws with a key and the wait message', async () => {
    loginMember();
    const api = mockApi({
      ...homeRoutes(),
      'GET /api/lookup/withdraw': ok({ withdrawMin: 100, withdrawMax: 50000 }),
      'POST /api/wallet/withdrawAll': ok(moneyResult(100)),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('home-tile-withdraw'));
    const modal = await screen.findByTestId('withdraw-modal');
    expect(within(modal).getByTestId('withdraw-warning').textContent).toBe(th.withdraw.warning);
    await waitFor(() => expect(within(modal).getByTestId('withdraw-min').textContent).toBe('฿100.00'));
    expect(within(modal).getByTestId('withdraw-max').textContent).toBe('฿50,000.00');

    const submit = within(modal).getByTestId('withdraw-submit');
    fireEvent.change(input('amount'), { target: { value: '99.99' } });
    fireEvent.click(submit);
    expect(within(modal).getByTestId('field-error').textContent).toBe('จำนวนเงินขั้นต่ำ 100.00 บาท');
    fireEvent.change(input('amount'), { target: { value: '50000.01' } });
    fireEvent.click(submit);
    expect(within(modal).getByTestId('field-error').textContent).toBe('จำนวนเงินสูงสุด 50,000.00 บาท');
    expect(api.callsTo('POST', '/api/wallet/withdrawAll')).toHaveLength(0);

    fireEvent.change(input('amount'), { target: { value: '100' } });
    fireEvent.click(submit);
    expect((await screen.findByTestId('alert-message')).textContent).toBe(th.withdraw.successMessage);
    const call = api.callsTo('POST', '/api/wallet/withdrawAll')[0];
    expect(call?.body).toEqual({ amount: 100 });
    expect(call?.headers['idempotency-key']).toBeTruthy();
    expect(screen.queryByTestId('withdraw-modal')).toBeNull();
    fireEvent.click(screen.getByTestId('alert-ok'));
  });

  it('puts a server refusal in an error dialog with the translated code', async () => {
    loginMember();
    mockApi({
      ...homeRoutes(),
      'GET /api/lookup/withdraw': ok({ withdrawMin: 100, withdrawMax: 50000 }),
      'POST /api/wallet/withdrawAll': fail(400, 'MONEY_NOT_ENOUGH'),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('home-tile-withdraw'));
    const modal = await screen.findByTestId('withdraw-modal');
    await waitFor(() => expect(within(modal).getByTestId('withdraw-min').textContent).toBe('฿100.00'));
    fireEvent.change(input('amount'), { target: { value: '5000' } });
    fireEvent.click(within(modal).getByTestId('withdraw-submit'));
    const alert = await screen.findByTestId('alert-dialog');
    expect(alert.textContent).toContain(th.common.errorTitle);
    expect(within(alert).getByTestId('alert-message').textContent).toBe(th.errors.MONEY_NOT_ENOUGH);
    expect(screen.getByTestId('withdraw-modal')).toBeTruthy();
    fireEvent.click(within(alert).getByTestId('alert-ok'));
  });
});

describe('deposit modal', () => {
  const depositLookup = {
    banks: [
      { bankCode: 'KBANK', bankType: 'BANK', mode: 'AUTO', bank: { nameTH: 'กสิกรไทย', nameEN: 'Kasikornbank', nameLA: 'ກະສິກອນໄທ' }, bankAccountName: 'GOLDEN CO', bankAccountNo: '0451234567', currency: 'BAHT' },
      { bankCode: 'WW', bankType: 'PAYMENT', mode: 'AUTO', bank: { nameTH: 'WW', nameEN: 'WW', nameLA: 'WW' }, bankAccountName: '', bankAccountNo: '', currency: 'BAHT' },
    ],
    wallets: [],
    isManual: false,
    demoTopUp: true,
  };

  it('offers no demo top-up when the lookup does not say the server has one (real payments)', async () => {
    loginMember();
    for (const answer of [{ ...depositLookup, demoTopUp: false }, (({ demoTopUp: _demo, ...rest }) => rest)(depositLookup)]) {
      const api = mockApi({ ...homeRoutes(), 'GET /api/lookup/deposit': ok(answer) });
      const view = renderApp('/user/home');
      await screen.findByTestId('total-balance');
      fireEvent.click(screen.getByTestId('home-tile-deposit'));
      const modal = await screen.findByTestId('deposit-modal');
      await waitFor(() => expect(within(modal).getAllByTestId('deposit-bank')).toHaveLength(1));
      expect(within(modal).queryByTestId('demo-topup')).toBeNull();
      expect(within(modal).queryByTestId('demo-topup-form')).toBeNull();
      expect(api.callsTo('POST', '/api/wallet/add')).toHaveLength(0);
      view.unmount();
    }
  });

  it('lists the bank accounts and tops up the demo wallet; a SANDBOX_ONLY refusal hides the form', async () => {
    loginMember();
    let refuse = false;
    const api = mockApi({
      ...homeRoutes(),
      'GET /api/lookup/deposit': ok(depositLookup),
      'POST /api/wallet/add': (call) =>
        refuse ? fail(403, 'SANDBOX_ONLY') : ok(moneyResult((call.body as { amount: number }).amount)),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('home-tile-deposit'));
    const modal = await screen.findByTestId('deposit-modal');
    await waitFor(() => expect(within(modal).getAllByTestId('deposit-bank')).toHaveLength(1));
    expect(within(modal).getByTestId('deposit-bank-no').textContent).toBe('045-123-4567');

    fireEvent.click(within(modal).getByTestId('demo-topup-500'));
    await waitFor(() => expect(api.callsTo('POST', '/api/wallet/add')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/wallet/add')[0]?.body).toEqual({ amount: 500 });
    expect(api.callsTo('POST', '/api/wallet/add')[0]?.headers['idempotency-key']).toBeTruthy();
    expect((await screen.findByTestId('toast')).textContent).toBe('เติมเงิน 500.00 บาทเข้ากระเป๋าแล้ว');

    refuse = true;
    fireEvent.change(input('topUpAmount'), { target: { value: '250' } });
    fireEvent.click(within(modal).getByTestId('demo-topup-submit'));
    expect((await within(modal).findByTestId('demo-topup-refused')).textContent).toBe(th.errors.SANDBOX_ONLY);
    expect(within(modal).queryByTestId('demo-topup-form')).toBeNull();

    const walletLoads = api.callsTo('GET', '/api/wallet').length;
    fireEvent.click(within(modal).getByTestId('deposit-close'));
    await waitFor(() => expect(api.callsTo('GET', '/api/wallet').length).toBe(walletLoads + 1));
  });
});
