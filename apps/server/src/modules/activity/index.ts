import { defineModule } from '../../platform/module';
import { moduleDb } from '../../db/database';
import type { ActivityDb } from './tables';
import { GameActivity } from './activity-service';
import './tables';

export type { GameRoundsTable, GameRoundCursorsTable, ActivityTables, ActivityDb } from './tables';
export { GameActivity, type PlayTotals, type RoundsFigure, type RoundSources } from './activity-service';

declare module '../../platform/services' {
  interface Services {
    activity: GameActivity;
  }
}

/** Game activity: round import (every ROUND_IMPORT_INTERVAL_MS, 1 s) and play totals. */
export const activityModule = defineModule({
  name: 'activity',
  migrations: [
    {
      id: 'activity/001_game_rounds',
      sql: `
CREATE TABLE game_rounds (
  provider text NOT NULL,
  round_id text NOT NULL,
  member_id text NOT NULL REFERENCES members(id),
  category text NOT NULL,
  stake bigint NOT NULL CHECK (stake >= 0),
  win bigint NOT NULL CHECK (win >= 0),
  settled_at timestamptz NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, round_id)
);
CREATE INDEX game_rounds_member_time ON game_rounds (member_id, settled_at);
CREATE TABLE game_round_cursors (
  provider text PRIMARY KEY,
  cursor text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
    },
    {
      // Reports (issue 34) read the rounds of a span: a year is a range of this index.
      id: 'activity/002_round_time',
      sql: `CREATE INDEX game_rounds_time ON game_rounds (settled_at);`,
    },
  ],
  setup(services) {
    services.activity = new GameActivity(moduleDb<ActivityDb>(services.database), services.games);
  },
  start({ activity, config }, log) {
    const every = Number(config.env.ROUND_IMPORT_INTERVAL_MS ?? 1_000);
    if (!Number.isFinite(every) || every <= 0) return undefined;
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      activity
        .importAll()
        .catch((error: unknown) => log.warn({ err: error }, 'round import failed'))
        .finally(() => {
          running = false;
        });
    }, every);
    timer.unref();
    return () => clearInterval(timer);
  },
});
