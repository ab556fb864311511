import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BannerCarouselModal } from '../../shared/ui/BannerCarousel';
import { InviteModal } from './InviteModal';
import { RefundModal } from './RefundModal';
import { useBanners } from './rewardsApi';
import { rewardsNs } from './locales';

/**
 * Invite and refund from the home tiles (spec section 2): the banners are fetched first; with
 * banners a carousel shows and closing it opens the modal; without (or when they fail to load),
 * the modal opens directly.
 */
export function RewardFlow({ kind, onClose }: { kind: 'invite' | 'refund'; onClose: (changed: boolean) => void }) {
  const { t: text } = useTranslation(rewardsNs);
  const banners = useBanners(kind);
  const [seen, setSeen] = useState(false);
  if (banners.isPending) return null;
  const list = banners.data ?? [];
  if (!seen && list.length > 0) {
    return <BannerCarouselModal title={kind === 'invite' ? text('inviteTitle') : text('refundTitle')} banners={list} onClose={() => setSeen(true)} />;
  }
  return kind === 'invite' ? <InviteModal onClose={() => onClose(false)} /> : <RefundModal onClose={onClose} />;
}
