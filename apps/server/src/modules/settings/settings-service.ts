import type { Kysely } from 'kysely';
import type { Locale } from '@mw/contract/constants';
import type { DB } from '../../db/schema';
import './tables';

/** Content an operator writes once per locale. */
export type Localized<T> = Record<Locale, T>;

export function pickLocale<T>(value: Localized<T> | T, locale: Locale): T {
  if (typeof value === 'object' && value !== null && 'th' in value && 'en' in value) {
    const localized = value as Localized<T>;
    return localized[locale] ?? localized.th;
  }
  return value as T;
}

/**
 * Key/value settings kept in the database (site content and switches). The site state is read
 * on every request, so it is cached for a second: a terminate takes effect within a second on
 * every server process.
 */
export class SettingsService {
  private activeCache: { value: boolean; at: number } | null = null;

  constructor(private readonly db: Kysely<DB>, private readonly now: () => number = Date.now) {}

  async get<T>(key: string, fallback: T): Promise<T> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row ? (row.value as T) : fallback;
  }

  async set(key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    await this.db
      .insertInto('settings')
      .values({ key, value: json })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
      .execute();
    if (key === 'siteActive') this.activeCache = null;
  }

  async setIfMissing(key: string, value: unknown): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  async siteActive(): Promise<boolean> {
    const now = this.now();
    if (this.activeCache && now - this.activeCache.at < 1000) return this.activeCache.value;
    const value = await this.get<boolean>('siteActive', true);
    this.activeCache = { value, at: now };
    return value;
  }
}
