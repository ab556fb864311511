import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { th } from '../src/i18n/th';
import { fail, input, mockApi, ok, renderApp } from './helpers';

const profile = {
  _id: '64f000000000000000000001',
  username: '0812345678',
  name: 'Somchai',
  createdAt: '2024-03-05T07:08:09.000Z',
  coin: 3,
  bankCode: 'KTB',
  bankAccountName: 'สมชาย ใจดี',
  bankAccountNo: '1234567890',
  bank: { code: 'KTB', nameTH: 'กรุงไทย', nameEN: 'Krungthai Bank', nameLA: 'ທະນາຄານກຸງໄທ' },
  currency: 'BAHT',
};

describe('profile page', () => {
  it('shows the member, the Thai bank name and the account number as 3-3-rest', async () => {
    localStorage.setItem('token', 'member');
    mockApi({ 'GET /api/account/profile': ok(profile) });
    renderApp('/user/profile');
    expect((await screen.findByTestId('profile-name')).textContent).toBe('Somchai');
    expect(screen.getByTestId('profile-id').textContent).toBe(profile._id);
    expect(screen.getByTestId('profile-created-at').textContent).toMatch(/^\d{2}\/\d{2}\/2024 \d{2}:\d{2}:09$/);
    expect((screen.getByTestId('profile-username') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByTestId('profile-bank-name').textContent).toBe('กรุงไทย');
    expect(screen.getByTestId('profile-bank-account-no').textContent).toBe('123-456-7890');
  });

  it('offers the English name correction for KTB and refuses a non-English name with requiredEngLangMsg', async () => {
    localStorage.setItem('token', 'member');
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = mockApi({
      'GET /api/account/profile': ok(profile),
      'PUT /api/account/bankAccountName': (call) => ok({ ...profile, bankAccountName: (call.body as { bankAccountName: string }).bankAccountName }),
    });
    renderApp('/user/profile');
    fireEvent.click(await screen.findByTestId('edit-bank-account-name-button'));
    const modal = await screen.findByTestId('bank-account-name-modal');

    fireEvent.change(input('bankAccountName'), { target: { value: 'สมชาย' } });
    fireEvent.click(within(modal).getByTestId('bank-account-name-submit'));
    expect((await screen.findByTestId('toast')).textContent).toContain(th.bankName.requiredEngLangMsg);
    expect(api.callsTo('PUT', '/api/account/bankAccountName')).toHaveLength(0);

    fireEvent.change(input('bankAccountName'), { target: { value: 'somchai jaidee' } });
    expect((input('bankAccountName') as HTMLInputElement).value).toBe('SOMCHAI JAIDEE');
    fireEvent.click(within(modal).getByTestId('bank-account-name-submit'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('SOMCHAI JAIDEE'));
    expect(api.callsTo('PUT', '/api/account/bankAccountName')[0]?.body).toEqual({ bankCode: 'KTB', bankAccountName: 'SOMCHAI JAIDEE' });
    expect((await screen.findByTestId('profile-bank-account-name')).textContent).toBe('SOMCHAI JAIDEE');
    expect(screen.queryByTestId('edit-bank-account-name-button')).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('toast').some((t) => t.textContent?.includes('คัดลอกแล้ว: SOMCHAI JAIDEE'))).toBe(true));
  });

  it('does not offer the name correction for other banks', async () => {
    localStorage.setItem('token', 'member');
    mockApi({ 'GET /api/account/profile': ok({ ...profile, bankCode: 'KBANK', bank: { code: 'KBANK', nameTH: 'กสิกรไทย', nameEN: 'Kasikornbank', nameLA: 'ກະສິກອນໄທ' } }) });
    renderApp('/user/profile');
    await screen.findByTestId('profile-name');
    expect(screen.queryByTestId('edit-bank-account-name-button')).toBeNull();
  });

  it('change password: nothing when a field is empty, a message when they differ, the server error in an alert', async () => {
    localStorage.setItem('token', 'member');
    const api = mockApi({ 'GET /api/account/profile': ok(profile), 'PUT /api/account/changepwd': fail(400, 'WRONG_PASSWORD') });
    renderApp('/user/profile');
    fireEvent.click(await screen.findByTestId('change-password-button'));
    const modal = await screen.findByTestId('change-password-modal');
    const submit = within(modal).getByTestId('change-password-submit');

    fireEvent.change(input('oldPassword'), { target: { value: 'old-pass' } });
    fireEvent.change(input('newPassword'), { target: { value: 'new-pass' } });
    fireEvent.click(submit);
    expect(screen.queryByTestId('change-password-error')).toBeNull();

    fireEvent.change(input('confirmPassword'), { target: { value: 'other-pass' } });
    fireEvent.click(submit);
    expect(screen.getByTestId('change-password-error').textContent).toBe(th.changePassword.passwordsNotEqual);
    expect(api.callsTo('PUT', '/api/account/changepwd')).toHaveLength(0);

    fireEvent.change(input('confirmPassword'), { target: { value: 'new-pass' } });
    fireEvent.click(submit);
    expect((await screen.findByTestId('alert-message')).textContent).toBe(th.errors.WRONG_PASSWORD);
    expect(api.callsTo('PUT', '/api/account/changepwd')[0]?.body).toEqual({ oldPassword: 'old-pass', newPassword: 'new-pass' });
  });
});
