import { defineModule } from '../../platform/module';
import { lookupHandlers } from './lookup-routes';
import { LookupService, type BankSeed } from './lookup-service';
import { moduleDb } from '../../db/database';
import type { LookupTables } from './tables';

declare module '../../platform/services' {
  interface Services {
    lookups: LookupService;
  }
}

/**
 * The bank list every deployment starts with (operators edit the banks table): code, Thai, English
 * and Lao names, and the bank's country. Registration offers a country's banks by the build (see
 * `banksForRegistration`): the Thai build Thai banks only, the Laos build BCEL (and, for a baht
 * wallet, the Thai banks too).
 */
export const BANKS: BankSeed[] = [
  ['KBANK', 'ธนาคารกสิกรไทย', 'Kasikornbank', 'ທະນາຄານກະສິກອນໄທ', 'TH'],
  ['SCB', 'ธนาคารไทยพาณิชย์', 'Siam Commercial Bank', 'ທະນາຄານໄທພານິດ', 'TH'],
  ['KTB', 'ธนาคารกรุงไทย', 'Krungthai Bank', 'ທະນາຄານກຸງໄທ', 'TH'],
  ['BBL', 'ธนาคารกรุงเทพ', 'Bangkok Bank', 'ທະນາຄານບາງກອກ', 'TH'],
  ['TMB', 'ธนาคารทหารไทยธนชาต', 'TMBThanachart Bank', 'ທະນາຄານທະຫານໄທທະນະຊາດ', 'TH'],
  ['BAY', 'ธนาคารกรุงศรีอยุธยา', 'Bank of Ayudhya (Krungsri)', 'ທະນາຄານກຸງສີອະຍຸດທະຢາ', 'TH'],
  ['GSB', 'ธนาคารออมสิน', 'Government Savings Bank', 'ທະນາຄານອອມສິນ', 'TH'],
  ['BAAC', 'ธนาคารเพื่อการเกษตรและสหกรณ์การเกษตร', 'Bank for Agriculture and Agricultural Cooperatives', 'ທະນາຄານເພື່ອການກະສິກຳ ແລະ ສະຫະກອນກະສິກຳ', 'TH'],
  ['KKP', 'ธนาคารเกียรตินาคินภัทร', 'Kiatnakin Phatra Bank', 'ທະນາຄານກຽດຕິນາກິນພັດທະລະ', 'TH'],
  ['CIMB', 'ธนาคารซีไอเอ็มบี ไทย', 'CIMB Thai Bank', 'ທະນາຄານຊີໄອເອັມບີ ໄທ', 'TH'],
  ['UOB', 'ธนาคารยูโอบี', 'United Overseas Bank (Thai)', 'ທະນາຄານຢູໂອບີ', 'TH'],
  ['BCEL', 'ธนาคารการค้าต่างประเทศลาว', 'Banque Pour Le Commerce Exterieur Lao', 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ', 'LA'],
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
    {
      id: 'lookup/002_bank_lao_names',
      sql: `
-- Lao bank names (one language per screen) and each bank's country (registration follows the build).
ALTER TABLE banks ADD COLUMN name_la text;
ALTER TABLE banks ADD COLUMN country text NOT NULL DEFAULT 'TH' CHECK (country IN ('TH', 'LA'));
UPDATE banks SET country = 'LA' WHERE code = 'BCEL';`,
    },
    {
      // The lists other areas may read (issue 35): read-only views, typed as LookupReads.
      id: 'lookup/003_read_views',
      sql: `
CREATE VIEW bank_view AS SELECT code, name_th, name_en, name_la, country, sort, active FROM banks;
CREATE VIEW source_view AS SELECT code, description, sort FROM sources;
CREATE OR REPLACE FUNCTION refuse_read_model_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is a read model: write through its owner''s service', TG_TABLE_NAME USING ERRCODE = '0A000';
END $$;
CREATE TRIGGER bank_view_read_only INSTEAD OF INSERT OR UPDATE OR DELETE ON bank_view FOR EACH ROW EXECUTE FUNCTION refuse_read_model_write();
CREATE TRIGGER source_view_read_only INSTEAD OF INSERT OR UPDATE OR DELETE ON source_view FOR EACH ROW EXECUTE FUNCTION refuse_read_model_write();`,
    },
  ],
  setup(services) {
    services.lookups = new LookupService(moduleDb<LookupTables>(services.database));
  },
  async seed({ lookups }) {
    await lookups.seed(BANKS, SOURCES);
  },
  handlers: lookupHandlers,
});
export type { LookupReads } from './tables';
