import type { Conversation } from '@mw/contract/chat';

/** A message in one line of text (history lists): its text, or its kind for cards and media. */
export function messageText(c: Pick<Conversation, 'message'>): string {
  const m = c.message;
  switch (m.message_type) {
    case 'text':
    case 'buttons':
    case 'quick_replies':
    case 'postback':
      return m.payload.message;
    case 'media':
      return `[${m.payload.message ?? 'media'}]`;
    case 'generic':
      return m.payload.elements.map((e) => e.title).join(' · ');
    default:
      return '[…]';
  }
}
