import { z } from 'zod';
import { bool } from '../../config';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { CATALOGUE } from '../../providers/games/catalogue';
import { CURRENCIES, type Currency } from '../../money';

import type { Services } from '../../platform/services';
// The seed's inputs, as the owning modules' services take them (no import of their files: demo sits on top).
type NewChannel = Parameters<Services['deposits']['channels']['seed']>[0][number];
type WheelInput = Parameters<Services['spins']['seedWheel']>[1];
import { DEMO_QUEUE_MEMBER, seedDemoQueue } from './queue';

/** The demo member the README names. */
export const DEMO_MEMBER = { username: '0812345678', password: 'demo1234', id: 'de300000000000000000de30' } as const;
/** The password hash of a retired demo member: no password matches it. */
const RETIRED = '!retired-demo-member';

/**
 * The demo site's content, per locale where it is text: name, texts, LINE contact and the demo
 * deposit accounts. A real deployment writes its own (SEED_DEMO=false leaves them out).
 */
const DEMO_SETTINGS: Record<string, unknown> = {
  info: { name: 'Golden Wallet', website: 'goldenwallet.example' },
  conditions: {
    th: [
      '<p><b>โบนัสแบบจำกัดครั้ง</b> รับได้ตามจำนวนครั้งที่กำหนดตลอดอายุบัญชี</p>',
      '<p><b>โบนัสรายวัน</b> รับได้ตามจำนวนครั้งที่กำหนดต่อวัน (ตัดรอบเที่ยงคืน)</p>',
      '<p>ระหว่างมีโบนัส การถอนต้องทำยอดตามเงื่อนไขให้ครบก่อน</p>',
    ],
    la: [
      '<p><b>ໂບນັດແບບຈຳກັດຄັ້ງ</b> ຮັບໄດ້ຕາມຈຳນວນຄັ້ງທີ່ກຳນົດຕະຫຼອດອາຍຸບັນຊີ</p>',
      '<p><b>ໂບນັດລາຍວັນ</b> ຮັບໄດ້ຕາມຈຳນວນຄັ້ງທີ່ກຳນົດຕໍ່ມື້ (ຕັດຮອບທ່ຽງຄືນ)</p>',
      '<p>ໃນລະຫວ່າງມີໂບນັດ ການຖອນຕ້ອງເຮັດຍອດຕາມເງື່ອນໄຂໃຫ້ຄົບກ່ອນ</p>',
    ],
    en: [
      '<p><b>Limit bonus</b>: can be received a set number of times over the life of the account.</p>',
      '<p><b>Daily bonus</b>: can be received a set number of times per day (resets at midnight).</p>',
      '<p>While a bonus is active, its turnover must be met before a withdrawal.</p>',
    ],
  },
  agreements: {
    th: [
      '<p>ผู้ใช้ต้องมีอายุ 20 ปีขึ้นไป และใช้บัญชีธนาคารชื่อเดียวกับที่ลงทะเบียน</p>',
      '<p>หนึ่งคนต่อหนึ่งบัญชี หากพบการทุจริต ทางเว็บไซต์ขอสงวนสิทธิ์ระงับบัญชี</p>',
    ],
    la: [
      '<p>ຜູ້ໃຊ້ຕ້ອງມີອາຍຸ 20 ປີຂຶ້ນໄປ ແລະ ໃຊ້ບັນຊີທະນາຄານຊື່ດຽວກັບທີ່ລົງທະບຽນ</p>',
      '<p>ໜຶ່ງຄົນຕໍ່ໜຶ່ງບັນຊີ ຖ້າພົບການສໍ້ໂກງ ທາງເວັບໄຊສະຫງວນສິດລະງັບບັນຊີ</p>',
    ],
    en: [
      '<p>You must be 20 or older and use a bank account in the name you registered with.</p>',
      '<p>One account per person. Accounts involved in fraud may be suspended.</p>',
    ],
  },
  notice: {
    th: 'ถอนเงินได้เมื่อทำยอดเทิร์นครบ หากยอดเงินรวมเหลือไม่เกิน %percentFail%% ของยอดฝากรวมโบนัส โบนัสจะสิ้นสุด',
    la: 'ຖອນເງິນໄດ້ເມື່ອເຮັດຍອດເທີນຄົບ. ຖ້າຍອດເງິນລວມເຫຼືອບໍ່ເກີນ %percentFail%% ຂອງຍອດຝາກລວມໂບນັດ, ໂບນັດຈະສິ້ນສຸດ',
    en: 'You can withdraw once the turnover is met. If your total balance falls to %percentFail%% of deposit plus bonus, the bonus ends.',
  },
  inviteBanners: {
    th: [
      { image: '/banners/invite.svg', html: '<h3>ชวนเพื่อน รับ 1% ทุกยอดฝาก</h3><p>แชร์ลิงก์ของคุณ เมื่อเพื่อนสมัครและฝากเงิน คุณได้รับ 1% ของทุกยอดฝาก</p>' },
      { image: '/banners/invite-2.svg', html: '<h3>ไม่จำกัดจำนวนเพื่อน</h3><p>รับโบนัสชวนเพื่อนเข้ากระเป๋าได้ทุกเมื่อ เล่นให้ครบ 100% ของโบนัสก่อนถอน</p>' },
    ],
    la: [
      { image: '/banners/invite.svg', html: '<h3>ຊວນໝູ່ ຮັບ 1% ທຸກຍອດຝາກ</h3><p>ແບ່ງປັນລິ້ງຂອງທ່ານ ເມື່ອໝູ່ສະໝັກ ແລະ ຝາກເງິນ ທ່ານໄດ້ຮັບ 1% ຂອງທຸກຍອດຝາກ</p>' },
      { image: '/banners/invite-2.svg', html: '<h3>ບໍ່ຈຳກັດຈຳນວນໝູ່</h3><p>ຮັບໂບນັດຊວນໝູ່ເຂົ້າກະເປົາໄດ້ທຸກເວລາ ຫຼິ້ນໃຫ້ຄົບ 100% ຂອງໂບນັດກ່ອນຖອນ</p>' },
    ],
    en: [
      { image: '/banners/invite.svg', html: '<h3>Invite friends, earn 1% of every deposit</h3><p>Share your link: when a friend registers and deposits, 1% of each deposit is yours.</p>' },
      { image: '/banners/invite-2.svg', html: '<h3>No limit on friends</h3><p>Receive your invite bonus any time; play 100% of it before withdrawing.</p>' },
    ],
  },
  refundBanners: {
    th: [{ image: '/banners/refund.svg', html: '<h3>คืนยอดเสีย 5% ทุกสัปดาห์</h3><p>รับคืน 5% ของยอดเสียสัปดาห์ที่แล้ว (จันทร์–อาทิตย์)</p>' }],
    la: [{ image: '/banners/refund.svg', html: '<h3>ຄືນຍອດເສຍ 5% ທຸກອາທິດ</h3><p>ຮັບຄືນ 5% ຂອງຍອດເສຍອາທິດທີ່ແລ້ວ (ຈັນ–ອາທິດ)</p>' }],
    en: [{ image: '/banners/refund.svg', html: '<h3>5% of your losses back, every week</h3><p>5% of last week’s net loss (Monday to Sunday) back.</p>' }],
  },
  // The invite and refund rules with amounts per currency (minor units): baht and kip.
  invite: { active: true, percent: 1, minimum: { THB: 100, LAK: 100_000 }, successPercent: 100, failPercent: 0 },
  refund: {
    active: true,
    period: 'week',
    percent: 5,
    minimum: { THB: 100, LAK: 100_000 },
    maximum: { THB: 500_000, LAK: 100_000_000 },
    successPercent: 100,
    failPercent: 0,
    info: {
      THB: {
        th: '<p>รับคืนยอดเสีย 5% ของสัปดาห์ที่แล้ว (จันทร์–อาทิตย์) สูงสุด ฿5,000</p>',
        la: '<p>ຮັບຄືນຍອດເສຍ 5% ຂອງອາທິດທີ່ແລ້ວ (ຈັນ–ອາທິດ) ສູງສຸດ ฿5,000</p>',
        en: '<p>5% of last week’s net loss (Monday to Sunday) back, up to ฿5,000.</p>',
      },
      LAK: {
        th: '<p>รับคืนยอดเสีย 5% ของสัปดาห์ที่แล้ว (จันทร์–อาทิตย์) สูงสุด ₭1,000,000</p>',
        la: '<p>ຮັບຄືນຍອດເສຍ 5% ຂອງອາທິດທີ່ແລ້ວ (ຈັນ–ອາທິດ) ສູງສຸດ ₭1,000,000</p>',
        en: '<p>5% of last week’s net loss (Monday to Sunday) back, up to ₭1,000,000.</p>',
      },
    },
  },
  contact: {
    contactText: {
      th: '<p>ติดต่อทีมงานได้ตลอด 24 ชั่วโมง ผ่าน LINE</p>',
      la: '<p>ຕິດຕໍ່ທີມງານໄດ້ຕະຫຼອດ 24 ຊົ່ວໂມງ ຜ່ານ LINE</p>',
      en: '<p>Our team is available 24 hours a day on LINE.</p>',
    },
    lineLink: 'https://line.me/R/ti/p/@goldenwallet',
    lineName: '@goldenwallet',
    lineQR: '',
  },
};

