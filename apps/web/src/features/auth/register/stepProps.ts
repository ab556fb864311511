import type { FormEvent } from 'react';
import { ruleMessage } from '../../../shared/forms/ruleMessage';
import type { FieldErrors, RegisterField, RegisterForm } from './registerForm';

/** What every register step gets from the wizard. */
export interface StepProps {
  form: RegisterForm;
  errors: FieldErrors;
  serverError: string | null;
  pending: boolean;
  onChange: (field: RegisterField, value: string) => void;
  onSubmit: () => void;
  onBack: () => void;
}

/** What every form step does alike: a field's error text, and submitting without a page load. */
export function stepHandlers(errors: StepProps['errors'], onSubmit: () => void) {
  return {
    message: (field: keyof StepProps['errors']) => {
      const code = errors[field];
      return code ? ruleMessage(code) : null;
    },
    submit: (event: FormEvent) => {
      event.preventDefault();
      onSubmit();
    },
  };
}
