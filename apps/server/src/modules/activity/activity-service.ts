import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dayOf, type ReportSpan } from '../../lib/report-span';
import { ProviderError, type GameRound } from '../../providers/games/game-provider';
import { sameConnection, type Connection } from '../../db/database';
import type { ActivityDb } from './tables';

/** Class of the advisory locks that make one importer per provider write at a time (the second key is the provider's hash). */
const IMPORT_LOCK = 4242101;

/** What a member staked and won over a span, in satang. */
export interface PlayTotals {
  stakes: number;
  wins: number;
  rounds: number;
}

/** One provider's rounds of a period (stakes and wins in minor units). */
export interface RoundsFigure {
  period: number;
  provider: string;
  stakes: number;
  wins: number;
  rounds: number;
}

/**
 * What game activity needs of the games (the wallet module's GameService is one): each provider's
 * round feed, a member's login at a game, and booking a game's live balance. Declared here, so
 * activity sits below the wallet module and imports nothing of it (docs/development.md, "Layers").
 */
export interface RoundSources {
  /** The active catalogue: each game's code and category. */
  catalogue(): Promise<Array<{ code: string; category: string }>>;
  provider(code: string): { rounds(cursor: string | null, limit: number): Promise<GameRound[]> };
  memberGame(memberId: string, code: string): Promise<{ code: string; username: string }>;
  sync(memberId: string, game: { code: string; username: string }): Promise<number>;
}

/**
 * Game activity: the rounds members play at the providers, imported as they settle (each
 * provider's round feed, after a stored cursor; a round is written once by provider + round id,
 * so a page read twice or two importers at once change nothing). Money stays with the ledger
 * (transfers to and from games); rounds are the base of bonus turnover, refunds of losses and
 * invite earnings. A round whose username no member has at that provider is skipped.
 */
export class GameActivity {
  constructor(
    private readonly db: Kysely<ActivityDb>,
    private readonly games: RoundSources,
  ) {}

  /**
   * A seamless provider's round as its bets and wins arrive (no feed to import): the round's stake
   * and win grow by each call's amounts (a rolled-back bet takes its stake back out). Written in the caller's transaction, with the money.
   */
  async recordSeamless(connection: Connection, round: { provider: string; roundId: string; memberId: string; category: string; stake: number; win: number; at: Date }): Promise<void> {
    const trx = sameConnection<ActivityDb>(connection);
    if (round.stake < 0 || round.win < 0) {
      // A stake taken back (a rollback): only a round that exists changes (the row's checks hold a new row's figures at zero or more).
      await trx
        .updateTable('game_rounds')
        .set({ stake: sql<number>`GREATEST(stake + ${round.stake}, 0)`, win: sql<number>`GREATEST(win + ${round.win}, 0)` })
        .where('provider', '=', round.provider)
        .where('round_id', '=', round.roundId)
        .execute();
      return;
    }
    await trx
      .insertInto('game_rounds')
      .values({ provider: round.provider, round_id: round.roundId, member_id: round.memberId, category: round.category, stake: round.stake, win: round.win, settled_at: round.at })
      .onConflict((oc) =>
        oc.columns(['provider', 'round_id']).doUpdateSet({
          stake: sql<number>`game_rounds.stake + excluded.stake`,
          win: sql<number>`game_rounds.win + excluded.win`,
          settled_at: sql<Date>`excluded.settled_at`,
        }),
      )
      .execute();
  }

  /**
   * Imports the rounds settled since the last import, from every active game's provider. Answers
   * how many were new. A provider that does not answer (down, refusing, past its deadline) is
   * skipped: its cursor stays, so its rounds come with the next import, and the others' are not
   * held up by it.
   */
  async importAll(pageSize = 500): Promise<number> {
    const catalogue = await this.games.catalogue();
    let imported = 0;
    for (const game of catalogue) {
      try {
        imported += await this.importFrom(game.code, game.category, pageSize);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
      }
    }
    return imported;
  }