const company = 'GOLDEN WALLET CO LTD';
/** Prize labels are amounts (one text for every language); every slice pays. */
const wheelSlice = (prefix: string, symbol: string, major: number, weight: number, i: number) => ({
  code: `${prefix}${major}`,
  label: `${symbol}${major.toLocaleString('en-US')}`,
  bgColor: i % 2 === 0 ? '#f5c451' : '#2b2f6b',
  textColor: i % 2 === 0 ? '#1d1b3a' : '#ffffff',
  htmlDescription: '',
  weight,
  prize: { name: `${symbol}${major.toLocaleString('en-US')}`, amount: major * 100 },
});
const WEIGHTS = [300, 250, 200, 120, 70, 40, 15, 5];
/** The wheel of each currency: its prizes and coin rate in that currency (amounts in minor units). */
const DEMO_WHEELS: Record<Currency, WheelInput> = {
  // 100 baht deposited = 1 coin; prizes 1 to 500 baht.
  THB: {
    name: 'Golden Wheel',
    active: true,
    slices: [1, 2, 5, 10, 20, 50, 100, 500].map((baht, i) => wheelSlice('B', '฿', baht, WEIGHTS[i] ?? 1, i)),
    depositPerCoin: 10_000,
    couponTtlDays: 7,
  },
  // 50,000 kip deposited = 1 coin; prizes 2,000 to 1,000,000 kip.
  LAK: {
    name: 'Golden Wheel',
    active: true,
    slices: [2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 1_000_000].map((kip, i) => wheelSlice('K', '₭', kip, WEIGHTS[i] ?? 1, i)),
    depositPerCoin: 5_000_000,
    couponTtlDays: 7,
  },
};

