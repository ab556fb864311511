import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { REGISTER_REDIRECT_MS } from '@mw/contract/constants';
import { th } from '../src/i18n/th';
import { fail, input, mockApi, ok, renderApp } from './helpers';

const location = () => screen.getByTestId('location').textContent;

const lookups = {
  'GET /api/lookup/registerOTP': ok({ registerOTP: false }),
  'GET /api/lookup/sources': ok([
    { code: 'FB', description: 'Facebook' },
    { code: 'FRIEND', description: 'Friend' },
  ]),
  'GET /api/lookup/banks': ok([
    { code: 'KBANK', nameTH: 'กสิกรไทย', nameEN: 'Kasikornbank', nameLA: 'ກະສິກອນໄທ', country: 'TH' },
    { code: 'KTB', nameTH: 'กรุงไทย', nameEN: 'Krungthai Bank', nameLA: 'ກຸງໄທ', country: 'TH' },
    { code: 'BCEL', nameTH: 'ธนาคารการค้าต่างประเทศลาว', nameEN: 'BCEL', nameLA: 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ', country: 'LA' },
  ]),
  'POST /api/account/validate': ok({ ok: true }),
  'POST /api/account': ok({ ok: true, _id: 'm-1' }),
};

const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });
const errors = () => screen.queryAllByTestId('field-error').map((e) => e.textContent);

async function passPhoneStep(phone = '0812345678') {
  await screen.findByTestId('register-step-phone');
  type('username', phone);
  fireEvent.click(screen.getByTestId('register-next'));
}

async function passProfileStep() {
  await screen.findByTestId('register-step-profile');
  type('name', 'Somchai');
  type('password', 'secret1');
  type('confirmPassword', 'secret1');
  type('birthDate', '1990-01-15');
  await screen.findByRole('option', { name: 'Facebook' });
  fireEvent.change(input('sourceCode'), { target: { value: 'FB' } });
  fireEvent.click(screen.getByTestId('register-next'));
}

