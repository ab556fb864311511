import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { GAME_FAULT_MODES } from '@mw/contract/operator/payout';
import type { DB } from '../../db/schema';
import './sandbox-tables';
import { Batcher, oneByOne, type Outcome } from '../../lib/batcher';
import { ProviderError, type GameRound, type GameCredentials, type GameProvider, type LaunchTarget, type TransferDirection } from './game-provider';

/** Failure injection per game: an outside system fails in these ways (the list is the operator call's, contract/operator/payout.ts). */
export type FaultMode = (typeof GAME_FAULT_MODES)[number];

export interface Fault {
  mode: FaultMode;
  /** Added to every call. */
  latencyMs: number;
}

/** Launch styles of spec section 2: an auto-login link, a form-state event, or the provider's web page. */
export const FORM_EVENT_GAME = 'UFABET';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The sandbox of all 16 game providers. Its state (accounts, balances, applied transfer
 * references, play sessions) is in its own sandbox_game_* tables: it survives a restart of the
 * server, as a real provider would.
 */
/** How often a process reads the faults other processes set. */
export const FAULT_REFRESH_MS = 500;

export class SandboxGameHouse {
  private readonly faults = new Map<string, Fault>();
  /** When each fault was last set in this process (a refresh older than that does not undo it). */
  private readonly setAt = new Map<string, number>();
  private defaultLatencyMs = 0;
  private readonly ledger: SandboxTransfers;
  private sharing: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly hangMs: number,
  ) {
    this.ledger = new SandboxTransfers(db);
  }

  /**
   * Failure injection, shared by every server process: the fault takes effect here at once and
   * is written to sandbox_game_faults, which every process reads every FAULT_REFRESH_MS.
   */
  async setFault(code: string, fault: Fault): Promise<void> {
    this.faults.set(code, fault);
    // Until the write is in, and for a read that began before it ended, this process's own
    // setting wins over what a refresh reads.
    this.setAt.set(code, Number.MAX_SAFE_INTEGER);
    try {
      await this.db
        .insertInto('sandbox_game_faults')
        .values({ game_code: code, mode: fault.mode, latency_ms: fault.latencyMs })
        .onConflict((oc) => oc.column('game_code').doUpdateSet({ mode: fault.mode, latency_ms: fault.latencyMs, updated_at: new Date() }))
        .execute();
    } finally {
      this.setAt.set(code, Date.now());
    }
  }

  /** Reads the faults every process has set. */
  async refreshFaults(): Promise<void> {
    const started = Date.now();
    const rows = await this.db.selectFrom('sandbox_game_faults').select(['game_code', 'mode', 'latency_ms']).execute();
    for (const row of rows) {
      if ((this.setAt.get(row.game_code) ?? 0) >= started) continue;
      this.faults.set(row.game_code, { mode: row.mode, latencyMs: row.latency_ms });
    }
  }

  /** Starts reading the shared faults periodically (stopped by stopSharing). */
  startSharing(intervalMs = FAULT_REFRESH_MS): void {
    if (this.sharing) return;
    this.sharing = setInterval(() => void this.refreshFaults().catch(() => undefined), intervalMs);
    this.sharing.unref();
  }

  stopSharing(): void {
    if (this.sharing) clearInterval(this.sharing);
    this.sharing = null;
  }

  setDefaultLatency(ms: number): void {
    this.defaultLatencyMs = ms;
  }

  fault(code: string): Fault {
    return this.faults.get(code) ?? { mode: 'none', latencyMs: this.defaultLatencyMs };
  }

  provider(code: string): GameProvider {
    return new SandboxGameProvider(code, this.db, this.ledger, () => this.fault(code), this.hangMs);
  }

  /** A play session for the demo game page. */
  async session(token: string): Promise<{ gameCode: string; username: string } | null> {
    const row = await this.db
      .selectFrom('sandbox_game_sessions')
      .select(['game_code', 'username', 'expires_at'])
      .where('token', '=', token)
      .executeTakeFirst();
    if (!row || row.expires_at.getTime() < Date.now()) return null;
    return { gameCode: row.game_code, username: row.username };
  }

  async accountBalance(code: string, username: string): Promise<number | null> {
    const row = await this.db.selectFrom('sandbox_game_accounts').select('balance').where('game_code', '=', code).where('username', '=', username).executeTakeFirst();
    return row ? Number(row.balance) : null;
  }

  /**
   * One spin of the demo game, entirely on the provider's side: the bet is lost or won, and the
   * round is recorded in the provider's round feed in the same statement.
   */
  /** One round of the demo game: `bet` staked, bet × multiplier won; `settledAt` dates it (sandbox play for tests; default now). */
  async spin(code: string, username: string, bet: number, multiplier: number, settledAt?: Date): Promise<number | null> {
    const won = Math.round(bet * multiplier);
    const roundId = `${code}-${randomBytes(9).toString('base64url')}`;
    const result = await sql<{ balance: number }>`
      WITH played AS (
        UPDATE sandbox_game_accounts SET balance = balance - ${bet}::bigint + ${won}::bigint
        WHERE game_code = ${code} AND username = ${username} AND balance >= ${bet}::bigint RETURNING balance),
      round AS (
        INSERT INTO sandbox_game_rounds (round_id, game_code, username, stake, win, settled_at)
        SELECT ${roundId}, ${code}, ${username}, ${bet}::bigint, ${won}::bigint, coalesce(${settledAt ?? null}::timestamptz, now()) FROM played)
      SELECT balance FROM played`.execute(this.db);
    const row = result.rows[0];
    return row ? Number(row.balance) : null;
  }

  /**
   * Realistic play for tests and demos: `rounds` spins of `stake` each (fewer when the balance runs
   * out), wins drawn so that the game pays back about `rtp` of the stakes over many rounds.
   * Answers the rounds played and the balance after.
   */
  async play(code: string, username: string, rounds: number, stake: number, rtp = 0.96): Promise<{ played: number; staked: number; won: number; balance: number | null }> {
    let played = 0;
    let staked = 0;
    let won = 0;
    let balance: number | null = await this.accountBalance(code, username);
    for (let i = 0; i < rounds; i++) {
      // A few big wins, many small ones and many losses; mean multiplier = rtp.
      const r = Math.random();
      const multiplier = r < 0.01 ? rtp * 20 : r < 0.1 ? rtp * 4 : r < 0.4 ? rtp * 0.6 : 0;
      const after = await this.spin(code, username, stake, Math.round(multiplier * 100) / 100);
      if (after === null) break;
      played += 1;
      staked += stake;
      won += after - ((balance ?? 0) - stake);
      balance = after;
    }
    return { played, staked, won, balance };
  }

  async checkLogin(code: string, username: string, password: string): Promise<boolean> {
    const row = await this.db.selectFrom('sandbox_game_accounts').select('password').where('game_code', '=', code).where('username', '=', username).executeTakeFirst();
    return !!row && row.password === password;
  }

  async createSession(code: string, username: string): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.db
      .insertInto('sandbox_game_sessions')
      .values({ token, game_code: code, username, expires_at: new Date(Date.now() + 2 * 3_600_000) })
      .execute();
    return token;
  }
}

