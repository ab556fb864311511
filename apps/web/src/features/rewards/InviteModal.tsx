import { useState } from 'react';
import { useWallet } from '../../shared/api/wallet';
import { formatDateTime } from '../../shared/format/date';
import { CopyButton } from '../../shared/ui/CopyButton';
import { Modal } from '../../shared/ui/Modal';
import { Money } from '../../shared/ui/Money';
import { RewardTable } from './RewardTable';
import { useInviteRows } from './rewardsApi';
import { useRewardsTexts } from './useRewardsTexts';
import './rewards.css';

/** The member's invite link (spec section 2): the site's origin, /register, code=PR + the member's _id. */
export function inviteLink(origin: string, memberId: string): string {
  return `${origin}/register?code=PR${encodeURIComponent(memberId)}`;
}

/** The invite modal (spec section 3): the invite link with copy, and the paged table of what friends brought. */
export function InviteModal({ onClose }: { onClose: () => void }) {
  const text = useRewardsTexts();
  const wallet = useWallet();
  const [page, setPage] = useState(1);
  const rows = useInviteRows(page);
  const id = wallet.data?.profile._id;
  const link = id ? inviteLink(window.location.origin, id) : '';
  return (
    <Modal open title={text('inviteTitle')} onClose={onClose} testId="invite-modal" focusField={false}>
      <p className="muted reward-lead">{text('inviteLead')}</p>
      <div className="invite-link-box">
        <span className="invite-link-label">{text('inviteLink')}</span>
        <div className="invite-link-row">
          <output className="invite-link" data-testid="invite-link">
            {link || '…'}
          </output>
          {link && <CopyButton value={link} label={text('copyLink')} testId="invite-link-copy" />}
        </div>
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
