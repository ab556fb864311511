import { useTexts } from '../../shared/format/useTexts';
import { bonusTexts } from './bonusTexts';

/** The bonus feature's texts in the member's language. */
export const useBonusTexts = () => useTexts(bonusTexts);
