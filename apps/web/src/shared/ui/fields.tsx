import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from './Icon';
import { useHydrated } from './useHydrated';

export interface FieldShellProps {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
}

/** Label, control, then the error (or the hint): the frame every field of the kit shares. */
export function FieldShell({ id, label, error, hint, children }: FieldShellProps) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert" data-testid="field-error">
          {error}
        </p>
      ) : (
        hint && (
          <p className="field-hint" id={`${id}-hint`}>
            {hint}
          </p>
        )
      )}
    </div>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  icon?: IconName;
}

/**
 * Fields of a prerendered page (scripts/prerender.mjs) stay read-only (selects disabled) until the
 * app has taken the page over (useHydrated): a value typed before would be on screen but not in
 * the form's state.
 */
export function TextField({ label, error, hint, icon, className, ...input }: TextFieldProps) {
  const id = useId();
  const hydrated = useHydrated();
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <div className="input-wrap">
        {icon && <Icon name={icon} size={20} className="input-icon" />}
        <input
          id={id}
          className={`input${icon ? ' input-with-icon' : ''}${className ? ` ${className}` : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          {...input}
          readOnly={!hydrated || input.readOnly}
        />
      </div>
    </FieldShell>
  );
}

export function PasswordField({ label, error, hint, icon = 'lock', ...input }: Omit<TextFieldProps, 'type'>) {
  const { t } = useTranslation();
  const id = useId();
  const [shown, setShown] = useState(false);
  const hydrated = useHydrated();
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <div className="input-wrap">
        <Icon name={icon} size={20} className="input-icon" />
        <input
          id={id}
          type={shown ? 'text' : 'password'}
          className="input input-with-icon input-with-action"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          {...input}
          readOnly={!hydrated || input.readOnly}
        />
        <button
          type="button"
          className="input-action"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? t('common.hidePassword') : t('common.showPassword')}
          aria-pressed={shown}
        >
          <Icon name={shown ? 'eyeOff' : 'eye'} size={20} />
        </button>
      </div>
    </FieldShell>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
}

export function SelectField({ label, error, hint, children, ...select }: SelectFieldProps) {
  const id = useId();
  const hydrated = useHydrated();
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <div className="input-wrap select-wrap">
        <select
          id={id}
          className="input select"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          {...select}
          disabled={!hydrated || select.disabled}
        >
          {children}
        </select>
      </div>
    </FieldShell>
  );
}

/** Inline form-level error (server answers), cleared by the form when the member types. */
export function FormError({ message, testId = 'form-error' }: { message: string | null; testId?: string }) {
  if (!message) return null;
  return (
    <div className="form-error" role="alert" data-testid={testId}>
      <Icon name="alert" size={20} />
      <span>{message}</span>
    </div>
  );
}
