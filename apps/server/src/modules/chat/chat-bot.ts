import type { ChatMessage } from '@mw/contract/chat';
import type { Locale } from '@mw/contract/constants';

/**
 * The sandbox support bot (CHAT_BOT=sandbox, the default outside production): it answers a
 * greeting, or the first message of a conversation's session, with one message of each kind a
 * support agent can send — text, buttons (web, call, postback), quick replies, a generic card and a
 * postback — so a newcomer sees them all at once; a pressed button or quick reply gets a short
 * answer. It is a real participant: its messages are stored and delivered like support's.
 */
const GREETING = /^(hi|hello|hey|สวัสดี|หวัดดี|ສະບາຍດີ|ສະບາຍດີ)\b|^(สวัสดี|หวัดดี|ສະບາຍດີ)/iu;

const TEXTS: Record<Locale, { hello: string; choose: string; quick: string; card: string; cardSub: string; deposit: string; withdraw: string; bonus: string; human: string; site: string; call: string; yes: string; no: string; answer: Record<string, string> }> = {
  th: {
    hello: 'สวัสดีค่ะ ยินดีต้อนรับสู่ฝ่ายบริการลูกค้า',
    choose: 'ต้องการให้ช่วยเรื่องไหนคะ',
    quick: 'ได้รับยอดฝากแล้วหรือยังคะ',
    card: 'โบนัสต้อนรับ 20%',
    cardSub: 'ฝากครั้งแรกรับโบนัส 20% สูงสุด ฿500',
    deposit: 'ฝากเงิน',
    withdraw: 'ถอนเงิน',
    bonus: 'โบนัส',
    human: 'คุยกับพนักงาน',
    site: 'เปิดเว็บไซต์',
    call: 'โทรหาเรา',
    yes: 'ได้รับแล้ว',
    no: 'ยังไม่ได้รับ',
    answer: {
      DEPOSIT: 'ฝากเงินได้ที่ปุ่ม "ฝากเงิน" หน้าหลัก หากโอนแล้วยอดไม่เข้าใน 5 นาที ส่งสลิปมาที่นี่ได้เลยค่ะ',
      WITHDRAW: 'ถอนเงินได้ที่ปุ่ม "ถอนเงิน" เงินจะเข้าบัญชีที่ลงทะเบียนไว้ภายใน 15 นาที',
      BONUS: 'ดูโบนัสทั้งหมดและเงื่อนไขได้ที่หน้าโบนัสค่ะ',
      HUMAN: 'รับเรื่องแล้วค่ะ พนักงานจะตอบในแชตนี้ภายในประมาณ {{minutes}} นาที เปิดแชตค้างไว้หรือกลับมาดูภายหลังได้ค่ะ',
      RECEIVED_YES: 'ขอบคุณค่ะ ขอให้สนุกกับการเล่น',
      RECEIVED_NO: 'รบกวนส่งสลิปการโอนมาที่นี่ พนักงานจะตรวจสอบให้ค่ะ',
    },
  },
  la: {
    hello: 'ສະບາຍດີ ຍິນດີຕ້ອນຮັບສູ່ຝ່າຍບໍລິການລູກຄ້າ',
    choose: 'ຕ້ອງການໃຫ້ຊ່ວຍເລື່ອງໃດ',
    quick: 'ໄດ້ຮັບຍອດຝາກແລ້ວບໍ່',
    card: 'ໂບນັດຕ້ອນຮັບ 20%',
    cardSub: 'ຝາກຄັ້ງທຳອິດຮັບໂບນັດ 20% ສູງສຸດ ฿500',
    deposit: 'ຝາກເງິນ',
    withdraw: 'ຖອນເງິນ',
    bonus: 'ໂບນັດ',
    human: 'ລົມກັບພະນັກງານ',
    site: 'ເປີດເວັບໄຊ',
    call: 'ໂທຫາພວກເຮົາ',
    yes: 'ໄດ້ຮັບແລ້ວ',
    no: 'ຍັງບໍ່ໄດ້ຮັບ',
    answer: {
      DEPOSIT: 'ຝາກເງິນໄດ້ທີ່ປຸ່ມ "ຝາກເງິນ" ໜ້າຫຼັກ ຖ້າໂອນແລ້ວຍອດບໍ່ເຂົ້າໃນ 5 ນາທີ ສົ່ງສະລິບມາທີ່ນີ້ໄດ້ເລີຍ',
      WITHDRAW: 'ຖອນເງິນໄດ້ທີ່ປຸ່ມ "ຖອນເງິນ" ເງິນຈະເຂົ້າບັນຊີທີ່ລົງທະບຽນໄວ້ພາຍໃນ 15 ນາທີ',
      BONUS: 'ເບິ່ງໂບນັດທັງໝົດ ແລະ ເງື່ອນໄຂໄດ້ທີ່ໜ້າໂບນັດ',
      HUMAN: 'ຮັບເລື່ອງແລ້ວ. ພະນັກງານຈະຕອບໃນແຊັດນີ້ພາຍໃນປະມານ {{minutes}} ນາທີ. ເປີດແຊັດໄວ້ ຫຼື ກັບມາເບິ່ງພາຍຫຼັງໄດ້.',
      RECEIVED_YES: 'ຂອບໃຈ ຂໍໃຫ້ມ່ວນກັບການຫຼິ້ນ',
      RECEIVED_NO: 'ກະລຸນາສົ່ງສະລິບການໂອນມາທີ່ນີ້ ພະນັກງານຈະກວດສອບໃຫ້',
    },
  },
  en: {
    hello: 'Hello, welcome to player support.',
    choose: 'What can we help you with?',
    quick: 'Has your deposit arrived?',
    card: 'Welcome bonus 20%',
    cardSub: '20% on your first deposit, up to ฿500',
    deposit: 'Deposit',
    withdraw: 'Withdraw',
    bonus: 'Bonus',
    human: 'Talk to a person',
    site: 'Open the website',
    call: 'Call us',
    yes: 'Yes, it arrived',
    no: 'Not yet',
    answer: {
      DEPOSIT: 'Use the Deposit button on the home page. If a transfer has not arrived within 5 minutes, send us the slip here.',
      WITHDRAW: 'Use the Withdraw button; the money reaches your registered account within 15 minutes.',
      BONUS: 'Every bonus and its terms are on the bonus page.',
      HUMAN: 'Got it: a support agent will answer here in about {{minutes}} minutes. Keep this chat open or come back to it later.',
      RECEIVED_YES: 'Thank you, enjoy your game.',
      RECEIVED_NO: 'Please send the transfer slip here and an agent will check it.',
    },
  },
};

