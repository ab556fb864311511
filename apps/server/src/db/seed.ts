import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { openMemberAccounts } from '../money/ledger';
import { CATALOGUE } from '../providers/games/catalogue';
import { createPasswordHasher } from '../lib/password';
import type { DB } from './schema';

/** The demo member the README names. */
export const DEMO_MEMBER = { username: '0812345678', password: 'demo1234', id: 'de300000000000000000de30' } as const;

const BANKS: Array<[code: string, nameTH: string, nameEN: string]> = [
  ['KBANK', 'ธนาคารกสิกรไทย', 'Kasikornbank'],
  ['SCB', 'ธนาคารไทยพาณิชย์', 'Siam Commercial Bank'],
  ['KTB', 'ธนาคารกรุงไทย', 'Krungthai Bank'],
  ['BBL', 'ธนาคารกรุงเทพ', 'Bangkok Bank'],
  ['TMB', 'ธนาคารทหารไทยธนชาต', 'TMBThanachart Bank'],
  ['BAY', 'ธนาคารกรุงศรีอยุธยา', 'Bank of Ayudhya (Krungsri)'],
  ['GSB', 'ธนาคารออมสิน', 'Government Savings Bank'],
  ['BAAC', 'ธนาคารเพื่อการเกษตรและสหกรณ์การเกษตร', 'Bank for Agriculture and Agricultural Cooperatives'],
  ['KKP', 'ธนาคารเกียรตินาคินภัทร', 'Kiatnakin Phatra Bank'],
  ['CIMB', 'ธนาคารซีไอเอ็มบี ไทย', 'CIMB Thai Bank'],
  ['UOB', 'ธนาคารยูโอบี', 'United Overseas Bank (Thai)'],
  ['BCEL', 'ธนาคารการค้าต่างประเทศลาว', 'Banque Pour Le Commerce Exterieur Lao'],
];

const SOURCES: Array<[code: string, description: string]> = [
  ['FACEBOOK', 'Facebook'],
  ['GOOGLE', 'Google'],
  ['LINE', 'LINE'],
  ['TIKTOK', 'TikTok'],
  ['YOUTUBE', 'YouTube'],
  ['FRIEND', 'เพื่อนแนะนำ / Friend'],
  ['OTHER', 'อื่น ๆ / Other'],
];

/** Switches and limits every deployment starts with. Operators change them in the settings table. */
const BASE_SETTINGS: Record<string, unknown> = {
  siteActive: true,
  registerOTP: true,
  enableChatWidget: false,
  withdrawLimits: { withdrawMinSatang: 10_000, withdrawMaxSatang: 5_000_000 },
  slip: { uploadEnabled: true, closedFrom: '23:50', closedTo: '00:10', maxAgeMinutes: 60 },
};

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
      '<p>ผู้ใช้ต้องมีอายุ 18 ปีขึ้นไป และใช้บัญชีธนาคารชื่อเดียวกับที่ลงทะเบียน</p>',
      '<p>หนึ่งคนต่อหนึ่งบัญชี หากพบการทุจริต ทางเว็บไซต์ขอสงวนสิทธิ์ระงับบัญชี</p>',
    ],
    la: [
      '<p>ຜູ້ໃຊ້ຕ້ອງມີອາຍຸ 18 ປີຂຶ້ນໄປ ແລະ ໃຊ້ບັນຊີທະນາຄານຊື່ດຽວກັບທີ່ລົງທະບຽນ</p>',
      '<p>ໜຶ່ງຄົນຕໍ່ໜຶ່ງບັນຊີ ຖ້າພົບການສໍ້ໂກງ ທາງເວັບໄຊສະຫງວນສິດລະງັບບັນຊີ</p>',
    ],
    en: [
      '<p>You must be 18 or older and use a bank account in the name you registered with.</p>',
      '<p>One account per person. Accounts involved in fraud may be suspended.</p>',
    ],
  },
  notice: {
    th: 'หากยกเลิกโบนัส ระบบจะหักยอด %percentFail%% ของโบนัส',
    la: 'ຖ້າຍົກເລີກໂບນັດ ລະບົບຈະຫັກຍອດ %percentFail%% ຂອງໂບນັດ',
    en: 'If you cancel the bonus, %percentFail%% of it is deducted.',
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
  deposit: {
    banks: [
      { bankCode: 'KBANK', bankType: 'BANK', mode: 'AUTO', bankAccountName: 'GOLDEN WALLET CO LTD', bankAccountNo: '0451234567', currency: 'BAHT' },
      { bankCode: 'SCB', bankType: 'BANK', mode: 'AUTO', bankAccountName: 'GOLDEN WALLET CO LTD', bankAccountNo: '4071234567', currency: 'BAHT' },
      { bankCode: 'GSB', bankType: 'BANK', mode: 'AUTO', bankAccountName: 'GOLDEN WALLET CO LTD', bankAccountNo: '020123456789', currency: 'BAHT' },
    ],
    wallets: [{ walletAccountName: 'GOLDEN WALLET', mode: 'GIFT' }],
    isManual: false,
  },
};

