import type { Kysely } from 'kysely';
import './tables';
import type { SettingsTables } from './tables';

/** How long a setting read is kept (ms): a change made through another server process applies within this. */
const KEEP_MS = 1000;

/**
 * Key/value settings kept in the database (site content and switches). Settings are read on hot
 * paths (the site state on every page, the invite rules on every wallet read, the slip rules on
 * every upload), so each read is kept for a second: a change made through this process applies at
 * once (`set` forgets the kept value), one made through another process (WEB_CONCURRENCY, several
 * machines) within a second — a terminate, too.
 */
export class SettingsService {
  private readonly kept = new Map<string, { value: unknown; at: number }>();

  constructor(private readonly db: Kysely<SettingsTables>, private readonly now: () => number = Date.now) {}

  async get<T>(key: string, fallback: T): Promise<T> {
    const at = this.now();
    const kept = this.kept.get(key);
    // A copy: a caller that changes what it got does not change the kept value.
    if (kept && at - kept.at < KEEP_MS && at >= kept.at) return (kept.value === undefined ? fallback : structuredClone(kept.value)) as T;
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    // Kept only when nothing was set meanwhile (a read that raced a `set` is not kept).
    if (this.kept.get(key) === kept) this.kept.set(key, { value: row ? row.value : undefined, at });
    return row ? (row.value as T) : fallback;
  }

  async set(key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    await this.db
      .insertInto('settings')
      .values({ key, value: json })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
      .execute();
    this.forget(key);
  }

  private forget(key: string): void {
    // A marker, not a deletion: a read that started before this set sees it changed and keeps nothing.
    this.kept.set(key, { value: undefined, at: Number.NEGATIVE_INFINITY });
  }

  async setIfMissing(key: string, value: unknown): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    this.forget(key);
  }

  siteActive(): Promise<boolean> {
    return this.get<boolean>('siteActive', true);
  }
}
