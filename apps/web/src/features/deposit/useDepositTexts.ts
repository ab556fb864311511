import { useTexts } from '../../shared/format/useTexts';
import { depositTexts } from './depositTexts';

/** The deposit feature's texts in the member's language. */
export const useDepositTexts = () => useTexts(depositTexts);