/** The bot's answer to a customer's message: nothing, or the messages to send back in order. */
/**
 * How long a customer who asks for a person is told to expect (minutes): the acknowledgement says
 * so at once, so "talk to staff" is never met with silence.
 */
export const STAFF_WAIT_MINUTES = 5;

/** The "talk to a person" button (a plain button: its title comes back as text), in any language. */
const ASKS_FOR_STAFF: ReadonlySet<string> = new Set(Object.values(TEXTS).map((t) => t.human.trim().toLowerCase()));

function answerOf(t: (typeof TEXTS)[Locale], key: string): string | undefined {
  return t.answer[key]?.replace('{{minutes}}', String(STAFF_WAIT_MINUTES));
}

export function botReplies(incoming: ChatMessage, firstOfSession: boolean, locale: Locale, site: string): ChatMessage[] {
  const t = TEXTS[locale];
  if (incoming.message_type === 'postback') {
    const answer = answerOf(t, incoming.payload.payload);
    return answer ? [{ message_type: 'text', payload: { message: answer } }] : [];
  }
  if (incoming.message_type === 'text' && ASKS_FOR_STAFF.has(incoming.payload.message.trim().toLowerCase())) {
    return [{ message_type: 'text', payload: { message: answerOf(t, 'HUMAN') ?? '' } }];
  }
  const greeting = incoming.message_type === 'text' && GREETING.test(incoming.payload.message.trim());
  if (!greeting && !firstOfSession) return [];
  return [
    { message_type: 'text', payload: { message: t.hello } },
    {
      message_type: 'buttons',
      payload: {
        message: t.choose,
        buttons: [
          { type: 'postback', title: t.deposit, payload: 'DEPOSIT' },
          { type: 'postback', title: t.withdraw, payload: 'WITHDRAW' },
          { type: 'web', title: t.site, payload: site },
          { type: 'call', title: t.call, payload: '+6620000000' },
          { type: 'plain', title: t.human, payload: 'HUMAN' },
        ],
      },
    },
    {
      message_type: 'generic',
      payload: {
        elements: [{ image_url: '/banners/invite.svg', title: t.card, subtitle: t.cardSub, buttons: [{ type: 'postback', title: t.bonus, payload: 'BONUS' }] }],
      },
    },
    {
      message_type: 'quick_replies',
      payload: {
        message: t.quick,
        buttons: [
          { type: 'postback', title: t.yes, payload: 'RECEIVED_YES' },
          { type: 'postback', title: t.no, payload: 'RECEIVED_NO' },
        ],
      },
    },
  ];
}
