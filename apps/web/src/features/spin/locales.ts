import type { Locale } from '@mw/contract/constants';
import { addNamespace } from '../../i18n/namespaces';

/**
 * The `spin` i18next namespace: texts of the prize wheel page, kept with the feature (its own chunk, not the
 * first download) and added to i18next when the chunk loads (i18n/namespaces.ts).
 */
const en = {
  title: 'Prize wheel',
  coins: 'Coins',
  coinsHint: 'Your deposits earn coins. One coin, one spin.',
  spin: 'Spin',
  spinning: 'Spinning…',
  noCoins: 'No coins left',
  wonTitle: 'You won!',
  wonText: 'Your prize {{label}} is waiting in your coupons below. Claim it to add it to your wallet.',
  close: 'Close',
  coupons: 'My coupons',
  couponsEmpty: 'No coupons yet. Spin the wheel to win one.',
  index: 'No.',
  prize: 'Prize',
  amount: 'Amount',
  claim: 'Claim',
  claimTitle: 'Claim this prize?',
  claimText: '{{label}} ({{amount}}) will be added to your wallet.',
  claimConfirm: 'Claim now',
  cancel: 'Cancel',
  claimed: 'Prize {{label}} added to your wallet',
  fairTitle: 'Provably fair',
  fairText: 'Each spin is decided on our server from a secret seed whose fingerprint you see before you spin, your client seed and a spin counter. Change the seed at any time: the old one is shown so you can check every spin made with it.',
  seedHash: 'Seed fingerprint (SHA-256)',
  clientSeed: 'Client seed',
  nonce: 'Next spin number',
  odds: 'Chances',
  rotate: 'Change seed and reveal the old one',
  revealed: 'Revealed seed (used for {{spins}} spins)',
};

export type SpinMessages = typeof en;

const th: SpinMessages = {
  title: 'วงล้อรางวัล',
  coins: 'เหรียญ',
  coinsHint: 'ยอดฝากของคุณได้รับเหรียญ หมุนได้ 1 ครั้งต่อเหรียญ',
  spin: 'หมุน',
  spinning: 'กำลังหมุน…',
  noCoins: 'เหรียญหมดแล้ว',
  wonTitle: 'ยินดีด้วย!',
  wonText: 'รางวัล {{label}} อยู่ในคูปองของคุณด้านล่าง กดรับเพื่อเติมเข้ากระเป๋า',
  close: 'ปิด',
  coupons: 'คูปองของฉัน',
  couponsEmpty: 'ยังไม่มีคูปอง หมุนวงล้อเพื่อรับรางวัล',
  index: 'ลำดับ',
  prize: 'รางวัล',
  amount: 'จำนวนเงิน',
  claim: 'รับรางวัล',
  claimTitle: 'รับรางวัลนี้?',
  claimText: '{{label}} ({{amount}}) จะถูกเติมเข้ากระเป๋าของคุณ',
  claimConfirm: 'รับเลย',
  cancel: 'ยกเลิก',
  claimed: 'เติมรางวัล {{label}} เข้ากระเป๋าแล้ว',
  fairTitle: 'ตรวจสอบความยุติธรรมได้',
  fairText: 'ผลการหมุนแต่ละครั้งตัดสินบนเซิร์ฟเวอร์จากซีดลับที่คุณเห็นลายนิ้วมือก่อนหมุน ซีดของคุณ และลำดับการหมุน เปลี่ยนซีดได้ทุกเมื่อ ระบบจะเปิดเผยซีดเดิมให้คุณตรวจสอบทุกการหมุนที่ใช้ซีดนั้น',
  seedHash: 'ลายนิ้วมือของซีด (SHA-256)',
  clientSeed: 'ซีดของคุณ',
  nonce: 'ลำดับการหมุนถัดไป',
  odds: 'โอกาส',
  rotate: 'เปลี่ยนซีดและเปิดเผยซีดเดิม',
  revealed: 'ซีดที่เปิดเผย (ใช้หมุน {{spins}} ครั้ง)',
};

const la: SpinMessages = {
  title: 'ວົງລໍ້ລາງວັນ',
  coins: 'ຫຼຽນ',
  coinsHint: 'ຍອດຝາກຂອງທ່ານໄດ້ຮັບຫຼຽນ. ໝຸນໄດ້ 1 ຄັ້ງຕໍ່ຫຼຽນ.',
  spin: 'ໝຸນ',
  spinning: 'ກຳລັງໝຸນ…',
  noCoins: 'ຫຼຽນໝົດແລ້ວ',
  wonTitle: 'ຍິນດີນຳ!',
  wonText: 'ລາງວັນ {{label}} ຢູ່ໃນຄູປອງຂອງທ່ານດ້ານລຸ່ມ. ກົດຮັບເພື່ອເຕີມເຂົ້າກະເປົາ.',
  close: 'ປິດ',
  coupons: 'ຄູປອງຂອງຂ້ອຍ',
  couponsEmpty: 'ຍັງບໍ່ມີຄູປອງ. ໝຸນວົງລໍ້ເພື່ອຮັບລາງວັນ.',
  index: 'ລຳດັບ',
  prize: 'ລາງວັນ',
  amount: 'ຈຳນວນເງິນ',
  claim: 'ຮັບລາງວັນ',
  claimTitle: 'ຮັບລາງວັນນີ້ບໍ?',
  claimText: '{{label}} ({{amount}}) ຈະຖືກເຕີມເຂົ້າກະເປົາຂອງທ່ານ.',
  claimConfirm: 'ຮັບເລີຍ',
  cancel: 'ຍົກເລີກ',
  claimed: 'ເຕີມລາງວັນ {{label}} ເຂົ້າກະເປົາແລ້ວ',
  fairTitle: 'ກວດສອບຄວາມຍຸຕິທຳໄດ້',
  fairText: 'ຜົນການໝຸນແຕ່ລະຄັ້ງຕັດສິນເທິງເຊີບເວີຈາກຊີດລັບທີ່ທ່ານເຫັນລາຍນິ້ວມືກ່ອນໝຸນ, ຊີດຂອງທ່ານ ແລະ ລຳດັບການໝຸນ. ປ່ຽນຊີດໄດ້ທຸກເວລາ: ລະບົບຈະເປີດເຜີຍຊີດເກົ່າໃຫ້ທ່ານກວດສອບທຸກການໝຸນທີ່ໃຊ້ຊີດນັ້ນ.',
  seedHash: 'ລາຍນິ້ວມືຂອງຊີດ (SHA-256)',
  clientSeed: 'ຊີດຂອງທ່ານ',
  nonce: 'ລຳດັບການໝຸນຕໍ່ໄປ',
  odds: 'ໂອກາດ',
  rotate: 'ປ່ຽນຊີດ ແລະ ເປີດເຜີຍຊີດເກົ່າ',
  revealed: 'ຊີດທີ່ເປີດເຜີຍ (ໃຊ້ໝຸນ {{spins}} ຄັ້ງ)',
};

/** Every locale of the namespace; test/i18n.test.ts checks each has every key. */
export const spinLocales: Readonly<Record<Locale, SpinMessages>> = { th, la, en };

/** The namespace's name for `useTranslation`; importing it adds the texts to i18next. */
export const spinNs = addNamespace('spin', spinLocales);
