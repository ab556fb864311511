import { defineModule } from '../../platform/module';
import { CATALOGUE } from '../../providers/games/catalogue';

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
 * The demo (SEED_DEMO, on by default outside production): the site's texts and demo deposit
 * accounts, the catalogue of the 16 sandbox games and the demo member the README names, each
 * written only when missing, through the services of the domains that own them. Without
 * SEED_DEMO (production by default) the demo member must not be usable, even on a data folder a
 * development run once seeded: it is retired (inactive, no password matches, sessions ended).
 * Listed last, so every domain's tables and services are there.
 */
export const demoModule = defineModule({
  name: 'demo',
  async seed({ config, settings, games, accounts }) {
    if (!config.SEED_DEMO) {
      await accounts.retire(DEMO_MEMBER.id, RETIRED);
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
    await accounts.ensureMember(
      { ...DEMO_MEMBER, name: 'Demo Player', sourceCode: 'FRIEND', bankCode: 'KBANK', bankAccountName: 'DEMO PLAYER', bankAccountNo: '1234567890' },
      RETIRED,
    );
  },
});
