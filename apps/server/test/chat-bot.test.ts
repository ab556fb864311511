import { describe, expect, it } from 'vitest';
import { botReplies, STAFF_WAIT_MINUTES } from '../src/modules/chat/chat-bot';

describe('the sandbox chat bot', () => {
  it('acknowledges "talk to a person" at once with the expected wait, in the member\'s language', () => {
    // The button is a plain one: its title comes back as a text message.
    for (const [locale, title] of [['en', 'Talk to a person'], ['th', 'คุยกับพนักงาน'], ['la', 'ລົມກັບພະນັກງານ']] as const) {
      const replies = botReplies({ message_type: 'text', payload: { message: title } }, false, locale, 'https://example.test');
      expect(replies).toHaveLength(1);
      const reply = replies[0];
      expect(reply?.message_type).toBe('text');
      expect(reply && reply.message_type === 'text' ? reply.payload.message : '').toContain(String(STAFF_WAIT_MINUTES));
    }
    // Any other text later in a session: no answer from the bot.
    expect(botReplies({ message_type: 'text', payload: { message: 'where is my money' } }, false, 'en', 'https://example.test')).toEqual([]);
  });
});
