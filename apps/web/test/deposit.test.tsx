import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { QrState } from '@mw/contract/qr';
import { formatCountdown } from '../src/features/deposit/countdown';
import { depositViews, qrMinimum, qrPresets, type DepositLookup } from '../src/features/deposit/depositChannels';
import { changeLocale } from '../src/i18n/i18n';
import { th } from '../src/i18n/th';
import { fail, input, mockApi, ok, renderApp } from './helpers';
import { homeRoutes, loginMember, walletAnswer } from './walletFixtures';

/** A socket.io client stand-in (the member layout's balance push): the test fires its events. */
const fakeSocket = vi.hoisted(() => {
  const listeners = new Map<string, Array<(...args: unknown[]) => void>>();
  return {
    listeners,
    fire: (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((l) => l(...args)),
    socket: {
      on(event: string, listener: (...args: unknown[]) => void) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      },
      close: () => listeners.clear(),
    },
  };
});
vi.mock('socket.io-client', () => ({ io: () => fakeSocket.socket }));

const names = (nameTH: string, nameEN: string, nameLA = nameEN) => ({ nameTH, nameEN, nameLA });
const bank = (bankCode: string, mode: string, patch: Partial<DepositLookup['banks'][number]> = {}): DepositLookup['banks'][number] => ({
  bankCode,
  bankType: 'BANK',
  mode,
  bank: names(`ธนาคาร ${bankCode}`, `${bankCode} Bank`),
  bankAccountName: 'GOLDEN CO',
  bankAccountNo: '0451234567',
  currency: 'BAHT',
  ...patch,
});
const provider = (bankCode: string) => bank(bankCode, 'AUTO', { bankType: 'PAYMENT', bank: names(bankCode, bankCode), bankAccountName: '', bankAccountNo: '' });

