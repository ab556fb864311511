import type { Locale } from '@mw/contract/constants';
import { addNamespace } from '../../i18n/namespaces';

/**
 * The `rewards` i18next namespace: texts of the invite and refund modals, kept with the feature (its own chunk, not the
 * first download) and added to i18next when the chunk loads (i18n/namespaces.ts).
 */
const en = {
  inviteTitle: 'Invite friends',
  inviteLead: 'Share your link. When a friend registers with it and deposits, part of every deposit comes to you as an invite bonus.',
  inviteLink: 'Your invite link',
  copyLink: 'Copy invite link',
  inviteCode: 'Your invite code',
  copyCode: 'Copy invite code',
  share: 'Share',
  shareLine: 'Share on LINE',
  shareText: 'Join me on {{site}}: register with my invite code {{code}}',
  inviteHistory: 'Earned from friends',
  friend: 'Friend',
  amount: 'Amount',
  date: 'Date',
  inviteEmpty: 'Nothing earned from friends yet.',
  refundTitle: 'Refund of losses',
  refundAvailable: 'Refund to receive',
  refundReceived: 'Received, ready for your wallet',
  refundNone: 'No refund available right now.',
  refundBonusActive: 'Finish or cancel your active bonus before receiving a refund.',
  receive: 'Receive refund',
  addWallet: 'Add to wallet',
  addWalletTitle: 'Add the refund to your wallet?',
  addWalletText: 'The refund goes into your wallet under a condition: play {{success}}% of it before withdrawing. The condition ends early if your total balance falls to {{fail}}% of it.',
  successRate: 'Success rate',
  failRate: 'Fail rate',
  cancel: 'Cancel',
  added: 'The refund is in your wallet.',
  refundHistory: 'Refund history',
  refundEmpty: 'No refunds yet.',
  close: 'Close',
};

export type RewardsMessages = typeof en;

const th: RewardsMessages = {
  inviteTitle: 'ชวนเพื่อน',
  inviteLead: 'แชร์ลิงก์ของคุณ เมื่อเพื่อนสมัครผ่านลิงก์และฝากเงิน คุณจะได้รับส่วนหนึ่งของทุกยอดฝากเป็นโบนัสชวนเพื่อน',
  inviteLink: 'ลิงก์ชวนเพื่อนของคุณ',
  copyLink: 'คัดลอกลิงก์ชวนเพื่อน',
  inviteCode: 'โค้ดชวนเพื่อนของคุณ',
  copyCode: 'คัดลอกโค้ดชวนเพื่อน',
  share: 'แชร์',
  shareLine: 'แชร์ทาง LINE',
  shareText: 'มาเล่นด้วยกันที่ {{site}} สมัครด้วยโค้ดชวนเพื่อนของฉัน {{code}}',
  inviteHistory: 'รายได้จากเพื่อน',
  friend: 'เพื่อน',
  amount: 'จำนวนเงิน',
  date: 'วันที่',
  inviteEmpty: 'ยังไม่มีรายได้จากเพื่อน',
  refundTitle: 'คืนยอดเสีย',
  refundAvailable: 'ยอดคืนที่รับได้',
  refundReceived: 'รับแล้ว รอเพิ่มเข้ากระเป๋า',
  refundNone: 'ขณะนี้ยังไม่มียอดคืน',
  refundBonusActive: 'ทำเงื่อนไขโบนัสที่ใช้งานอยู่ให้ครบหรือยกเลิกก่อนรับยอดคืน',
  receive: 'รับยอดคืน',
  addWallet: 'เพิ่มเข้ากระเป๋า',
  addWalletTitle: 'เพิ่มยอดคืนเข้ากระเป๋าเงิน?',
  addWalletText: 'ยอดคืนจะเข้ากระเป๋าเงินพร้อมเงื่อนไข: ต้องมียอดเล่น {{success}}% ของยอดคืนก่อนถอน เงื่อนไขจะสิ้นสุดหากยอดเงินรวมลดลงเหลือ {{fail}}% ของยอดคืน',
  successRate: 'อัตราสำเร็จ',
  failRate: 'อัตราไม่สำเร็จ',
  cancel: 'ยกเลิก',
  added: 'ยอดคืนเข้ากระเป๋าเงินแล้ว',
  refundHistory: 'ประวัติยอดคืน',
  refundEmpty: 'ยังไม่มีประวัติยอดคืน',
  close: 'ปิด',
};

