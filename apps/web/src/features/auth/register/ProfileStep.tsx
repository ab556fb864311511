import { useTranslation } from 'react-i18next';
import { config } from '../../../shared/config';
import { FormError, PasswordField, SelectField, TextField } from '../../../shared/ui/fields';
import { Spinner } from '../../../shared/ui/Spinner';
import { useSources } from './registerApi';
import { stepHandlers, type StepProps } from './stepProps';

/** Sources named by words (translated); brand names (Facebook, LINE, …) and sources an operator added show their own description. */
const KNOWN_SOURCES = ['FRIEND', 'OTHER'] as const;
type KnownSource = (typeof KNOWN_SOURCES)[number];
const isKnownSource = (code: string): code is KnownSource => (KNOWN_SOURCES as readonly string[]).includes(code);

export function ProfileStep({ form, errors, serverError, pending, onChange, onSubmit, onBack }: StepProps) {
  const { t } = useTranslation();
  const sources = useSources();
  const { message, submit } = stepHandlers(errors, onSubmit);
  return (
    <form className="form" onSubmit={submit} noValidate data-testid="register-step-profile">
      <TextField
        label={t('register.name')}
        icon="user"
        name="name"
        autoComplete="nickname"
        placeholder={t('register.namePlaceholder')}
        value={form.name}
        onChange={(e) => onChange('name', e.target.value)}
        error={message('name')}
      />
      <PasswordField
        label={t('register.password')}
        name="password"
        autoComplete="new-password"
        placeholder={t('register.passwordPlaceholder')}
        value={form.password}
        onChange={(e) => onChange('password', e.target.value)}
        error={message('password')}
      />
      <PasswordField
        label={t('register.confirmPassword')}
        name="confirmPassword"
        autoComplete="new-password"
        value={form.confirmPassword}
        onChange={(e) => onChange('confirmPassword', e.target.value)}
        error={message('confirmPassword')}
      />
      <TextField
        label={t('registerAge.birthDate')}
        type="date"
        name="birthDate"
        autoComplete="bday"
        hint={t('registerAge.hint', { minAge: config.minAge })}
        max={new Date().toISOString().slice(0, 10)}
        value={form.birthDate}
        onChange={(e) => onChange('birthDate', e.target.value)}
        error={message('birthDate')}
        data-testid="register-birth-date"
      />
      <SelectField
        label={t('register.source')}
        name="sourceCode"
        value={form.sourceCode}
        onChange={(e) => onChange('sourceCode', e.target.value)}
        error={message('sourceCode')}
      >
        <option value="">{t('register.sourcePlaceholder')}</option>
        {(sources.data ?? []).map((source) => (
          <option key={source.code} value={source.code}>
            {isKnownSource(source.code) ? t(`register.sources.${source.code}`) : source.description}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('register.inviteCode')}
        icon="users"
        name="inviteCode"
        autoComplete="off"
        placeholder={t('register.inviteCodePlaceholder')}
        value={form.inviteCode}
        onChange={(e) => onChange('inviteCode', e.target.value.trim())}
        error={message('inviteCode')}
      />
      <FormError message={serverError} testId="register-error" />
      <div className="btn-row">
        <button type="button" className="btn btn-secondary" onClick={onBack} data-testid="register-back">
          {t('common.back')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={pending} data-testid="register-next">
          {pending && <Spinner />}
          {t('common.next')}
        </button>
      </div>
    </form>
  );
}
