import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../shared/router';
import { isEnglishOnlyName, requiresEnglishName } from '@mw/contract/rules';
import { errorMessage } from '../../shared/api/errorMessage';
import { formatDateTime } from '../../shared/format/date';
import { TextField } from '../../shared/ui/fields';
import { Icon } from '../../shared/ui/Icon';
import { PageSpinner } from '../../shared/ui/Spinner';
import { ChangePasswordModal } from './ChangePasswordModal';
import { EditBankAccountNameModal } from './EditBankAccountNameModal';
import { ProfileBankSection } from './ProfileBankSection';
import { useProfile } from '../../shared/api/profile';
import './profile.css';

export function ProfilePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [bankNameOpen, setBankNameOpen] = useState(false);

  if (profile.isPending) return <PageSpinner />;
  if (profile.isError) {
    return (
      <section className="page" data-testid="profile-page">
        <div className="card form">
          <p className="muted">{errorMessage(profile.error)}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void profile.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      </section>
    );
  }

  const p = profile.data;
  // Spec: the name can be corrected only for KTB, TMB, BBL while it is not English-only.
  const canEditName = requiresEnglishName(p.bankCode) && !isEnglishOnlyName(p.bankAccountName);
  const initial = p.name.trim().charAt(0).toUpperCase() || '?';

  return (
    <section className="page profile-page" data-testid="profile-page">
      <h1 className="page-title">{t('profile.title')}</h1>
      <div className="card profile-card">
        <div className="profile-top">
          <span className="profile-avatar" aria-hidden="true">
            {initial}
          </span>
          <p className="profile-name" data-testid="profile-name">
            {p.name}
          </p>
          <button
            type="button"
            className="icon-button icon-button-gold"
            onClick={() => setPasswordOpen(true)}
            aria-label={t('profile.changePassword')}
            title={t('profile.changePassword')}
            data-testid="change-password-button"
          >
            <Icon name="lock" />
          </button>
        </div>
        <dl className="profile-meta">
          <div className="profile-meta-row">
            <dt>
              <Icon name="idCard" size={16} />
              {t('profile.memberId')}
            </dt>
            <dd data-testid="profile-id">{p._id}</dd>
          </div>
          <div className="profile-meta-row">
            <dt>
              <Icon name="clock" size={16} />
              {t('profile.createdAt')}
            </dt>
            <dd data-testid="profile-created-at">{formatDateTime(p.createdAt)}</dd>
          </div>
        </dl>
      </div>

      <section className="card form" aria-labelledby="profile-account">
        <h2 id="profile-account" className="section-title">
          {t('profile.accountInfo')}
        </h2>
        <TextField label={t('profile.username')} icon="phone" name="username" value={p.username} readOnly data-testid="profile-username" />
      </section>

      <ProfileBankSection profile={p} canEditName={canEditName} onEditName={() => setBankNameOpen(true)} />

      <Link to="/user/responsible" className="card profile-responsible-link" data-testid="profile-responsible-link">
        <Icon name="shield" size={20} />
        <span>{t('responsible.link')}</span>
      </Link>

      <ChangePasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <EditBankAccountNameModal open={bankNameOpen} bankCode={p.bankCode} onClose={() => setBankNameOpen(false)} />
    </section>
  );
}
