/**
 * The on-screen captions of the how-to videos, in th, la and en. `{{name}}` placeholders are
 * filled with the app's own labels (from the web app's catalogues), so a caption says exactly
 * what the button it points at says. The `Captions` type makes a missing text in one language
 * a typecheck failure; `e2e/tests/howto.spec.ts` checks each language is written in its script.
 */
export const JOURNEYS = ['wallet', 'playGame', 'checkBalance', 'receiveBonus', 'endBonus'] as const;
export type JourneyId = (typeof JOURNEYS)[number];

export const LOCALES = ['th', 'la', 'en'] as const;
export type HowtoLocale = (typeof LOCALES)[number];

export interface Captions {
  /** The caption track's label in the player. */
  trackLabel: string;
  wallet: { balance: string; deposit: string; qr: string; pay: string; withdraw: string; statement: string };
  playGame: { lists: string; open: string; credentials: string; play: string; spin: string; back: string };
  checkBalance: { total: string; check: string; updated: string; transfer: string; done: string };
  receiveBonus: { page: string; card: string; receive: string; turnover: string; home: string };
  endBonus: { active: string; byItself: string; cancel: string; confirm: string; done: string };
}

export const CAPTIONS: Record<HowtoLocale, Captions> = {
  th: {
    trackLabel: 'ภาษาไทย',
    wallet: {
      balance: 'ยอดเงินรวม = กระเป๋าเงิน + เงินในทุกเกม',
      deposit: 'แตะ “{{deposit}}” เพื่อเติมเงิน',
      qr: 'เลือก QR Code เลือกจำนวนเงิน แล้วสร้าง QR',
      pay: 'สแกนจ่าย QR ด้วยแอปธนาคาร ยอดเงินเข้ากระเป๋าเอง',
      withdraw: '“{{withdraw}}” โอนเงินเข้าบัญชีธนาคารที่ลงทะเบียนไว้',
      statement: 'ทุกรายการฝากและถอนอยู่ในเมนู “{{statement}}”',
    },
    playGame: {
      lists: 'เกมแบ่งเป็นสล็อต กีฬาและคาสิโน และหวย',
      open: 'แตะเกมที่ชอบ แล้วแตะ “{{activate}}”',
      credentials: 'ชื่อผู้ใช้และรหัสผ่านของเกมอยู่ที่นี่',
      play: 'แตะ “{{play}}” เงินในกระเป๋าย้ายเข้าเกม แล้วเกมจะเปิดขึ้น',
      spin: 'เล่นในหน้าของเกม ยอดเงินในเกมเปลี่ยนตามผล',
      back: '“Back to wallet” พากลับมาที่กระเป๋าเงิน',
    },
    checkBalance: {
      total: 'ยอดเงินรวมนับทั้งกระเป๋าเงินและทุกบัญชีเกม',
      check: 'ยอดในเกมเปลี่ยนระหว่างเล่น แตะ “{{check}}” เพื่ออัปเดต',
      updated: 'ยอดของทุกเกมและเวลาอัปเดตล่าสุดเป็นปัจจุบันแล้ว',
      transfer: '“{{transfer}}” ย้ายเงินจากเกมกลับเข้ากระเป๋า',
      done: 'เงินกลับเข้ากระเป๋าแล้ว พร้อมถอน',
    },
    receiveBonus: {
      page: 'ฝากเงินแล้ว แตะ “{{bonusTile}}” เพื่อดูโบนัส',
      card: 'แตะการ์ดโบนัสเพื่ออ่านเงื่อนไข',
      receive: 'แตะ “{{receive}}” โบนัสเข้ากระเป๋าทันที',
      turnover: 'ทำยอดเล่นให้ครบก่อนถอน ความคืบหน้าแสดงที่นี่',
      home: 'หน้าหลักก็แสดงยอดเล่นที่ต้องทำเช่นกัน',
    },
    endBonus: {
      active: 'โบนัสที่ใช้อยู่และยอดเล่นที่ต้องทำ',
      byItself: 'โบนัสจบเองเมื่อทำยอดเล่นครบ',
      cancel: 'ต้องการจบก่อน? แตะ “{{cancel}}”',
      confirm: 'ยืนยัน: โบนัสและยอดที่ได้จากโบนัสจะถูกเรียกคืน',
      done: 'จบโบนัสแล้ว ถอนเงินได้ตามปกติ',
    },
  },
  la: {
    trackLabel: 'ພາສາລາວ',
    wallet: {
      balance: 'ຍອດເງິນລວມ = ກະເປົາເງິນ + ເງິນໃນທຸກເກມ',
      deposit: 'ແຕະ “{{deposit}}” ເພື່ອເຕີມເງິນ',
      qr: 'ເລືອກ QR Code ເລືອກຈຳນວນເງິນ ແລ້ວສ້າງ QR',
      pay: 'ສະແກນຈ່າຍ QR ດ້ວຍແອັບທະນາຄານ ເງິນເຂົ້າກະເປົາເອງ',
      withdraw: '“{{withdraw}}” ໂອນເງິນເຂົ້າບັນຊີທະນາຄານທີ່ລົງທະບຽນໄວ້',
      statement: 'ທຸກລາຍການຝາກ ແລະ ຖອນ ຢູ່ໃນເມນູ “{{statement}}”',
    },
    playGame: {
      lists: 'ເກມແບ່ງເປັນ ສະລັອດ, ກິລາ ແລະ ຄາສິໂນ, ແລະ ຫວຍ',
      open: 'ແຕະເກມທີ່ມັກ ແລ້ວແຕະ “{{activate}}”',
      credentials: 'ຊື່ຜູ້ໃຊ້ ແລະ ລະຫັດຜ່ານຂອງເກມຢູ່ບ່ອນນີ້',
      play: 'ແຕະ “{{play}}” ເງິນໃນກະເປົາຍ້າຍເຂົ້າເກມ ແລ້ວເກມຈະເປີດ',
      spin: 'ຫຼິ້ນໃນໜ້າຂອງເກມ ຍອດເງິນໃນເກມປ່ຽນຕາມຜົນ',
      back: '“Back to wallet” ພາກັບມາກະເປົາເງິນ',
    },
    checkBalance: {
      total: 'ຍອດເງິນລວມນັບທັງກະເປົາເງິນ ແລະ ທຸກບັນຊີເກມ',
      check: 'ຍອດໃນເກມປ່ຽນລະຫວ່າງຫຼິ້ນ ແຕະ “{{check}}” ເພື່ອອັບເດດ',
      updated: 'ຍອດຂອງທຸກເກມ ແລະ ເວລາອັບເດດລ່າສຸດ ເປັນປັດຈຸບັນແລ້ວ',
      transfer: '“{{transfer}}” ຍ້າຍເງິນຈາກເກມກັບເຂົ້າກະເປົາ',
      done: 'ເງິນກັບເຂົ້າກະເປົາແລ້ວ ພ້ອມຖອນ',
    },
    receiveBonus: {
      page: 'ຝາກເງິນແລ້ວ ແຕະ “{{bonusTile}}” ເພື່ອເບິ່ງໂບນັດ',
      card: 'ແຕະບັດໂບນັດເພື່ອອ່ານເງື່ອນໄຂ',
      receive: 'ແຕະ “{{receive}}” ໂບນັດເຂົ້າກະເປົາທັນທີ',
      turnover: 'ຫຼິ້ນໃຫ້ຄົບຍອດກ່ອນຖອນ ຄວາມຄືບໜ້າສະແດງຢູ່ບ່ອນນີ້',
      home: 'ໜ້າຫຼັກກໍ່ສະແດງຍອດຫຼິ້ນທີ່ຕ້ອງເຮັດຄືກັນ',
    },
    endBonus: {
      active: 'ໂບນັດທີ່ໃຊ້ຢູ່ ແລະ ຍອດຫຼິ້ນທີ່ຕ້ອງເຮັດ',
      byItself: 'ໂບນັດສິ້ນສຸດເອງເມື່ອຫຼິ້ນຄົບຍອດ',
      cancel: 'ຢາກສິ້ນສຸດກ່ອນບໍ? ແຕະ “{{cancel}}”',
      confirm: 'ຢືນຢັນ: ໂບນັດ ແລະ ຍອດທີ່ໄດ້ຈາກໂບນັດຈະຖືກເອີ້ນຄືນ',
      done: 'ສິ້ນສຸດໂບນັດແລ້ວ ຖອນເງິນໄດ້ຕາມປົກກະຕິ',
    },
  },
  en: {
    trackLabel: 'English',
    wallet: {
      balance: 'Total balance = your wallet + the money in every game',
      deposit: 'Tap “{{deposit}}” to add money',
      qr: 'Choose QR Code, pick an amount and create the QR',
      pay: 'Pay the QR in your bank app: the money arrives by itself',
      withdraw: '“{{withdraw}}” sends money to your registered bank account',
      statement: 'Every deposit and withdrawal is in “{{statement}}”',
    },
    playGame: {
      lists: 'Games are grouped: slots, sports and casino, lottery',
      open: 'Tap a game, then “{{activate}}”',
      credentials: 'Your game username and password are here',
      play: 'Tap “{{play}}”: your wallet money moves in and the game opens',
      spin: 'Play on the game’s own page; its balance follows your results',
      back: '“Back to wallet” brings you back here',
    },
    checkBalance: {
      total: 'The total counts your wallet and every game account',
      check: 'Game balances change while you play: tap “{{check}}”',
      updated: 'Every game’s balance and the last-update time are now current',
      transfer: '“{{transfer}}” moves game money back to the wallet',
      done: 'The money is back in the wallet, ready to withdraw',
    },
    receiveBonus: {
      page: 'After a deposit, tap “{{bonusTile}}” to see the bonuses',
      card: 'Tap a bonus card to read its conditions',
      receive: 'Tap “{{receive}}”: the bonus lands in your wallet at once',
      turnover: 'Play the turnover before you withdraw; progress shows here',
      home: 'The home page shows the turnover too',
    },
    endBonus: {
      active: 'Your active bonus and the turnover still to play',
      byItself: 'A bonus ends by itself when the turnover is reached',
      cancel: 'To end it sooner, tap “{{cancel}}”',
      confirm: 'Confirm: the bonus and what it earned are taken back',
      done: 'The bonus has ended: withdrawals work as usual',
    },
  },
};

/** The videos' file names (the how-to page and the recorder share them). */
export const VIDEO_FILES: Record<JourneyId, string> = {
  wallet: 'wallet',
  playGame: 'play-game',
  checkBalance: 'check-balance',
  receiveBonus: 'receive-bonus',
  endBonus: 'end-bonus',
};