interface SandboxTransfer {
  code: string;
  username: string;
  /** Signed satang: positive into the game account. */
  delta: number;
  ref: string;
}

/** The provider's balance after an applied transfer, or null when the reference was not applied. */
type Applied = number | null;

class InsufficientGameBalance extends Error {}

/**
 * The sandbox's own book of transfers: each reference is applied at most once, and the account
 * changes in the same statement. Like any busy provider it writes concurrent transfers together
 * (one statement for many; see Batcher), which keeps the sandbox from dominating the database it
 * shares with the wallet in load tests.
 */
class SandboxTransfers {
  private readonly batcher: Batcher<SandboxTransfer, Applied>;

  constructor(private readonly db: Kysely<DB>) {
    this.batcher = new Batcher((items) => this.many(items), { maxBatch: 64, concurrency: 1 });
  }

  apply(transfer: SandboxTransfer): Promise<Applied> {
    return this.batcher.submit(transfer);
  }

  private async one(t: SandboxTransfer): Promise<Applied> {
    try {
      const applied = await sql<{ balance: number }>`
        WITH claimed AS (
          INSERT INTO sandbox_game_transfers (game_code, ref, username, amount, state)
          VALUES (${t.code}, ${t.ref}, ${t.username}, ${t.delta}::bigint, 'applied')
          ON CONFLICT (game_code, ref) DO NOTHING RETURNING ref
        )
        UPDATE sandbox_game_accounts SET balance = balance + ${t.delta}::bigint
        WHERE game_code = ${t.code} AND username = ${t.username} AND EXISTS (SELECT 1 FROM claimed)
        RETURNING balance`.execute(this.db);
      const row = applied.rows[0];
      return row ? Number(row.balance) : null;
    } catch (error) {
      if ((error as { code?: string }).code === '23514') throw new InsufficientGameBalance();
      throw error;
    }
  }

