import { useTranslation } from 'react-i18next';
import { CLIENT_VERSION } from '@mw/contract/constants';
import { Icon } from '../../shared/ui/Icon';
import { SafeHtml } from '../../shared/ui/SafeHtml';
import { PageSpinner } from '../../shared/ui/Spinner';
import fallbackQr from './assets/contact-qr-fallback.svg';
import { openChat, useChatWidgetEnabled } from '../chat/ChatWidgetSlot';
import { useContact } from './contactApi';
import './contact.css';

/** Contact: /contact (guest, no top bar) and /user/contact (member, with top bar). */
export function ContactPage() {
  const { t } = useTranslation();
  const contact = useContact();
  const data = contact.data;
  // Spec section 2: the chat widget instead of the contact block when it is enabled.
  const chatEnabled = useChatWidgetEnabled();

  return (
    <section className="page" data-testid="contact-page">
      <header>
        <h1 className="page-title">{t('contact.title')}</h1>
        <p className="page-subtitle">{t('contact.subtitle')}</p>
      </header>
      {contact.isPending ? (
        <PageSpinner />
      ) : (
        <>
          {data?.contactText && (
            <div className="card">
              <SafeHtml html={data.contactText} testId="contact-text" />
            </div>
          )}
          {chatEnabled ? (
            <div className="card contact-line" data-testid="contact-chat">
              <h2 className="contact-line-title">
                <Icon name="chat" />
                {t('contact.chatTitle')}
              </h2>
              <p className="muted">{t('contact.chatText')}</p>
              <button type="button" className="btn btn-primary btn-block" onClick={openChat} data-testid="contact-open-chat">
                <Icon name="chat" />
                {t('contact.chatOpen')}
              </button>
            </div>
          ) : (
          <div className="card contact-line">
            <h2 className="contact-line-title">
              <Icon name="chat" />
              {t('contact.lineTitle')}
            </h2>
            <figure className="contact-qr">
              <img
                src={data?.lineQR || fallbackQr}
                alt={t('contact.qrAlt')}
                width={188}
                height={188}
                loading="lazy"
                data-testid="contact-line-qr"
              />
              <figcaption className="muted">{t('contact.scanQr')}</figcaption>
            </figure>
            {data?.lineName && (
              <p className="contact-line-name" data-testid="contact-line-name">
                {data.lineName}
              </p>
            )}
            {data?.lineLink && (
              <a className="btn btn-line btn-block" href={data.lineLink} target="_blank" rel="noopener noreferrer" data-testid="contact-line-link">
                <Icon name="chat" />
                {t('contact.openLine')}
              </a>
            )}
          </div>
          )}
        </>
      )}
      <p className="contact-version" data-testid="contact-version">
        {t('common.version', { version: CLIENT_VERSION })}
      </p>
    </section>
  );
}
