import { useTexts } from '../../shared/format/useTexts';
import { spinTexts } from './spinTexts';

/** The spin feature's texts in the member's language. */
export const useSpinTexts = () => useTexts(spinTexts);