/** The e-wallet's key pair, as the server makes it (the lookup carries the public half). */
const giftKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const giftPublicKey = giftKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** The demo seed's channels (apps/server demo module). */
const lookup: DepositLookup = {
  banks: [
    bank('KBANK', 'AUTO', { bank: names('ธนาคารกสิกรไทย', 'Kasikornbank') }),
    bank('KBANK', 'SMS', { bankAccountNo: '0459876543', bank: names('ธนาคารกสิกรไทย', 'Kasikornbank') }),
    bank('SCB', 'AUTO', { bankAccountNo: '4071234567' }),
    bank('GSB', 'MANUAL', { bankAccountNo: '020123456789' }),
    bank('BCEL', 'AUTO', { bankAccountNo: '0100001234567', currency: 'LAK', bank: names('ธนาคารการค้าต่างประเทศลาว', 'Banque Pour Le Commerce Exterieur Lao', 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ') }),
    provider('WW'),
    provider('PAYTIMZ'),
    provider('PAYONEX'),
    provider('ZPAY'),
  ],
  wallets: [
    { walletAccountName: 'GOLDEN WALLET', mode: 'AUTO', walletAccountNo: '0891234567', publicKey: giftPublicKey },
    { walletAccountName: 'GOLDEN WALLET', mode: 'GIFT', publicKey: giftPublicKey },
  ],
  isManual: false,
};

describe('deposit channels by bank code and mode', () => {
  it('splits a baht member’s channels into accounts, QR providers and e-wallets, without LAK ones', () => {
    const views = depositViews(lookup, 'BAHT');
    expect(views.manual).toBe(false);
    expect(views.bank.map((view) => (view.kind === 'account' ? `${view.bank.bankCode}:${view.mode}` : view.kind))).toEqual(['KBANK:AUTO', 'SCB:AUTO', 'GSB:MANUAL']);
    expect(views.qr.map((channel) => `${channel.code}:${channel.minimum}`)).toEqual(['KBANK:1', 'WW:100', 'PAYTIMZ:10', 'PAYONEX:100', 'ZPAY:10']);
    expect(views.qr[0]?.bank).toBe(true);
    expect(views.ewallet.map((view) => view.kind)).toEqual(['ewalletAuto', 'gift']);
  });

  it('gives a LAK member the LAK channels only, BCEL as its own view', () => {
    const views = depositViews(lookup, 'LAK');
    expect(views.bank.map((view) => view.kind)).toEqual(['bcel']);
    expect(views.qr).toEqual([]);
    expect(views.ewallet).toEqual([]);
  });

  it('with isManual offers plain account views only', () => {
    const views = depositViews({ ...lookup, isManual: true }, 'BAHT');
    expect(views.manual).toBe(true);
    expect(views.bank.every((view) => view.kind === 'account' && view.mode === 'MANUAL')).toBe(true);
    expect(views.bank).toHaveLength(4);
    expect(views.qr).toEqual([]);
    expect(views.ewallet).toEqual([]);
  });

  it('skips an AUTO e-wallet without a number; any other mode is the gift-link form', () => {
    const views = depositViews({ ...lookup, wallets: [{ walletAccountName: 'X', mode: 'AUTO' }, { walletAccountName: 'Y', mode: 'NONE' }] }, 'BAHT');
    expect(views.ewallet.map((view) => `${view.kind}:${view.wallet.walletAccountName}`)).toEqual(['gift:Y']);
  });

  it('gives a kip member the kip QR figures: the lookup\'s, else the kip defaults (never the baht ones)', () => {
    const kipWw = { ...provider('WW'), currency: 'LAK' };
    const fromLookup = depositViews({ ...lookup, banks: [{ ...kipWw, minimum: 60_000, presets: [60_000, 120_000] }] }, 'LAK');
    expect(fromLookup.qr.map((channel) => [channel.minimum, channel.presets])).toEqual([[60_000, [60_000, 120_000]]]);
    const defaults = depositViews({ ...lookup, banks: [kipWw] }, 'LAK');
    expect(defaults.qr.map((channel) => [channel.minimum, channel.presets])).toEqual([[50_000, [50_000, 100_000, 200_000, 500_000, 1_000_000]]]);
    expect([qrMinimum('PAYTIMZ', 'LAK'), qrMinimum('KBANK', 'LAK'), qrMinimum('OTHER', 'LAK')]).toEqual([5_000, 1_000, 1_000]);
  });

  it('takes minimums and presets from spec sections 5 and 9', () => {
    expect([qrMinimum('WW'), qrMinimum('PAYONEX'), qrMinimum('PAYTIMZ'), qrMinimum('ZPAY'), qrMinimum('KBANK'), qrMinimum('OTHER')]).toEqual([100, 100, 10, 10, 1, 1]);
    expect(qrPresets('WW')).toEqual([100, 200, 300, 500, 1000]);
    expect(qrPresets('OTHER')).toEqual([10, 20, 50, 100, 500, 1000]);
  });

  it('writes the countdown as mm:ss', () => {
    expect([formatCountdown(600), formatCountdown(59), formatCountdown(0), formatCountdown(-3)]).toEqual(['10:00', '00:59', '00:00', '00:00']);
  });
});

const profileAnswer = (currency: string) => ({
  _id: '64f000000000000000000001',
  username: '0812345678',
  name: 'Somchai',
  createdAt: '2024-03-05T07:08:09.000Z',
  coin: 0,
  bankCode: 'KBANK',
  bankAccountName: 'SOMCHAI JAIDEE',
  bankAccountNo: '1234567890',
  bank: { code: 'KBANK', ...names('กสิกรไทย', 'Kasikornbank') },
  currency,
});

const NO_QR: QrState = { hasQrcode: false, qrcodeId: null, qrcode: null, amount: null, expireIn: null, payload: null };
const openQr = (amount: number, expireIn = 600): QrState => ({
  hasQrcode: true,
  qrcodeId: 'qr-1',
  qrcode: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  amount,
  expireIn,
  payload: '00020101021230650016A000000677010112',
});

async function openDeposit(routes: Parameters<typeof mockApi>[0], currency = 'BAHT') {
  loginMember();
  const api = mockApi({ ...homeRoutes(), 'GET /api/lookup/deposit': ok(lookup), 'GET /api/account/profile': ok(profileAnswer(currency)), ...routes });
  renderApp('/user/home');
  // The first test of the file loads the lazy modal and its channel data: generous waits on a busy machine.
  const slow = { timeout: 10_000 };
  await screen.findByTestId('total-balance', {}, slow);
  fireEvent.click(screen.getByTestId('home-tile-deposit'));
  const modal = await screen.findByTestId('deposit-modal', {}, slow);
  await waitFor(() => expect(within(modal).getByTestId('deposit-balance').textContent).toMatch(/^[฿₭]400[.,]00$/), slow);
  return { api, modal };
}

describe('deposit modal', () => {
  it('shows the account views with the number as 3-3-rest, the AUTO note and the staff-checked note', async () => {
    const { modal } = await openDeposit({});
    const accounts = await within(modal).findAllByTestId('deposit-bank', {}, { timeout: 10_000 });
    expect(accounts.map((card) => `${card.dataset.bank}:${card.dataset.mode}`)).toEqual(['KBANK:AUTO', 'SCB:AUTO', 'GSB:MANUAL']);
    expect(within(accounts[0] as HTMLElement).getByTestId('deposit-bank-no').textContent).toBe('045-123-4567');
    expect(within(accounts[0] as HTMLElement).getByTestId('deposit-auto-note').textContent).toContain(th.deposit.note);
    expect(within(accounts[0] as HTMLElement).getByTestId('deposit-registered-account').textContent).toContain('123-456-7890');
    expect(within(accounts[2] as HTMLElement).getByTestId('deposit-manual-note').textContent).toBe(th.deposit.manualNote);
    // Bank names follow the locale: Thai in th.
    expect(within(accounts[0] as HTMLElement).getByRole('heading').textContent).toBe('ธนาคารกสิกรไทย');
    expect(within(modal).queryByTestId('deposit-bcel')).toBeNull();
    expect(within(modal).getAllByRole('tab').map((tab) => tab.textContent)).toEqual([th.deposit.tab.bank, th.deposit.tab.qr, th.deposit.tab.ewallet]);
  });

  it('QR: presets and the minimum, create, the countdown, cancel; other providers are marked to refresh', async () => {
    let ww: QrState = NO_QR;
    const { api, modal } = await openDeposit({
      'GET /api/qrcode/KBANK': ok(NO_QR),
      'GET /api/qrcode/WW': () => ok(ww),
      'POST /api/qrcode/WW': (call) => {
        ww = openQr((call.body as { amount: number }).amount);
        return ok(ww);
      },
      'DELETE /api/qrcode/qr-1': () => {
        ww = NO_QR;
        return ok({ ok: true });
      },
    });
    fireEvent.click(within(modal).getByTestId('deposit-tab-qr'));
    await within(modal).findByTestId('qr-create-form');
    expect(api.callsTo('GET', '/api/qrcode/KBANK')).toHaveLength(1);
    fireEvent.click(within(modal).getByTestId('qr-provider-WW'));
    await within(modal).findByTestId('qr-preset-100');
    expect((within(modal).getByTestId('qr-create') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(input('qrAmount'), { target: { value: '99' } });
    fireEvent.click(within(modal).getByTestId('qr-create'));
    expect(within(modal).getByTestId('field-error').textContent).toBe('จำนวนเงินขั้นต่ำ 100.00 บาท');
    expect(api.callsTo('POST', '/api/qrcode/WW')).toHaveLength(0);

    fireEvent.click(within(modal).getByTestId('qr-preset-300'));
    expect(within(modal).getByTestId('qr-preset-300').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(modal).getByTestId('qr-create'));
    const shown = await within(modal).findByTestId('qr-shown');
    expect(api.callsTo('POST', '/api/qrcode/WW')[0]?.body).toEqual({ amount: 300 });
    expect(shown.dataset.qrcodeId).toBe('qr-1');
    expect(within(shown).getByTestId('qr-countdown').textContent).toMatch(/^(10:00|09:5\d)$/);
    expect(await within(shown).findByRole('img', { name: 'QR Code สำหรับชำระ ฿300.00' })).toBeTruthy();

    // KBANK's view was marked to refresh: visiting it asks again.
    fireEvent.click(within(modal).getByTestId('qr-provider-KBANK'));
    await waitFor(() => expect(api.callsTo('GET', '/api/qrcode/KBANK')).toHaveLength(2));
    fireEvent.click(within(modal).getByTestId('qr-provider-WW'));

    fireEvent.click(await within(modal).findByTestId('qr-cancel'));
    await within(modal).findByTestId('qr-create-form');
    expect(api.callsTo('DELETE', '/api/qrcode/qr-1')).toHaveLength(1);
    expect((await screen.findByText(th.deposit.qr.cancelled)).textContent).toBe(th.deposit.qr.cancelled);
  });

  it('QR: at 00:00 shows the expired state, with a new QR for the same amount in one tap (or another amount)', async () => {
    let kbank: QrState = openQr(50, 2);
    const { modal, api } = await openDeposit({
      'GET /api/qrcode/KBANK': () => ok(kbank),
      'POST /api/qrcode/KBANK': () => {
        kbank = { ...openQr(50, 600), qrcodeId: 'qr-renewed' };
        return ok(kbank);
      },
    });
    fireEvent.click(within(modal).getByTestId('deposit-tab-qr'));
    const shown = await within(modal).findByTestId('qr-shown');
    expect(within(shown).getByTestId('qr-countdown').textContent).toMatch(/^00:0[12]$/);
    kbank = NO_QR;
    const expired = await within(modal).findByTestId('qr-expired', {}, { timeout: 4_000 });
    expect(expired.textContent).toContain(th.deposit.qr.expiredTitle);
    const renew = within(expired).getByTestId('qr-renew');
    expect(renew.textContent).toBe(th.deposit.qr.renew.replace('{{sign}}', '฿').replace('{{amount}}', '50.00'));
    fireEvent.click(renew);
    expect(await within(modal).findByTestId('qr-shown')).toBeTruthy();
    expect(api.callsTo('POST', '/api/qrcode/KBANK')[0]?.body).toEqual({ amount: 50 });
  });

  it('QR: a failed gateway is a red toast; the server’s minimum is shown inline', async () => {
    let answer: 'fail' | 'min' = 'fail';
    const { modal } = await openDeposit({
      'GET /api/qrcode/KBANK': ok(NO_QR),
      'POST /api/qrcode/KBANK': () => (answer === 'fail' ? ok({ ...NO_QR, message: 'QR_FAIL' }) : { status: 400, body: { message: 'DEPOSIT_MINIMUM', minimum: 20 } }),
    });
    fireEvent.click(within(modal).getByTestId('deposit-tab-qr'));
    fireEvent.click(await within(modal).findByTestId('qr-preset-10'));
    fireEvent.click(within(modal).getByTestId('qr-create'));
    const toast = (await screen.findByText(th.errors.QR_FAIL)).closest('[data-testid=toast]');
    expect(toast?.className).toContain('toast-error');

    answer = 'min';
    fireEvent.click(within(modal).getByTestId('qr-create'));
    expect((await within(modal).findByTestId('field-error')).textContent).toBe('จำนวนเงินขั้นต่ำ 20.00 บาท');
  });

  it('QR: the wallet is not polled; a pushed deposit updates the balance with a toast; "I have transferred" closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, modal } = await openDeposit({
      'GET /api/wallet': () => ok(walletAnswer({ wallet: { amount: 400 } })),
      'GET /api/qrcode/KBANK': ok(openQr(100)),
    });
    fireEvent.click(within(modal).getByTestId('deposit-tab-qr'));
    await within(modal).findByTestId('qr-shown');
    await waitFor(() => expect(fakeSocket.listeners.has('balance')).toBe(true));
    const before = api.callsTo('GET', '/api/wallet').length;
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(api.callsTo('GET', '/api/wallet').length).toBe(before);
    // The server pushes the credited deposit (an older event, replayed, changes nothing).
    act(() => fakeSocket.fire('balance', { reason: 'deposit', wallet: 500, amount: 100, versions: { wallet: 9 } }));
    act(() => fakeSocket.fire('balance', { reason: 'withdrawal', wallet: 450, amount: -50, versions: { wallet: 8 } }));
    await waitFor(() => expect(within(modal).getByTestId('deposit-balance').textContent).toBe('฿500.00'));
    expect(await screen.findByText('ยอดเงินเข้ากระเป๋าแล้ว ยอดคงเหลือ ฿500.00')).toBeTruthy();
    expect(await screen.findByText('ฝากเงิน ฿100.00 เข้ากระเป๋าแล้ว')).toBeTruthy();

    fireEvent.click(within(modal).getByTestId('qr-transferred'));
    expect(await screen.findByText(th.deposit.qr.refreshBalance)).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('deposit-modal')).toBeNull());
  });

  it('e-wallet: the AUTO number and note; the gift link is off while empty, sent encrypted for the e-wallet\'s key, errors toast', async () => {
    const { api, modal } = await openDeposit({
      'POST /api/wallet/truelink': () => fail(400, 'TRUELINK_INVALID'),
    });
    fireEvent.click(within(modal).getByTestId('deposit-tab-ewallet'));
    expect((await within(modal).findByTestId('deposit-ewallet-no')).textContent).toBe('089-123-4567');
    expect(within(modal).getByTestId('deposit-ewallet-note').textContent).toBe('โอนจากวอลเล็ทเบอร์ 081-234-5678 (ชื่อผู้ใช้ของคุณ) เท่านั้น ฝากขั้นต่ำ 2 บาท');

    const send = within(modal).getByTestId('gift-send') as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(input('giftLink'), { target: { value: '  ' } });
    expect(send.disabled).toBe(true);
    const link = 'https://gift.truemoney.com/campaign/?v=0123456789abcdef';
    fireEvent.change(input('giftLink'), { target: { value: link } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    const toast = (await screen.findByText(th.errors.TRUELINK_INVALID)).closest('[data-testid=toast]');
    expect(toast?.className).toContain('toast-error');
    const call = api.callsTo('POST', '/api/wallet/truelink')[0];
    const body = call?.body as { link: string };
    // base64(RSA-OAEP-SHA256(link)) :: account name — the server's private key opens it.
    const [cipher = '', account] = body.link.split('::');
    expect(account).toBe('GOLDEN WALLET');
    expect(cipher).not.toContain('truemoney');
    const plain = privateDecrypt({ key: giftKeys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(cipher, 'base64')).toString('utf8');
    expect(plain).toBe(link);
    expect(call?.headers['idempotency-key']).toBeTruthy();
    // Sent again: the same text under the same key (a safe retry).
    fireEvent.click(send);
    await waitFor(() => expect(api.callsTo('POST', '/api/wallet/truelink')).toHaveLength(2));
    const again = api.callsTo('POST', '/api/wallet/truelink')[1];
    expect(again?.body).toEqual(body);
  });

  it('a LAK member sees BCEL with its currency and guide; in Lao the bank name is the Lao one', async () => {
    await changeLocale('la');
    try {
      const { modal } = await openDeposit({}, 'LAK');
      const bcel = await within(modal).findByTestId('deposit-bcel');
      const { la } = await import('../src/i18n/la');
      expect(within(bcel).getByTestId('deposit-currency').textContent).toBe(la.register.currencies.LAK);
      expect(within(bcel).getByRole('heading').textContent).toBe('ທະນາຄານການຄ້າຕ່າງປະເທດລາວ');
      expect(within(bcel).getByRole('img', { name: la.deposit.bcel.guide })).toBeTruthy();
      expect(within(modal).queryAllByTestId('deposit-bank')).toHaveLength(0);
      expect(within(modal).queryByRole('tablist')).toBeNull();
    } finally {
      await changeLocale('th');
    }
  });

  it('with isManual shows a notice and plain account views only', async () => {
    const { modal } = await openDeposit({ 'GET /api/lookup/deposit': ok({ ...lookup, isManual: true }) });
    expect((await within(modal).findByTestId('deposit-manual')).textContent).toBe(th.deposit.manualMode);
    expect(within(modal).getAllByTestId('deposit-bank').map((card) => card.dataset.mode)).toEqual(['MANUAL', 'MANUAL', 'MANUAL', 'MANUAL']);
    expect(within(modal).queryByRole('tablist')).toBeNull();
  });
});