  /**
   * One provider's feed, page by page. The page is read from the provider outside any
   * transaction (the provider may be slow, and the sandbox's feed is itself in this database);
   * it is written in a transaction that first takes this provider's advisory lock, so importers
   * of one provider (threads of one process or several processes) write one at a time and
   * cannot deadlock: before, the rounds' inserts and the cursor's update ran in one statement
   * whose parts PostgreSQL may run in any order, so two importers could each hold what the other
   * waited for (the cursor row against an uncommitted round). Under the lock the rounds go in by
   * round id and the cursor moves after them, only forward, in the same transaction; a page that
   * another importer wrote first changes nothing (ON CONFLICT DO NOTHING). Different providers
   * never share a row, so their importers need no order between them.
   */
  private async importFrom(code: string, category: string, pageSize: number): Promise<number> {
    let imported = 0;
    const players = new Set<string>();
    for (let pages = 0; pages < 20; pages++) {
      const at = await this.db.selectFrom('game_round_cursors').select('cursor').where('provider', '=', code).executeTakeFirst();
      const rounds = await this.games.provider(code).rounds(at?.cursor ?? null, pageSize);
      if (rounds.length === 0) break;
      const last = rounds[rounds.length - 1]?.cursor ?? at?.cursor ?? '0';
      imported += await this.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${IMPORT_LOCK}, hashtext(${code}))`.execute(trx);
        const written = await sql<{ member_id: string; n: string }>`
          WITH incoming AS (
            SELECT * FROM unnest(${rounds.map((r) => r.roundId)}::text[], ${rounds.map((r) => r.username)}::text[],
              ${rounds.map((r) => String(r.stake))}::bigint[], ${rounds.map((r) => String(r.win))}::bigint[], ${rounds.map((r) => r.settledAt.toISOString())}::timestamptz[])
              AS u(round_id, username, stake, win, settled_at)),
          inserted AS (
            INSERT INTO game_rounds (provider, round_id, member_id, category, stake, win, settled_at)
            SELECT ${code}, i.round_id, mg.member_id, ${category}, i.stake, i.win, i.settled_at
            FROM incoming i JOIN member_games mg ON mg.game_code = ${code} AND mg.username = i.username
            ORDER BY i.round_id
            ON CONFLICT (provider, round_id) DO NOTHING
            RETURNING member_id)
          SELECT member_id, count(*)::text AS n FROM inserted GROUP BY member_id`.execute(trx);
        await sql`
          INSERT INTO game_round_cursors (provider, cursor) VALUES (${code}, ${last})
          ON CONFLICT (provider) DO UPDATE SET cursor = EXCLUDED.cursor, updated_at = now()
          WHERE game_round_cursors.cursor::numeric < EXCLUDED.cursor::numeric`.execute(trx);
        for (const row of written.rows) players.add(row.member_id);
        return written.rows.reduce((sum, row) => sum + Number(row.n), 0);
      });
      if (rounds.length < pageSize) break;
    }
    await this.followPlay(code, players);
    return imported;
  }

  /**
   * The game balance of each member whose rounds were just imported, read from the provider: the
   * read books the difference to the ledger (GameService.sync), and the money core's balance feed
   * pushes the new game balance to the member's open app (the socket's `balance` event, reason
   * game_result). A provider that does not answer keeps the last balance; the next read books it.
   */
  private async followPlay(code: string, members: ReadonlySet<string>): Promise<void> {
    await Promise.allSettled(
      [...members].map(async (memberId) => {
        const game = await this.games.memberGame(memberId, code);
        await this.games.sync(memberId, game);
      }),
    );
  }

  /**
   * Reports: the rounds settled in a span per period and provider, of the members `members` selects
   * (the account module's subquery of a currency's members: rounds carry no currency of their own).
   * Seamless rounds are in the same table, so they count here too.
   */
  async byPeriod(span: ReportSpan, members: RawBuilder<unknown>): Promise<RoundsFigure[]> {
    const rows = await sql<{ period: number; provider: string; stakes: string | number; wins: string | number; n: string | number }>`
      SELECT ${dayOf(span, sql`r.settled_at`)} AS period, r.provider, sum(r.stake) AS stakes, sum(r.win) AS wins, count(*) AS n
      FROM game_rounds r
      WHERE r.settled_at >= ${span.from} AND r.settled_at < ${span.to} AND r.member_id IN (${members})
      GROUP BY 1, 2`.execute(this.db);
    return rows.rows.map((r) => ({ period: Number(r.period), provider: r.provider, stakes: Number(r.stakes), wins: Number(r.wins), rounds: Number(r.n) }));
  }

  /** A member's stakes and wins in rounds settled in [from, to), in the given categories (all when null). */
  async totals(memberId: string, from: Date, to: Date | null, categories: readonly string[] | null): Promise<PlayTotals> {
    let query = this.db
      .selectFrom('game_rounds')
      .select((eb) => [eb.fn.coalesce(eb.fn.sum<string>('stake'), sql<string>`0`).as('stakes'), eb.fn.coalesce(eb.fn.sum<string>('win'), sql<string>`0`).as('wins'), eb.fn.countAll<string>().as('rounds')])
      .where('member_id', '=', memberId)
      .where('settled_at', '>=', from);
    if (to) query = query.where('settled_at', '<', to);
    if (categories) query = query.where('category', 'in', categories.length > 0 ? [...categories] : ['']);
    const row = await query.executeTakeFirstOrThrow();
    return { stakes: Number(row.stakes), wins: Number(row.wins), rounds: Number(row.rounds) };
  }
}
