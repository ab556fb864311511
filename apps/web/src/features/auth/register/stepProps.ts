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
