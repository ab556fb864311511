import { defineModule } from '../../platform/module';
import { lookupHandlers } from './lookup-routes';
import { LookupService } from './lookup-service';

declare module '../../platform/services' {
  interface Services {
    lookups: LookupService;
  }
}

/** The bank list every deployment starts with (operators edit the banks table). */
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

/** Reference lists (banks, sign-up sources) and the 13 lookups of spec section 7. */
export const lookupModule = defineModule({
  name: 'lookup',
  migrations: [
    {
      id: 'lookup/001_banks_sources',
      appliedWith: '005_money_core',
      sql: `
CREATE TABLE banks (
  code text PRIMARY KEY,
  name_th text NOT NULL,
  name_en text NOT NULL,
  sort integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true
);
CREATE TABLE sources (
  code text PRIMARY KEY,
  description text NOT NULL,
  sort integer NOT NULL DEFAULT 0
);`,
    },
  ],
  setup(services) {
    services.lookups = new LookupService(services.database.db);
  },
  async seed({ lookups }) {
    await lookups.seed(BANKS, SOURCES);
  },
  handlers: lookupHandlers,
});
