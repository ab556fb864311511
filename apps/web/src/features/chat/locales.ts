import type { Locale } from '@mw/contract/constants';
import { addNamespace } from '../../i18n/namespaces';

/**
 * The `chat` i18next namespace: texts of the chat widget, kept with the feature (its own chunk, not the
 * first download) and added to i18next when the chunk loads (i18n/namespaces.ts).
 */
const en = {
  invite: 'Chat with us',
  open: 'Open the chat',
  close: 'Close the chat',
  title: 'Support',
  subtitle: 'We usually answer within minutes',
  unread: '{{count}} unread',
  placeholder: 'Type a message…',
  send: 'Send',
  attach: 'Attach an image or video',
  cannotStart: 'Cannot start chatting',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  endOfConversation: 'End of conversation',
  newMessage: 'New message',
  loadingOlder: 'Loading earlier messages…',
  uploading: 'Uploading {{percent}}%',
  sending: 'Sending…',
  failed: 'Not sent',
  retry: 'Retry',
  unknownMessage: 'This message cannot be shown.',
  fileNotSupported: 'File is not supported',
  fileTooLarge: 'The file is too large: choose one no larger than {{mb}} MB',
  empty: 'Ask us anything: deposits, withdrawals, bonuses.',
  you: 'You',
  support: 'Support',
  media: 'Attachment',
};

export type ChatMessages = typeof en;

const th: ChatMessages = {
  invite: 'แชทกับเรา',
  open: 'เปิดแชท',
  close: 'ปิดแชท',
  title: 'ฝ่ายบริการลูกค้า',
  subtitle: 'โดยปกติเราตอบภายในไม่กี่นาที',
  unread: 'ยังไม่ได้อ่าน {{count}}',
  placeholder: 'พิมพ์ข้อความ…',
  send: 'ส่ง',
  attach: 'แนบรูปภาพหรือวิดีโอ',
  cannotStart: 'ไม่สามารถเริ่มแชทได้',
  connecting: 'กำลังเชื่อมต่อ…',
  reconnecting: 'กำลังเชื่อมต่อใหม่…',
  endOfConversation: 'สิ้นสุดการสนทนา',
  newMessage: 'ข้อความใหม่',
  loadingOlder: 'กำลังโหลดข้อความก่อนหน้า…',
  uploading: 'กำลังอัปโหลด {{percent}}%',
  sending: 'กำลังส่ง…',
  failed: 'ส่งไม่สำเร็จ',
  retry: 'ลองใหม่',
  unknownMessage: 'ไม่สามารถแสดงข้อความนี้ได้',
  fileNotSupported: 'ไม่รองรับไฟล์นี้',
  fileTooLarge: 'ไฟล์มีขนาดใหญ่เกินไป เลือกไฟล์ขนาดไม่เกิน {{mb}} MB',
  empty: 'สอบถามได้ทุกเรื่อง ฝาก ถอน โบนัส',
  you: 'คุณ',
  support: 'ฝ่ายบริการ',
  media: 'ไฟล์แนบ',
};

const la: ChatMessages = {
  invite: 'ແຊັດກັບພວກເຮົາ',
  open: 'ເປີດແຊັດ',
  close: 'ປິດແຊັດ',
  title: 'ຝ່າຍບໍລິການລູກຄ້າ',
  subtitle: 'ປົກກະຕິພວກເຮົາຕອບພາຍໃນບໍ່ເທົ່າໃດນາທີ',
  unread: 'ຍັງບໍ່ໄດ້ອ່ານ {{count}}',
  placeholder: 'ພິມຂໍ້ຄວາມ…',
  send: 'ສົ່ງ',
  attach: 'ແນບຮູບພາບ ຫຼື ວິດີໂອ',
  cannotStart: 'ບໍ່ສາມາດເລີ່ມແຊັດໄດ້',
  connecting: 'ກຳລັງເຊື່ອມຕໍ່…',
  reconnecting: 'ກຳລັງເຊື່ອມຕໍ່ໃໝ່…',
  endOfConversation: 'ສິ້ນສຸດການສົນທະນາ',
  newMessage: 'ຂໍ້ຄວາມໃໝ່',
  loadingOlder: 'ກຳລັງໂຫຼດຂໍ້ຄວາມກ່ອນໜ້າ…',
  uploading: 'ກຳລັງອັບໂຫຼດ {{percent}}%',
  sending: 'ກຳລັງສົ່ງ…',
  failed: 'ສົ່ງບໍ່ສຳເລັດ',
  retry: 'ລອງໃໝ່',
  unknownMessage: 'ບໍ່ສາມາດສະແດງຂໍ້ຄວາມນີ້ໄດ້',
  fileNotSupported: 'ບໍ່ຮອງຮັບໄຟລ໌ນີ້',
  fileTooLarge: 'ໄຟລ໌ມີຂະໜາດໃຫຍ່ເກີນໄປ ເລືອກໄຟລ໌ຂະໜາດບໍ່ເກີນ {{mb}} MB',
  empty: 'ສອບຖາມໄດ້ທຸກເລື່ອງ ຝາກ ຖອນ ໂບນັດ',
  you: 'ທ່ານ',
  support: 'ຝ່າຍບໍລິການ',
  media: 'ໄຟລ໌ແນບ',
};

/** Every locale of the namespace; test/i18n.test.ts checks each has every key. */
export const chatLocales: Readonly<Record<Locale, ChatMessages>> = { th, la, en };

/** The namespace's name for `useTranslation`; importing it adds the texts to i18next. */
export const chatNs = addNamespace('chat', chatLocales);
