import type { Kysely } from 'kysely';
import type { DB, DefaultTimestamp } from '../db/schema';
import { newId } from '../lib/ids';

/** An operator's change of configuration (promotions, wheel, bonus rules): who, when, before, after. */
export interface OperatorChangesTable {
  id: string;
  at: DefaultTimestamp;
  who: string;
  /** What was changed: `bonus`, `promotion`, `spinwheel`, … */
  entity: string;
  key: string;
  before: unknown;
  after: unknown;
}

declare module '../db/schema' {
  interface DB {
    operator_changes: OperatorChangesTable;
  }
}

/** Records one change (the rows as they were and as they are now, JSON). */
export async function recordChange(db: Kysely<DB>, change: { who: string; entity: string; key: string; before: unknown; after: unknown }): Promise<void> {
  await db
    .insertInto('operator_changes')
    .values({ id: newId(), who: change.who, entity: change.entity, key: change.key, before: JSON.stringify(change.before ?? null), after: JSON.stringify(change.after ?? null) })
    .execute();
}
