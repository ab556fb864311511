import { useTexts } from '../../shared/format/useTexts';
import { chatTexts } from './chatTexts';

/** The chat widget's texts in the member's language. */
export const useChatTexts = () => useTexts(chatTexts);
