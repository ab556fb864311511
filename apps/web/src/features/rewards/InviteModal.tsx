import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../shared/api/lookups';
import { useProfile } from '../../shared/api/profile';
import { Icon } from '../../shared/ui/Icon';
import { formatDateTime } from '../../shared/format/date';
import { CopyButton } from '../../shared/ui/CopyButton';
import { Modal } from '../../shared/ui/Modal';
import { Money } from '../../shared/ui/Money';
import { RewardTable } from './RewardTable';
import { useInviteRows } from './rewardsApi';
import { rewardsNs } from './locales';
import './rewards.css';

/**
 * The member's invite link: the site's origin, /register, code = the member's short invite code
 * (the spec's PR + _id codes of links already shared still register the friend).
 */
export function inviteLink(origin: string, code: string): string {
  return `${origin}/register?code=${encodeURIComponent(code)}`;
}

/** LINE's share page for a text (opens the LINE app on a phone). */
export function lineShareUrl(text: string): string {
  return `https://line.me/R/share?text=${encodeURIComponent(text)}`;
}

/** The invite modal (spec section 3): the invite link with copy, and the paged table of what friends brought. */
export function InviteModal({ onClose }: { onClose: () => void }) {
  const { t: text } = useTranslation(rewardsNs);
  const profile = useProfile();
  const info = useSiteInfo();
  const [page, setPage] = useState(1);
  const rows = useInviteRows(page);
  const code = profile.data?.inviteCode ?? '';
  const link = code ? inviteLink(window.location.origin, code) : '';
  const message = code ? `${text('shareText', { site: info.data?.name || window.location.host, code })} ${link}` : '';
  const canShare = typeof navigator.share === 'function';
  const share = () => {
    navigator.share({ text: message, url: link }).catch(() => undefined);
  };
  return (
    <Modal open title={text('inviteTitle')} onClose={onClose} testId="invite-modal" focusField={false}>
      <p className="muted reward-lead">{text('inviteLead')}</p>
      <div className="invite-link-box">
        <span className="invite-link-label">{text('inviteCode')}</span>
        <div className="invite-link-row">
          <output className="invite-code" data-testid="invite-code">
            {code || '…'}
          </output>
          {code && <CopyButton value={code} label={text('copyCode')} testId="invite-code-copy" />}
        </div>
        <span className="invite-link-label">{text('inviteLink')}</span>
        <div className="invite-link-row">
          <output className="invite-link" data-testid="invite-link">
            {link || '…'}
          </output>
          {link && <CopyButton value={link} label={text('copyLink')} testId="invite-link-copy" />}
        </div>
        {link && (
          <div className="invite-share">
            {canShare && (
              <button type="button" className="btn btn-primary" onClick={share} data-testid="invite-share">
                <Icon name="users" size={20} />
                {text('share')}
              </button>
            )}
            <a className="btn btn-secondary invite-share-line" href={lineShareUrl(message)} target="_blank" rel="noopener noreferrer" data-testid="invite-share-line">
              {text('shareLine')}
            </a>
          </div>
        )}
      </div>
      <h3 className="reward-subtitle">{text('inviteHistory')}</h3>
      <RewardTable
        rows={rows.data?.invites ?? []}
        total={rows.data?.total ?? 0}
        page={page}
        onPage={setPage}
        loading={rows.isPending}
        empty={text('inviteEmpty')}
        testId="invite-table"
        columns={[
          { title: text('friend'), cell: (r) => r.from.name },
          { title: text('amount'), cell: (r) => <Money amount={r.amount} />, numeric: true },
          { title: text('date'), cell: (r) => formatDateTime(r.createdAt) },
        ]}
      />
    </Modal>
  );
}
