import type { Kysely } from 'kysely';
import './tables';
import type { LookupTables } from './tables';

export interface BankRow {
  code: string;
  nameTH: string;
  nameEN: string;
  /** Added to the spec's fields: the Lao name (the English one when none is set). */
  nameLA: string;
  /** Added: the bank's country, TH or LA (registration offers banks by the build). */
  country: 'TH' | 'LA';
}

export type BankSeed = [code: string, nameTH: string, nameEN: string, nameLA: string, country: 'TH' | 'LA'];

/** The reference lists every deployment has: banks and sign-up sources. */
export class LookupService {
  constructor(private readonly db: Kysely<LookupTables>) {}

  /** Active banks, in the operator's order. */
  async banks(): Promise<BankRow[]> {
    const rows = await this.db
      .selectFrom('banks')
      .select(['code', 'name_th', 'name_en', 'name_la', 'country'])
      .where('active', '=', true)
      .orderBy('sort')
      .orderBy('code')
      .execute();
    return rows.map((b) => ({ code: b.code, nameTH: b.name_th, nameEN: b.name_en, nameLA: b.name_la ?? b.name_en, country: b.country }));
  }

  async sources(): Promise<Array<{ code: string; description: string }>> {
    return this.db.selectFrom('sources').select(['code', 'description']).orderBy('sort').orderBy('code').execute();
  }

  /** Writes the banks and sources that are missing (an operator's changes stay). */
  async seed(banks: BankSeed[], sources: Array<[code: string, description: string]>): Promise<void> {
    await this.db
      .insertInto('banks')
      .values(banks.map(([code, name_th, name_en, name_la, country], sort) => ({ code, name_th, name_en, name_la, country, sort, active: true })))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    // Banks seeded before Lao names existed get theirs (a name an operator set stays).
    for (const [code, , , nameLA] of banks) {
      await this.db.updateTable('banks').set({ name_la: nameLA }).where('code', '=', code).where('name_la', 'is', null).execute();
    }
    await this.db
      .insertInto('sources')
      .values(sources.map(([code, description], sort) => ({ code, description, sort })))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }
}
