import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import './tables';

export interface BankRow {
  code: string;
  nameTH: string;
  nameEN: string;
}

/** The reference lists every deployment has: banks and sign-up sources. */
export class LookupService {
  constructor(private readonly db: Kysely<DB>) {}

  /** Active banks, in the operator's order. */
  async banks(): Promise<BankRow[]> {
    const rows = await this.db.selectFrom('banks').select(['code', 'name_th', 'name_en']).where('active', '=', true).orderBy('sort').orderBy('code').execute();
    return rows.map((b) => ({ code: b.code, nameTH: b.name_th, nameEN: b.name_en }));
  }

  async sources(): Promise<Array<{ code: string; description: string }>> {
    return this.db.selectFrom('sources').select(['code', 'description']).orderBy('sort').orderBy('code').execute();
  }

  /** Writes the banks and sources that are missing (an operator's changes stay). */
  async seed(banks: Array<[code: string, nameTH: string, nameEN: string]>, sources: Array<[code: string, description: string]>): Promise<void> {
    await this.db
      .insertInto('banks')
      .values(banks.map(([code, name_th, name_en], sort) => ({ code, name_th, name_en, sort, active: true })))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    await this.db
      .insertInto('sources')
      .values(sources.map(([code, description], sort) => ({ code, description, sort })))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }
}
