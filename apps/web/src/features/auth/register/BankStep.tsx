import { useTranslation } from 'react-i18next';
import { Link } from '../../../shared/router';
import { LAOS_CURRENCIES } from '@mw/contract/constants';
import { LAOS } from '../../../shared/config';
import { bankName } from '../../../shared/format/bankName';
import { useLocale } from '../../../shared/format/useLocale';
import { FormError, SelectField, TextField } from '../../../shared/ui/fields';
import { Spinner } from '../../../shared/ui/Spinner';
import { useBanks } from './registerApi';
import { stepHandlers, type StepProps } from './stepProps';

/**
 * Banks offered by the build: the Thai build Thai banks only; the Laos build its Lao banks (BCEL),
 * and the Thai ones too for a baht wallet. The server takes no other (INVALID_BANK).
 */
function bankOffered(country: 'TH' | 'LA', currency: string): boolean {
  if (!LAOS) return country === 'TH';
  return country === 'LA' || currency === 'BAHT';
}

export function BankStep({ form, errors, serverError, pending, onChange, onSubmit, onBack }: StepProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const banks = useBanks();
  const { message, submit } = stepHandlers(errors, onSubmit);
  return (
    <form className="form" onSubmit={submit} noValidate data-testid="register-step-bank">
      {/* In the Laos build the currency comes first: it decides which banks are offered. */}
      {LAOS && (
        <SelectField label={t('register.currency')} name="currency" value={form.currency} onChange={(e) => {
            const currency = e.target.value;
            onChange('currency', currency);
            // A Thai bank is for a baht wallet only: choosing kip clears it.
            const chosen = banks.data?.find((bank) => bank.code === form.bankCode);
            if (chosen && !bankOffered(chosen.country, currency)) onChange('bankCode', '');
          }}>
          {LAOS_CURRENCIES.map((currency) => (
            <option key={currency} value={currency}>
              {t(`register.currencies.${currency}`)}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField
        label={t('register.bank')}
        name="bankCode"
        value={form.bankCode}
        onChange={(e) => onChange('bankCode', e.target.value)}
        error={message('bankCode')}
      >
        <option value="">{t('register.bankPlaceholder')}</option>
        {(banks.data ?? []).filter((bank) => bankOffered(bank.country, form.currency)).map((bank) => (
          <option key={bank.code} value={bank.code}>
            {bankName(bank, locale)}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('register.firstName')}
        name="firstName"
        autoComplete="given-name"
        autoCapitalize="characters"
        value={form.firstName}
        onChange={(e) => onChange('firstName', e.target.value.toUpperCase())}
        error={message('firstName')}
      />
      <TextField
        label={t('register.lastName')}
        name="lastName"
        autoComplete="family-name"
        autoCapitalize="characters"
        value={form.lastName}
        onChange={(e) => onChange('lastName', e.target.value.toUpperCase())}
        error={message('lastName')}
        hint={t('register.accountNameHint')}
      />
      <TextField
        label={t('register.accountNo')}
        icon="bank"
        name="bankAccountNo"
        inputMode="numeric"
        autoComplete="off"
        maxLength={18}
        placeholder={t('register.accountNoPlaceholder')}
        value={form.bankAccountNo}
        onChange={(e) => onChange('bankAccountNo', e.target.value.replace(/\D/g, ''))}
        error={message('bankAccountNo')}
      />
      <FormError message={serverError} testId="register-error" />
      <div className="btn-row">
        <button type="button" className="btn btn-secondary" onClick={onBack} data-testid="register-back">
          {t('common.back')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={pending} data-testid="register-submit">
          {pending && <Spinner />}
          {t('register.submit')}
        </button>
      </div>
      <p className="muted register-responsible" data-testid="register-responsible">
        <Link to="/user/responsible">{t('registerAge.playResponsibly')}</Link>
      </p>
    </form>
  );
}