/**
 * Demo bonuses: a welcome bonus, a daily and a weekly one. Amounts per currency in minor units:
 * satang for THB, hundredths of a kip for LAK (about 600 kip to the baht: ฿100 ≈ ₭60,000).
 */
/**
 * A bonus's banner: its title and what it is for, no amount. A banner is the same for every
 * currency, so a figure in it would be baht on a kip member's screen; the card's text, written
 * from the rule in the member's currency (bonus-text.ts), says the cap and the minimum.
 */
const bonusBanner = (title: string, text: { th: string; la: string; en: string }) => ({
  th: [{ image: '', html: `<h3>${title}</h3><p>${text.th}</p>` }],
  la: [{ image: '', html: `<h3>${title}</h3><p>${text.la}</p>` }],
  en: [{ image: '', html: `<h3>${title}</h3><p>${text.en}</p>` }],
});
const DEMO_BONUSES = [
  {
    code: 'WELCOME20', type: 'limit' as const, maxReceived: 1, maxTotal: null, percentFail: 10, percent: 20, amounts: { THB: { minDeposit: 10_000, maxBonus: 50_000 }, LAK: { minDeposit: 6_000_000, maxBonus: 30_000_000 } },
    turnoverMultiple: 5, categories: ['slot' as const], depositWindowMinutes: 60, active: true, sort: 1,
    banners: bonusBanner('WELCOME 20%', { th: 'โบนัสฝากแรก 20% · เทิร์น ×5 · สล็อต', la: 'ໂບນັດຝາກທຳອິດ 20% · ເທີນ ×5 · ສະລັອດ', en: '20% on your first deposit · turnover ×5 · slots' }),
  },
  {
    code: 'DAILY10', type: 'day' as const, maxReceived: 1, maxTotal: null, percentFail: 10, percent: 10, amounts: { THB: { minDeposit: 5_000, maxBonus: 20_000 }, LAK: { minDeposit: 3_000_000, maxBonus: 12_000_000 } },
    turnoverMultiple: 3, categories: ['slot' as const, 'sport' as const, 'lotto' as const], depositWindowMinutes: 60, active: true, sort: 2,
    banners: bonusBanner('DAILY 10%', { th: 'โบนัส 10% ทุกวัน · เทิร์น ×3', la: 'ໂບນັດ 10% ທຸກມື້ · ເທີນ ×3', en: '10% every day · turnover ×3' }),
  },
  {
    code: 'PROMO30', type: 'limit' as const, maxReceived: 1, maxTotal: null, percentFail: 10, percent: 30, amounts: { THB: { minDeposit: 10_000, maxBonus: 30_000 }, LAK: { minDeposit: 6_000_000, maxBonus: 18_000_000 } },
    turnoverMultiple: 5, categories: ['slot' as const], depositWindowMinutes: 60, active: false, sort: 9,
    banners: bonusBanner('BOOST 30%', { th: 'โบนัส 30% · เทิร์น ×5 · สล็อต', la: 'ໂບນັດ 30% · ເທີນ ×5 · ສະລັອດ', en: '30% bonus · turnover ×5 · slots' }),
  },
  {
    code: 'WEEKLY15', type: 'week' as const, maxReceived: 2, maxTotal: null, percentFail: 10, percent: 15, amounts: { THB: { minDeposit: 30_000, maxBonus: 100_000 }, LAK: { minDeposit: 18_000_000, maxBonus: 60_000_000 } },
    turnoverMultiple: 4, categories: ['slot' as const], depositWindowMinutes: 60, active: true, sort: 3,
    banners: bonusBanner('WEEKLY 15%', { th: 'โบนัส 15% ทุกสัปดาห์ · เทิร์น ×4 · สล็อต', la: 'ໂບນັດ 15% ທຸກອາທິດ · ເທີນ ×4 · ສະລັອດ', en: '15% every week · turnover ×4 · slots' }),
  },
];

