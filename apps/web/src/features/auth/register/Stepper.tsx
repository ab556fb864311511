import { useTranslation } from 'react-i18next';
import { Icon } from '../../../shared/ui/Icon';

const STEP_KEYS = ['phone', 'otp', 'profile', 'bank'] as const;

/** The wizard's four steps; a skipped OTP step shows as done. */
export function Stepper({ step, otpSkipped }: { step: number; otpSkipped: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="stepper-wrap">
      <ol className="stepper" data-testid="register-stepper">
        {STEP_KEYS.map((key, index) => {
          const done = index < step || (index === 1 && otpSkipped && step > 0);
          const current = index === step;
          return (
            <li
              key={key}
              className={`stepper-item${done ? ' done' : ''}${current ? ' current' : ''}`}
              aria-current={current ? 'step' : undefined}
            >
              <span className="stepper-dot">{done ? <Icon name="check" size={16} /> : index + 1}</span>
              {t(`register.steps.${key}`)}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
