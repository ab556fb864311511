import { useTexts } from '../../shared/format/useTexts';
import { rewardsTexts } from './rewardsTexts';

/** The invite and refund modals' texts in the member's language. */
export const useRewardsTexts = () => useTexts(rewardsTexts);