/** Demo promotion codes: a fixed credit, and a bonus rule (PROMO30, not listed in the catalogue). */
const DEMO_PROMOTIONS = [
  {
    code: 'FREE50', kind: 'credit' as const, amounts: { THB: 5_000, LAK: 3_000_000 }, bonusCode: null, percentFail: 0,
    description: { th: 'รับเครดิตฟรี ฿50 ครั้งเดียว', la: 'ຮັບເຄຣດິດຟຣີ ฿50 ຄັ້ງດຽວ', en: 'A free ฿50 credit, once' },
  },
  {
    code: 'BOOST30', kind: 'bonus' as const, amounts: {}, bonusCode: 'PROMO30', percentFail: 10,
    description: { th: 'โบนัส 30% สูงสุด ฿300 จากยอดฝากล่าสุด ทำเทิร์น ×5 สล็อต', la: 'ໂບນັດ 30% ສູງສຸດ ฿300 ຈາກຍອດຝາກລ່າສຸດ ເທີນ ×5 ສະລັອດ', en: '30% of your latest deposit up to ฿300, turnover ×5 on slots' },
  },
];

/** Every mode of the spec's deposit modal (section 2), each transfer-able in the sandbox bank. */
const DEMO_CHANNELS: NewChannel[] = [
  { id: 'KBANK-AUTO', kind: 'bank', bank_code: 'KBANK', bank_type: 'BANK', mode: 'AUTO', account_name: company, account_no: '0451234567', currency: 'BAHT', sort: 1, active: true },
  { id: 'KBANK-QR', kind: 'bank', bank_code: 'KBANK', bank_type: 'BANK', mode: 'SMS', account_name: company, account_no: '0459876543', currency: 'BAHT', sort: 2, active: true },
  { id: 'SCB-AUTO', kind: 'bank', bank_code: 'SCB', bank_type: 'BANK', mode: 'AUTO', account_name: company, account_no: '4071234567', currency: 'BAHT', sort: 3, active: true },
  { id: 'GSB-MANUAL', kind: 'bank', bank_code: 'GSB', bank_type: 'BANK', mode: 'MANUAL', account_name: company, account_no: '020123456789', currency: 'BAHT', sort: 4, active: true },
  { id: 'BCEL-AUTO', kind: 'bank', bank_code: 'BCEL', bank_type: 'BANK', mode: 'AUTO', account_name: 'GOLDEN WALLET LAO', account_no: '0100001234567', currency: 'LAK', sort: 5, active: true },
  { id: 'WW', kind: 'bank', bank_code: 'WW', bank_type: 'PAYMENT', mode: 'AUTO', account_name: '', account_no: '', currency: 'BAHT', sort: 6, active: true },
  { id: 'PAYTIMZ', kind: 'bank', bank_code: 'PAYTIMZ', bank_type: 'PAYMENT', mode: 'AUTO', account_name: '', account_no: '', currency: 'BAHT', sort: 7, active: true },
  { id: 'PAYONEX', kind: 'bank', bank_code: 'PAYONEX', bank_type: 'PAYMENT', mode: 'AUTO', account_name: '', account_no: '', currency: 'BAHT', sort: 8, active: true },
  { id: 'ZPAY', kind: 'bank', bank_code: 'ZPAY', bank_type: 'PAYMENT', mode: 'AUTO', account_name: '', account_no: '', currency: 'BAHT', sort: 9, active: true },
  { id: 'EWALLET-AUTO', kind: 'wallet', bank_code: 'TRUEWALLET', bank_type: 'BANK', mode: 'AUTO', account_name: 'GOLDEN WALLET', account_no: '0891234567', currency: 'BAHT', sort: 10, active: true },
  { id: 'EWALLET-GIFT', kind: 'wallet', bank_code: 'TRUEWALLET', bank_type: 'BANK', mode: 'GIFT', account_name: 'GOLDEN WALLET', account_no: '0891234567', currency: 'BAHT', sort: 11, active: true },
];