  private async many(items: SandboxTransfer[]): Promise<Array<Outcome<Applied>>> {
    const keys = new Set(items.map((t) => `${t.code}\n${t.ref}`));
    if (items.length === 1 || keys.size !== items.length) return oneByOne(items, (t) => this.one(t));
    let rows;
    try {
      rows = await sql<{ game_code: string; username: string; balance: number | string; ref: string | null }>`
        WITH input AS (
          SELECT * FROM unnest(${items.map((t) => t.code)}::text[], ${items.map((t) => t.ref)}::text[], ${items.map((t) => t.username)}::text[],
            ${items.map((t) => String(t.delta))}::bigint[]) AS i(game_code, ref, username, amount)
        ), claimed AS (
          INSERT INTO sandbox_game_transfers (game_code, ref, username, amount, state)
          SELECT game_code, ref, username, amount, 'applied' FROM input
          ON CONFLICT (game_code, ref) DO NOTHING RETURNING game_code, ref, username, amount
        ), delta AS (
          SELECT game_code, username, sum(amount)::bigint AS amount FROM claimed GROUP BY game_code, username
        ), locked AS (
          SELECT a.game_code, a.username FROM sandbox_game_accounts a JOIN delta d USING (game_code, username)
          ORDER BY a.game_code, a.username FOR NO KEY UPDATE OF a
        ), upd AS (
          UPDATE sandbox_game_accounts a SET balance = a.balance + d.amount
          FROM delta d JOIN locked l USING (game_code, username) WHERE a.game_code = d.game_code AND a.username = d.username
          RETURNING a.game_code, a.username, a.balance
        )
        SELECT upd.game_code, upd.username, upd.balance, claimed.ref FROM upd JOIN claimed USING (game_code, username)`.execute(this.db);
    } catch (error) {
      // One account would go below zero (or, not expected with ordered locks, a deadlock victim
      // that wrote nothing): each on its own finds whose.
      const code = (error as { code?: string }).code;
      if (code === '23514' || code === '40P01') return oneByOne(items, (t) => this.one(t));
      throw error;
    }
    const applied = new Map(rows.rows.map((r) => [`${r.game_code}\n${r.ref ?? ''}`, Number(r.balance)]));
    return items.map((t) => ({ ok: true, value: applied.get(`${t.code}\n${t.ref}`) ?? null }));
  }
}