describe('register wizard', () => {
  it('asks for a 10-digit phone number and calls nothing until it has one', async () => {
    const api = mockApi(lookups);
    renderApp('/register');
    await passPhoneStep('081234567');
    expect(errors()).toEqual([th.rules.PHONE_NUMBER_REQUIRE_10_DIGIT.replace('{{phoneLength}}', '10')]);
    expect(api.callsTo('POST', '/api/otp/send')).toHaveLength(0);
    expect(screen.getByTestId('register-step-phone')).toBeTruthy();

    type('username', '08-1234-5678'); // non-digits are dropped as typed
    expect((input('username') as HTMLInputElement).value).toBe('0812345678');
    expect(errors()).toEqual([]);
  });

  it('refuses a birth date under the minimum age before asking the server', async () => {
    const api = mockApi(lookups);
    renderApp('/register');
    await passPhoneStep();
    await screen.findByTestId('register-step-profile');
    type('name', 'Somchai');
    type('password', 'secret1');
    type('confirmPassword', 'secret1');
    type('birthDate', `${new Date().getFullYear() - 19}-01-01`);
    fireEvent.click(screen.getByTestId('register-next'));
    expect(errors()).toEqual([th.rules.UNDERAGE.replace('{{minAge}}', '20')]);
    expect(api.callsTo('POST', '/api/account/validate')).toHaveLength(0);
  });

  it('rejects passwords that do not match before asking the server', async () => {
    const api = mockApi(lookups);
    renderApp('/register');
    await passPhoneStep();
    await screen.findByTestId('register-step-profile');
    type('name', 'Somchai');
    type('password', 'secret1');
    type('confirmPassword', 'secret2');
    fireEvent.click(screen.getByTestId('register-next'));
    // The birth date is asked too (the age gate), so its field complains beside the passwords.
    expect(errors()).toEqual([th.rules.PASSWORDS_NOT_MATCH, th.rules.REQUIRED]);
    expect(api.callsTo('POST', '/api/account/validate')).toHaveLength(0);
  });

  it('requires an English account name for KTB, then creates the account and goes to /login after 2 s', async () => {
    const api = mockApi(lookups);
    renderApp('/register?code=INV42');
    await passPhoneStep();
    await passProfileStep();
    await screen.findByTestId('register-step-bank');

    const validation = api.callsTo('POST', '/api/account/validate')[0];
    expect(validation?.body).toEqual({
      name: 'Somchai',
      username: '0812345678',
      password: 'secret1',
      sourceCode: 'FB',
      inviteCode: 'INV42',
      bankCode: '',
      bankAccountName: '',
      bankAccountNo: '',
      birthDate: '1990-01-15',
    });

    await screen.findByRole('option', { name: 'กรุงไทย' });
    // The Thai build offers Thai banks only: BCEL is for the Laos build.
    expect(screen.queryByRole('option', { name: 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'ธนาคารการค้าต่างประเทศลาว' })).toBeNull();
    fireEvent.change(input('bankCode'), { target: { value: 'KTB' } });
    type('firstName', 'สมชาย');
    type('lastName', 'jaidee');
    expect((input('lastName') as HTMLInputElement).value).toBe('JAIDEE');
    type('bankAccountNo', '1234567890');
    fireEvent.click(screen.getByTestId('register-submit'));
    expect(errors()).toEqual([th.rules.BANK_ACCOUNT_NAME_ENG]);
    expect(api.callsTo('POST', '/api/account')).toHaveLength(0);

    type('firstName', 'somchai');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByTestId('register-submit'));
    await screen.findByTestId('register-success');
    expect(api.callsTo('POST', '/api/account')[0]?.body).toEqual({
      name: 'Somchai',
      username: '0812345678',
      password: 'secret1',
      sourceCode: 'FB',
      inviteCode: 'INV42',
      bankCode: 'KTB',
      bankAccountName: 'SOMCHAI JAIDEE',
      bankAccountNo: '1234567890',
      birthDate: '1990-01-15',
    });
    expect(location()).toBe('/register?code=INV42');
    await act(() => vi.advanceTimersByTimeAsync(REGISTER_REDIRECT_MS));
    await waitFor(() => expect(location()).toBe('/login'));
  });

  it('accepts a Thai account name for a bank without the English rule', async () => {
    const api = mockApi(lookups);
    renderApp('/register');
    await passPhoneStep();
    await passProfileStep();
    await screen.findByTestId('register-step-bank');
    await screen.findByRole('option', { name: 'กสิกรไทย' });
    fireEvent.change(input('bankCode'), { target: { value: 'KBANK' } });
    type('firstName', 'สมชาย');
    type('lastName', 'ใจดี');
    type('bankAccountNo', '1234567890');
    fireEvent.click(screen.getByTestId('register-submit'));
    await screen.findByTestId('register-success');
    expect((api.callsTo('POST', '/api/account')[0]?.body as { bankAccountName: string }).bankAccountName).toBe('สมชาย ใจดี');
  });

  it('runs the OTP step when registerOTP is on: shows the reference and the sandbox SMS, then verifies', async () => {
    const api = mockApi({
      ...lookups,
      'GET /api/lookup/registerOTP': ok({ registerOTP: true }),
      'POST /api/otp/send': ok({ otpRef: 'ABCD', otpToken: 'tok-otp', code: 'OTP_SENT' }),
      'GET /api/sandbox/sms': ok({
        messages: [{ phoneNumber: '0812345678', text: 'Your code is 123456 (ref ABCD)', createdAt: '2025-01-01T00:00:00Z' }],
      }),
      'POST /api/otp/verify': (call) =>
        (call.body as { otpCode: string }).otpCode === '123456' ? ok({ code: 'OTP_CODE_VALID' }) : fail(400, 'OTP_CODE_INVALID'),
    });
    renderApp('/register');
    await passPhoneStep();
    await screen.findByTestId('register-step-otp');
    expect(api.callsTo('POST', '/api/otp/send')[0]?.body).toEqual({ phoneNumber: '0812345678' });
    expect(screen.getByTestId('otp-ref').textContent).toContain('ABCD');
    expect((await screen.findByTestId('sandbox-sms-text')).textContent).toContain('123456');
    expect(api.callsTo('GET', '/api/sandbox/sms')[0]?.query.get('phoneNumber')).toBe('0812345678');

    type('otpCode', '000000');
    fireEvent.click(screen.getByTestId('otp-verify'));
    expect((await screen.findByTestId('register-error')).textContent).toBe(th.errors.OTP_CODE_INVALID);

    type('otpCode', '123456');
    fireEvent.click(screen.getByTestId('otp-verify'));
    await screen.findByTestId('register-step-profile');
    expect(api.callsTo('POST', '/api/otp/verify')[1]?.body).toEqual({ otpToken: 'tok-otp', otpCode: '123456' });

    // The verified token goes with the registration (the server binds it to this client).
    await passProfileStep();
    await screen.findByTestId('register-step-bank');
    await screen.findByRole('option', { name: 'กสิกรไทย' });
    fireEvent.change(input('bankCode'), { target: { value: 'KBANK' } });
    type('firstName', 'Somchai');
    type('lastName', 'Jaidee');
    type('bankAccountNo', '1234567890');
    fireEvent.click(screen.getByTestId('register-submit'));
    await screen.findByTestId('register-success');
    expect(api.callsTo('POST', '/api/account')[0]?.body).toMatchObject({ username: '0812345678', otpToken: 'tok-otp' });
    // Used up: the tab forgets it.
    expect(sessionStorage.getItem('register-otp')).toBeNull();
  });

  it('skips the OTP step when this tab already verified the phone, sending its token along', async () => {
    sessionStorage.setItem('register-otp', JSON.stringify({ phone: '0812345678', token: 'tok-earlier' }));
    const api = mockApi({
      ...lookups,
      'GET /api/lookup/registerOTP': ok({ registerOTP: true }),
      'POST /api/otp/send': ok({ otpRef: 'WXYZ', otpToken: 'tok-earlier', code: 'OTP_VERIFIED' }),
    });
    renderApp('/register');
    await passPhoneStep();
    expect(await screen.findByTestId('register-step-profile')).toBeTruthy();
    expect(screen.queryByTestId('register-step-otp')).toBeNull();
    expect(api.callsTo('POST', '/api/otp/send')[0]?.body).toEqual({ phoneNumber: '0812345678', otpToken: 'tok-earlier' });
  });

  it('does not send a token verified for another phone', async () => {
    sessionStorage.setItem('register-otp', JSON.stringify({ phone: '0899999999', token: 'tok-other' }));
    const api = mockApi({
      ...lookups,
      'GET /api/lookup/registerOTP': ok({ registerOTP: true }),
      'POST /api/otp/send': ok({ otpRef: 'ABCD', otpToken: 'tok-new', code: 'OTP_SENT' }),
      'GET /api/sandbox/sms': ok({ messages: [] }),
    });
    renderApp('/register');
    await passPhoneStep();
    await screen.findByTestId('register-step-otp');
    expect(api.callsTo('POST', '/api/otp/send')[0]?.body).toEqual({ phoneNumber: '0812345678' });
  });

  it('shows the server answer of the validation call and stays on the profile step', async () => {
    mockApi({ ...lookups, 'POST /api/account/validate': fail(400, 'EXISTING_USER') });
    renderApp('/register');
    await passPhoneStep();
    await passProfileStep();
    expect((await screen.findByTestId('register-error')).textContent).toBe(th.errors.EXISTING_USER);
    expect(screen.getByTestId('register-step-profile')).toBeTruthy();
  });

  it('moves on to the bank step when validation only misses the still-empty bank part', async () => {
    mockApi({ ...lookups, 'POST /api/account/validate': fail(400, 'KEY_MISSING') });
    renderApp('/register');
    await passPhoneStep();
    await passProfileStep();
    expect(await screen.findByTestId('register-step-bank')).toBeTruthy();
  });

  it('prefills the inviter code from the stored code', async () => {
    localStorage.setItem('code', 'STORED7');
    mockApi(lookups);
    renderApp('/register');
    await passPhoneStep();
    await screen.findByTestId('register-step-profile');
    expect((input('inviteCode') as HTMLInputElement).value).toBe('STORED7');
  });
});
