import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { ComponentType } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../admin/src/i18n/en';
import type { CallAnswer } from '../admin/src/shared/client';
import { mockApi, ok } from './helpers';

type RiskFlag = CallAnswer<'riskFlagsList'>['flags'][number];
type CardProps = { flag: RiskFlag; canDecide: boolean; onDecided: (text: string) => void };
/**
 * Loaded at run time: the back office's screens type their texts against its own i18n (its own
 * tsconfig), which this project's compiler (the member app's texts) does not load.
 */
const CARD = '../admin/src/features/risk/RiskFlagCard';
const { RiskFlagCard } = (await import(/* @vite-ignore */ CARD)) as { RiskFlagCard: ComponentType<CardProps> };

const member = (id: string, name: string) => ({ id, username: `08000000${id.slice(-2)}`, name, bankCode: 'KBANK', bankAccountNo: `12345678${id.slice(-2)}`, bankAccountName: name.toUpperCase(), status: 'active', createdAt: '2026-01-02T03:04:05.000Z' });
const flag: RiskFlag = {
  id: 'f1',
  kind: 'same-device',
  memberIds: ['m01', 'm02'],
  evidence: { deviceId: 'dev-abc', registrations: [{ memberId: 'm01' }, { memberId: 'm02' }] },
  createdAt: '2026-01-02T03:04:05.000Z',
  status: 'open',
  note: null,
  decidedBy: null,
  decidedAt: null,
  members: [member('m01', 'Somchai One'), member('m02', 'Somsak Two')],
};

async function renderCard(onDecided: (text: string) => void) {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false }, showSupportNotice: false });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <RiskFlagCard flag={flag} canDecide onDecided={onDecided} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('back office risk flag', () => {
  it('shows the linked members side by side and the evidence; resolve and dismiss wait for a note, which goes with the call', async () => {
    const api = mockApi({ 'POST /api/operator/risk/flags/f1/dismiss': ok({ ...flag, status: 'dismissed', note: 'same household', decidedBy: 'finance', decidedAt: '2026-01-02T04:00:00.000Z' }) });
    const onDecided = vi.fn();
    await renderCard(onDecided);
    expect(screen.getByRole('heading', { name: en.risk.kinds.sameDevice })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Somchai One/ }).getAttribute('href')).toBe('/members/m01');
    expect(screen.getByRole('link', { name: /Somsak Two/ }).getAttribute('href')).toBe('/members/m02');
    expect(screen.getByText('dev-abc')).toBeTruthy();
    const dismiss = screen.getByRole('button', { name: en.risk.dismiss });
    expect((dismiss as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: en.risk.resolve }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: en.risk.note }), { target: { value: '  same household  ' } });
    fireEvent.click(dismiss);
    await waitFor(() => expect(onDecided).toHaveBeenCalledWith(en.risk.dismissedDone));
    expect(api.callsTo('POST', '/api/operator/risk/flags/f1/dismiss')[0]?.body).toEqual({ note: 'same household' });
  });
});