/**
 * Fills an empty database with what every deployment needs: the bank list, the sign-up sources
 * and the base switches. Each part is written only when missing, so a restart never overwrites an
 * operator's changes.
 */
export async function seedReference(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto('banks')
    .values(BANKS.map(([code, name_th, name_en], sort) => ({ code, name_th, name_en, sort, active: true })))
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  await db
    .insertInto('sources')
    .values(SOURCES.map(([code, description], sort) => ({ code, description, sort })))
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  await insertSettings(db, BASE_SETTINGS);
}

async function insertSettings(db: Kysely<DB>, settings: Record<string, unknown>): Promise<void> {
  await db
    .insertInto('settings')
    .values(Object.entries(settings).map(([key, value]) => ({ key, value: JSON.stringify(value) })))
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/**
 * Without SEED_DEMO (production by default) the demo member must not be usable, even on a data
 * folder a development run once seeded: it is made inactive, its password unusable and its
 * sessions ended. Answers whether there was one to retire.
 */
export async function retireDemo(db: Kysely<DB>): Promise<boolean> {
  const retired = await db
    .updateTable('members')
    .set({ status: 'inactive', password_hash: '!retired-demo-member', updated_at: new Date() })
    .where('id', '=', DEMO_MEMBER.id)
    .where('password_hash', '<>', '!retired-demo-member')
    .executeTakeFirst();
  if (Number(retired.numUpdatedRows) === 0) return false;
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('member_id', '=', DEMO_MEMBER.id).where('revoked_at', 'is', null).execute();
  return true;
}

/**
 * The demo (SEED_DEMO, on by default outside production): the site's texts and demo deposit
 * accounts, the catalogue of the 16 sandbox games and the demo member the README names. Written
 * only when missing.
 */
export async function seedDemo(db: Kysely<DB>, config: Pick<Config, 'ARGON2_MEMORY_KIB'>): Promise<void> {
  await insertSettings(db, DEMO_SETTINGS);
  await db
    .insertInto('games')
    .values(
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
    )
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  const demo = await db.selectFrom('members').select(['id', 'password_hash']).where('username', '=', DEMO_MEMBER.username).executeTakeFirst();
  if (demo?.password_hash === '!retired-demo-member') {
    // Retired by a run without SEED_DEMO: back again.
    const hash = await createPasswordHasher(config.ARGON2_MEMORY_KIB).hash(DEMO_MEMBER.password);
    await db.updateTable('members').set({ status: 'active', password_hash: hash, updated_at: new Date() }).where('id', '=', demo.id).execute();
  }
  if (!demo) {
    const hash = await createPasswordHasher(config.ARGON2_MEMORY_KIB).hash(DEMO_MEMBER.password);
    await db
      .insertInto('members')
      .values({
        id: DEMO_MEMBER.id,
        username: DEMO_MEMBER.username,
        name: 'Demo Player',
        password_hash: hash,
        source_code: 'FRIEND',
        inviter_id: null,
        bank_code: 'KBANK',
        bank_account_name: 'DEMO PLAYER',
        bank_account_no: '1234567890',
        currency: 'BAHT',
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await openMemberAccounts(db, DEMO_MEMBER.id);
}