const la: RewardsMessages = {
  inviteTitle: 'ຊວນໝູ່',
  inviteLead: 'ແບ່ງປັນລິ້ງຂອງທ່ານ. ເມື່ອໝູ່ສະໝັກຜ່ານລິ້ງ ແລະ ຝາກເງິນ ທ່ານຈະໄດ້ຮັບສ່ວນໜຶ່ງຂອງທຸກຍອດຝາກເປັນໂບນັດຊວນໝູ່',
  inviteLink: 'ລິ້ງຊວນໝູ່ຂອງທ່ານ',
  copyLink: 'ສຳເນົາລິ້ງຊວນໝູ່',
  inviteCode: 'ໂຄດຊວນໝູ່ຂອງທ່ານ',
  copyCode: 'ສຳເນົາໂຄດຊວນໝູ່',
  share: 'ແບ່ງປັນ',
  shareLine: 'ແບ່ງປັນທາງ LINE',
  shareText: 'ມາຫຼິ້ນນຳກັນທີ່ {{site}} ສະໝັກດ້ວຍໂຄດຊວນໝູ່ຂອງຂ້ອຍ {{code}}',
  inviteHistory: 'ລາຍໄດ້ຈາກໝູ່',
  friend: 'ໝູ່',
  amount: 'ຈຳນວນເງິນ',
  date: 'ວັນທີ',
  inviteEmpty: 'ຍັງບໍ່ມີລາຍໄດ້ຈາກໝູ່',
  refundTitle: 'ຄືນຍອດເສຍ',
  refundAvailable: 'ຍອດຄືນທີ່ຮັບໄດ້',
  refundReceived: 'ຮັບແລ້ວ ລໍຖ້າເພີ່ມເຂົ້າກະເປົາ',
  refundNone: 'ຕອນນີ້ຍັງບໍ່ມີຍອດຄືນ',
  refundBonusActive: 'ເຮັດເງື່ອນໄຂໂບນັດທີ່ໃຊ້ຢູ່ໃຫ້ຄົບ ຫຼື ຍົກເລີກກ່ອນຮັບຍອດຄືນ',
  receive: 'ຮັບຍອດຄືນ',
  addWallet: 'ເພີ່ມເຂົ້າກະເປົາ',
  addWalletTitle: 'ເພີ່ມຍອດຄືນເຂົ້າກະເປົາເງິນ?',
  addWalletText: 'ຍອດຄືນຈະເຂົ້າກະເປົາເງິນພ້ອມເງື່ອນໄຂ: ຕ້ອງມີຍອດຫຼິ້ນ {{success}}% ຂອງຍອດຄືນກ່ອນຖອນ ເງື່ອນໄຂຈະສິ້ນສຸດຖ້າຍອດເງິນລວມຫຼຸດລົງເຫຼືອ {{fail}}% ຂອງຍອດຄືນ',
  successRate: 'ອັດຕາສຳເລັດ',
  failRate: 'ອັດຕາບໍ່ສຳເລັດ',
  cancel: 'ຍົກເລີກ',
  added: 'ຍອດຄືນເຂົ້າກະເປົາເງິນແລ້ວ',
  refundHistory: 'ປະຫວັດຍອດຄືນ',
  refundEmpty: 'ຍັງບໍ່ມີປະຫວັດຍອດຄືນ',
  close: 'ປິດ',
};

/** Every locale of the namespace; test/i18n.test.ts checks each has every key. */
export const rewardsLocales: Readonly<Record<Locale, RewardsMessages>> = { th, la, en };

/** The namespace's name for `useTranslation`; importing it adds the texts to i18next. */
export const rewardsNs = addNamespace('rewards', rewardsLocales);
