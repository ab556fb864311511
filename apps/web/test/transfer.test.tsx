import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { checkTransfer } from '../src/features/transfer/transferRules';
import { th } from '../src/i18n/th';
import { fail, input, mockApi, ok, renderApp, type RecordedCall } from './helpers';
import { homeRoutes, loginMember } from './walletFixtures';

const moneyResult = (amount: number) => ({ ok: true, wallet: { amount: 400 - amount }, game: { code: 'PG', amount: 200.1 + amount }, amount, reference: 'op-1' });

async function openTransfer() {
  await screen.findByTestId('total-balance');
  fireEvent.click(screen.getByTestId('transfer-button'));
  return screen.findByTestId('transfer-modal');
}

function fill(name: string, value: string) {
  fireEvent.change(input(name), { target: { value } });
}

describe('transfer rules (spec section 5)', () => {
  it('needs both accounts, two different accounts and at least 1 baht', () => {
    expect(checkTransfer('', 'PG', '10')).toEqual({ ok: false, failure: { field: 'accounts', rule: 'selectAccMsg' } });
    expect(checkTransfer('WALLET', '', '10')).toEqual({ ok: false, failure: { field: 'accounts', rule: 'selectAccMsg' } });
    expect(checkTransfer('PG', 'PG', '10')).toEqual({ ok: false, failure: { field: 'accounts', rule: 'canNotTransferMsg' } });
    expect(checkTransfer('WALLET', 'PG', '0.99')).toEqual({ ok: false, failure: { field: 'amount', rule: 'minAmountMsg', minimum: 1 } });
    expect(checkTransfer('WALLET', 'PG', 'abc')).toMatchObject({ ok: false, failure: { rule: 'minAmountMsg' } });
    expect(checkTransfer('WALLET', 'PG', '1')).toEqual({ ok: true, amount: 100 });
    expect(checkTransfer('WALLET', 'PG', '1,250.5')).toEqual({ ok: true, amount: 125_050 });
  });

  it('takes the minimum of the member\'s currency: a kip member\'s ₭1,000', () => {
    expect(checkTransfer('WALLET', 'PG', '999', 1_000)).toEqual({ ok: false, failure: { field: 'amount', rule: 'minAmountMsg', minimum: 1_000 } });
    expect(checkTransfer('WALLET', 'PG', '1,000', 1_000)).toEqual({ ok: true, amount: 100_000 });
  });
});

describe('transfer modal', () => {
  it('offers the wallet and active game accounts only, and shows each rule message before calling anything', async () => {
    loginMember();
    const api = mockApi(homeRoutes());
    renderApp('/user/home');
    const modal = await openTransfer();
    const options = (name: string) => Array.from((input(name) as HTMLSelectElement).options).map((o) => o.value);
    await waitFor(() => expect(options('from')).toEqual(['', 'WALLET', 'PG', 'JOKER2', 'UFABET']));
    expect(options('to')).toEqual(options('from'));
    expect(input('amount').getAttribute('inputmode')).toBe('decimal');

    fill('from', '');
    fireEvent.click(within(modal).getByTestId('transfer-submit'));
    expect(within(modal).getByTestId('field-error').textContent).toBe(th.transfer.selectAccMsg);

    fill('from', 'PG');
    fill('to', 'PG');
    fireEvent.click(within(modal).getByTestId('transfer-submit'));
    expect(within(modal).getByTestId('field-error').textContent).toBe(th.transfer.canNotTransferMsg);

    fill('from', 'WALLET');
    fill('amount', '0.5');
    fireEvent.click(within(modal).getByTestId('transfer-submit'));
    expect(within(modal).getByTestId('field-error').textContent).toBe('จำนวนเงินขั้นต่ำ 1.00 บาท');
    expect(api.callsTo('POST', '/api/wallet/transfer')).toHaveLength(0);
  });

  it('sends {from, to, amount} with an Idempotency-Key, shows the transfer message, closes and reloads the wallet', async () => {
    loginMember();
    const api = mockApi({ ...homeRoutes(), 'POST /api/wallet/transfer': ok(moneyResult(150)) });
    renderApp('/user/home');
    const modal = await openTransfer();
    await waitFor(() => expect((input('from') as HTMLSelectElement).options.length).toBe(5));
    fill('to', 'PG');
    fill('amount', '150');
    const walletLoads = api.callsTo('GET', '/api/wallet').length;
    fireEvent.click(within(modal).getByTestId('transfer-submit'));

    const message = await screen.findByTestId('alert-message');
    expect(message.textContent).toBe('โอนเงิน 150.00 บาท จาก กระเป๋าเงิน ไปยัง PG Games เรียบร้อยแล้ว');
    const call = api.callsTo('POST', '/api/wallet/transfer')[0];
    expect(call?.body).toEqual({ from: 'WALLET', to: 'PG', amount: 150 });
    expect(call?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.queryByTestId('transfer-modal')).toBeNull();
    await waitFor(() => expect(api.callsTo('GET', '/api/wallet').length).toBe(walletLoads + 1));
    fireEvent.click(screen.getByTestId('alert-ok'));
  });

  it('keeps the key when resending after an unknown outcome, takes a new one for a new action', async () => {
    loginMember();
    let answer = 0;
    const api = mockApi({
      ...homeRoutes(),
      'POST /api/wallet/transfer': () => (++answer <= 2 ? fail(504, 'TRANSFER_PENDING') : answer === 3 ? fail(400, 'MONEY_NOT_ENOUGH') : ok(moneyResult(20))),
    });
    renderApp('/user/home');
    const modal = await openTransfer();
    await waitFor(() => expect((input('from') as HTMLSelectElement).options.length).toBe(5));
    fill('to', 'PG');
    fill('amount', '10');
    const keyOf = (call: RecordedCall | undefined) => call?.headers['idempotency-key'];
    const send = async (count: number) => {
      fireEvent.click(within(modal).getByTestId('transfer-submit'));
      await waitFor(() => expect(api.callsTo('POST', '/api/wallet/transfer')).toHaveLength(count));
      const alert = await screen.findByTestId('alert-dialog');
      const text = within(alert).getByTestId('alert-message').textContent;
      fireEvent.click(within(alert).getByTestId('alert-ok'));
      return text;
    };
    expect(await send(1)).toBe(th.errors.TRANSFER_PENDING);
    expect(await send(2)).toBe(th.errors.TRANSFER_PENDING);
    const calls = () => api.callsTo('POST', '/api/wallet/transfer');
    expect(keyOf(calls()[1])).toBe(keyOf(calls()[0]));
    // The server's final answer ends the action; the error dialog carries the translated code.
    expect(await send(3)).toBe(th.errors.MONEY_NOT_ENOUGH);
    expect(keyOf(calls()[2])).toBe(keyOf(calls()[0]));
    fill('amount', '20');
    fireEvent.click(within(modal).getByTestId('transfer-submit'));
    await screen.findByTestId('alert-message');
    expect(keyOf(calls()[3])).not.toBe(keyOf(calls()[0]));
    expect(calls()[3]?.body).toEqual({ from: 'WALLET', to: 'PG', amount: 20 });
    fireEvent.click(screen.getByTestId('alert-ok'));
  });
});