class SandboxGameProvider implements GameProvider {
  async rounds(cursor: string | null, limit: number): Promise<GameRound[]> {
    const rows = await this.db
      .selectFrom('sandbox_game_rounds')
      .selectAll()
      .where('game_code', '=', this.code)
      .where('seq', '>', cursor ?? '0')
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ roundId: r.round_id, username: r.username, stake: Number(r.stake), win: Number(r.win), settledAt: r.settled_at, cursor: String(r.seq) }));
  }

  constructor(
    readonly code: string,
    private readonly db: Kysely<DB>,
    private readonly ledger: SandboxTransfers,
    private readonly fault: () => Fault,
    private readonly hangMs: number,
  ) {}

  private async enter(): Promise<Fault> {
    const fault = this.fault();
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.mode === 'down') throw new ProviderError('unreachable', `${this.code} is down`);
    return fault;
  }

  async openAccount(memberId: string): Promise<GameCredentials> {
    await this.enter();
    const username = `${this.code.toLowerCase().slice(0, 4)}${memberId.slice(-8)}${randomBytes(2).toString('hex')}`;
    const password = newPassword();
    await this.db.insertInto('sandbox_game_accounts').values({ game_code: this.code, username, password }).execute();
    return { username, password };
  }

  async balance(username: string): Promise<number> {
    await this.enter();
    const row = await this.db.selectFrom('sandbox_game_accounts').select('balance').where('game_code', '=', this.code).where('username', '=', username).executeTakeFirst();
    if (!row) throw new ProviderError('rejected', `${this.code}: no account ${username}`);
    return Number(row.balance);
  }

  async transfer(direction: TransferDirection, username: string, amount: number, ref: string): Promise<{ balance: number }> {
    const fault = await this.enter();
    if (fault.mode === 'timeout') {
      // A slow provider: it applies the transfer after the caller has given up, unless the
      // caller has asked about the reference in the meantime (then it refuses it).
      await sleep(this.hangMs);
      await this.apply(direction, username, amount, ref).catch(() => undefined);
      throw new ProviderError('unknown', `${this.code} answered too late`);
    }
    const result = await this.apply(direction, username, amount, ref);
    if (fault.mode === 'error-after-take') throw new ProviderError('unknown', `${this.code} failed after applying ${ref}`);
    return result;
  }

  private async apply(direction: TransferDirection, username: string, amount: number, ref: string): Promise<{ balance: number }> {
    let applied: Applied;
    try {
      applied = await this.ledger.apply({ code: this.code, username, delta: direction === 'in' ? amount : -amount, ref });
    } catch (error) {
      if (error instanceof InsufficientGameBalance) throw new ProviderError('rejected', `${this.code}: insufficient game balance`);
      throw error;
    }
    if (applied !== null) return { balance: applied };
    // Nothing applied: the reference was seen before, or there is no such account.
    const seen = await this.db.selectFrom('sandbox_game_transfers').select(['state', 'username']).where('game_code', '=', this.code).where('ref', '=', ref).executeTakeFirst();
    if (seen?.state === 'applied' && seen.username === username) return { balance: await this.balance(username) };
    throw new ProviderError('rejected', seen ? `${this.code}: reference ${ref} refused` : `${this.code}: no account ${username}`);
  }

  async resetPassword(username: string): Promise<GameCredentials> {
    await this.enter();
    const password = newPassword();
    const result = await this.db
      .updateTable('sandbox_game_accounts')
      .set({ password })
      .where('game_code', '=', this.code)
      .where('username', '=', username)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new ProviderError('rejected', `${this.code}: no account ${username}`);
    return { username, password };
  }

  async launch(credentials: GameCredentials): Promise<LaunchTarget> {
    await this.enter();
    const row = await this.db
      .selectFrom('sandbox_game_accounts')
      .select('password')
      .where('game_code', '=', this.code)
      .where('username', '=', credentials.username)
      .executeTakeFirst();
    if (!row || row.password !== credentials.password) throw new ProviderError('rejected', `${this.code}: login refused`);
    if (this.code === FORM_EVENT_GAME) {
      return {
        link: `/sandbox/games/${this.code}/login`,
        event: { action: `/sandbox/games/${this.code}/login`, method: 'POST', fields: { username: credentials.username, password: credentials.password } },
      };
    }
    const token = randomBytes(24).toString('base64url');
    await this.db
      .insertInto('sandbox_game_sessions')
      .values({ token, game_code: this.code, username: credentials.username, expires_at: new Date(Date.now() + 2 * 3_600_000) })
      .execute();
    return { link: `/sandbox/games/${this.code}/play?t=${token}` };
  }

  async lookupTransfer(ref: string): Promise<'applied' | 'absent'> {
    await this.enter();
    // Asking about a reference burns it if it was never applied.
    await this.db
      .insertInto('sandbox_game_transfers')
      .values({ game_code: this.code, ref, username: '', amount: 0, state: 'refused' })
      .onConflict((oc) => oc.columns(['game_code', 'ref']).doNothing())
      .execute();
    const row = await this.db.selectFrom('sandbox_game_transfers').select('state').where('game_code', '=', this.code).where('ref', '=', ref).executeTakeFirstOrThrow();
    return row.state === 'applied' ? 'applied' : 'absent';
  }
}

function newPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
