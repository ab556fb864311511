import { useTranslation } from 'react-i18next';
import { Icon } from '../../../shared/ui/Icon';
import { useSandboxSms } from './sandboxSmsApi';

/**
 * Sandbox only: shows the newest SMS the server "sent" to this phone (it carries the OTP code),
 * so a newcomer can finish the flow in the browser alone. Renders nothing on a real SMS provider.
 */
export function SandboxSmsNotice({ phoneNumber, sentAt }: { phoneNumber: string; sentAt: number }) {
  const { t } = useTranslation();
  const sms = useSandboxSms(phoneNumber, sentAt);
  if (!sms.data) return null;
  const newest = sms.data.messages[0];
  return (
    <aside className="sandbox-sms" data-testid="sandbox-sms" aria-live="polite">
      <p className="sandbox-sms-title">
        <Icon name="sms" size={20} />
        {t('sandbox.title')}
      </p>
      <p className="sandbox-sms-hint">{t('sandbox.hint')}</p>
      {newest ? (
        <p className="sandbox-sms-text" data-testid="sandbox-sms-text">
          {newest.text}
        </p>
      ) : (
        <p className="sandbox-sms-text">{t('sandbox.waiting')}</p>
      )}
    </aside>
  );
}