/** The demo's own configuration (see the README). */
const demoEnv = z.object({
  /**
   * With SEED_DEMO: a small back-office work queue (a pending withdrawal, a slip in progress, an
   * unmatched deposit, an unread chat) made once per database. Default: on with SEED_DEMO; the
   * test harnesses turn it off (their suites count the queues).
   */
  SEED_DEMO_QUEUE: bool.optional(),
});

/**
 * The demo (SEED_DEMO, on by default outside production): the site's texts, the demo deposit
 * channels (every mode of the deposit modal), the catalogue of the 16 sandbox games and the demo member the README names, each
 * written only when missing, through the services of the domains that own them. Without
 * SEED_DEMO (production by default) the demo member must not be usable, even on a data folder a
 * development run once seeded: it is retired (inactive, no password matches, sessions ended), and
 * so is the second demo member of the back-office queue. With SEED_DEMO_QUEUE (default: on with
 * SEED_DEMO) the back office's demo work queue is made once (see queue.ts).
 * Listed last, so every domain's tables and services are there.
 */
export const demoModule = defineModule({
  name: 'demo',
  async seed(services, log) {
    const { config, settings, games, accounts, deposits, spins, bonuses, promotions } = services;
    const env = moduleConfig(config, demoEnv);
    if (!config.SEED_DEMO) {
      await accounts.retire(DEMO_MEMBER.id, RETIRED);
      await accounts.retire(DEMO_QUEUE_MEMBER.id, RETIRED);
      return;
    }
    for (const [key, value] of Object.entries(DEMO_SETTINGS)) await settings.setIfMissing(key, value);
    await games.seedCatalogue(
      CATALOGUE.map((g, sort) => ({
        code: g.code,
        name: g.name,
        logo: `/media/games/${g.code}/logo.svg`,
        background: `/media/games/${g.code}/background.svg`,
        category: g.category,
        ft_wallet_slot: g.ftWalletSlot,
        web: `/sandbox/games/${g.code}/lobby`,
        android: null,
        ios: null,
        sort,
      })),
    );
    await deposits.channels.seed(DEMO_CHANNELS);
    for (const currency of CURRENCIES) await spins.seedWheel(currency, DEMO_WHEELS[currency]);
    await bonuses.seedCatalogue(DEMO_BONUSES);
    await promotions.seed(DEMO_PROMOTIONS);
    await accounts.ensureMember(
      { ...DEMO_MEMBER, name: 'Demo Player', sourceCode: 'FRIEND', bankCode: 'KBANK', bankAccountName: 'DEMO PLAYER', bankAccountNo: '1234567890' },
      RETIRED,
    );
    if (env.SEED_DEMO_QUEUE ?? true) await seedDemoQueue(services, log, RETIRED);
  },
});
