import type { Kysely } from 'kysely';
import type { GameAccount, GameLogin } from '@mw/contract/wallet';
import { toBaht } from '@mw/contract/money';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { account, balances, memberCurrency, type AccountId, type MoneyCore } from '../../money';
import { CATALOGUE } from '../../providers/games/catalogue';
import { ProviderError, type GameProvider, type LaunchTarget, type ProviderTransfer } from '../../providers/games/game-provider';
import type { WalletDb } from './tables';

export interface GameRow {
  code: string;
  name: string;
  logo: string;
  background: string;
  category: 'slot' | 'sport' | 'lotto';
  ft_wallet_slot: string;
  web: string | null;
  android: string | null;
  ios: string | null;
}

export interface MemberGame {
  code: string;
  username: string;
  password: string;
}

/**
 * A member's game accounts: the catalogue, opening an account at a provider, its credentials,
 * launching, and keeping the ledger's copy of each game balance in step with the provider
 * (wins and losses happen on the provider's side).
 */
const CATALOGUE_TTL_MS = 10_000;

/** Asks the aggregator of a seamless game for its transactions in [from, to), in the transfer report's shape (null: no answer). */
export type SeamlessReports = (code: string, from: Date, to: Date) => Promise<ProviderTransfer[] | null>;

export class GameService {
  private cachedCatalogue: { rows: GameRow[]; at: number } | null = null;
  /** Games whose aggregator calls our seamless API (SEAMLESS_SECRETS): no balance of their own, no transfers. */
  private seamless: ReadonlySet<string> = new Set();
  private readonly usernames = new Map<string, string>();

  constructor(
    private readonly db: Kysely<WalletDb>,
    private readonly providers: (code: string) => GameProvider,
    private readonly box: SecretBox,
    /** The money core's door for game accounts: opening one, booking a game's result. */
    private readonly money: Pick<MoneyCore, 'openGame' | 'bookGame' | 'gameCopy'>,
  ) {}

  private seamlessReports: SeamlessReports | null = null;

  /** The seamless games (the seamless module names them as it sets up), and how their aggregator's report is asked. */
  markSeamless(codes: Iterable<string>, reports: SeamlessReports | null = null): void {
    this.seamless = new Set(codes);
    this.seamlessReports = reports;
  }

  /** The aggregator's report of a seamless game's transactions (null: it cannot be asked). */
  async seamlessReport(code: string, from: Date, to: Date): Promise<ProviderTransfer[] | null> {
    return this.seamlessReports ? this.seamlessReports(code, from, to) : null;
  }

  isSeamless(code: string): boolean {
    return this.seamless.has(code);
  }

  provider(code: string): GameProvider {
    return this.providers(code);
  }

  /** The active catalogue, read at most every CATALOGUE_TTL_MS (operators change it rarely). */
  async catalogue(): Promise<GameRow[]> {
    const now = Date.now();
    if (!this.cachedCatalogue || now - this.cachedCatalogue.at > CATALOGUE_TTL_MS) {
      const rows = await this.db.selectFrom('games').selectAll().where('active', '=', true).orderBy('sort').orderBy('code').execute();
      this.cachedCatalogue = { rows, at: now };
    }
    return this.cachedCatalogue.rows;
  }

  /** A game's category, active or not (null: no such game). */
  async category(code: string): Promise<string | null> {
    const row = await this.db.selectFrom('games').select('category').where('code', '=', code).executeTakeFirst();
    return row?.category ?? null;
  }

  /** A catalogue game by code, or NO_GAME. */
  async game(code: string): Promise<GameRow> {
    const game = (await this.catalogue()).find((g) => g.code === code);
    if (!game) throw notFound('NO_GAME');
    return game;
  }

  /** Who holds a username at a game (a provider's call names the player by it), or null. */
  async memberByUsername(code: string, username: string): Promise<string | null> {
    const row = await this.db.selectFrom('member_games').select('member_id').where('game_code', '=', code).where('username', '=', username).executeTakeFirst();
    return row?.member_id ?? null;
  }

  /**
   * The member's username at a game (SLOT_NO_ACCOUNT without an account). A username never
   * changes once the account is open, so it is remembered in memory.
   */
  async gameUsername(memberId: string, code: string): Promise<string> {
    await this.game(code);
    const key = `${memberId}:${code}`;
    const known = this.usernames.get(key);
    if (known) return known;
    const row = await this.db.selectFrom('member_games').select('username').where('member_id', '=', memberId).where('game_code', '=', code).executeTakeFirst();
    if (!row) throw notFound('SLOT_NO_ACCOUNT');
    if (this.usernames.size > 100_000) this.usernames.clear();
    this.usernames.set(key, row.username);
    return row.username;
  }

  async memberGames(memberId: string): Promise<MemberGame[]> {
    const rows = await this.db.selectFrom('member_games').select(['game_code', 'username', 'password_enc']).where('member_id', '=', memberId).execute();
    return rows.map((r) => ({ code: r.game_code, username: r.username, password: this.box.open(r.password_enc) }));
  }

  /** The member's account at a game, or SLOT_NO_ACCOUNT (NO_GAME for an unknown game). */
  async memberGame(memberId: string, code: string): Promise<MemberGame> {
    await this.game(code);
    const row = await this.db
      .selectFrom('member_games')
      .select(['game_code', 'username', 'password_enc'])
      .where('member_id', '=', memberId)
      .where('game_code', '=', code)
      .executeTakeFirst();
    if (!row) throw notFound('SLOT_NO_ACCOUNT');
    return { code: row.game_code, username: row.username, password: this.box.open(row.password_enc) };
  }

  /** Game accounts as the wallet shows them: every catalogue game, active or not, with its balance. */
  async accounts(memberId: string, fresh?: Map<string, number>): Promise<GameAccount[]> {
    return (await this.accountsWith(memberId, [], fresh)).slots;
  }

  /**
   * The member's game accounts and the balances of `also` (other ledger accounts of the member),
   * read in the same statement as the game balances: the wallet read asks for its own balance so.
   */
  async accountsWith(
    memberId: string,
    also: AccountId[],
    fresh?: Map<string, number>,
  ): Promise<{ slots: GameAccount[]; balances: Map<AccountId, { balance: number }> }> {
    const [games, mine] = await Promise.all([this.catalogue(), this.memberGames(memberId)]);
    const owned = new Set(mine.map((g) => g.code));
    const known = await balances(this.db, [...also, ...mine.map((g) => account.game(memberId, g.code))]);
    const slots = games.map((g) => {
      const balance = fresh?.get(g.code) ?? known.get(account.game(memberId, g.code))?.balance ?? 0;
      return {
        code: g.code,
        name: g.name,
        logo: g.logo,
        background: g.background,
        category: g.category,
        isActive: owned.has(g.code),
        amount: owned.has(g.code) ? toBaht(balance) : 0,
        ftWalletSlot: Number(g.ft_wallet_slot),
        ...(this.seamless.has(g.code) ? { seamless: true } : {}),
        web: g.web,
        android: g.android,
        ios: g.ios,
      };
    });
    return { slots, balances: known };
  }

  async activate(memberId: string, code: string): Promise<GameAccount> {
    await this.game(code);
    const existing = await this.db.selectFrom('member_games').select('game_code').where('member_id', '=', memberId).where('game_code', '=', code).executeTakeFirst();
    if (existing) throw conflict('SLOT_ALREADY_ACTIVE');
    let credentials;
    try {
      credentials = await this.providers(code).openAccount(memberId, await memberCurrency(this.db, memberId));
    } catch (error) {
      if (error instanceof ProviderError) throw new AppError(502, 'GAME_ACTIVATION_FAIL');
      throw error;
    }
    const inserted = await this.db
      .insertInto('member_games')
      .values({ member_id: memberId, game_code: code, username: credentials.username, password_enc: this.box.seal(credentials.password) })
      .onConflict((oc) => oc.columns(['member_id', 'game_code']).doNothing())
      .executeTakeFirst();
    // A parallel activation won the race; the account it opened is the member's.
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw conflict('SLOT_ALREADY_ACTIVE');
    await this.money.openGame(this.db, memberId, code);
    const all = await this.accounts(memberId);
    const activated = all.find((g) => g.code === code);
    if (!activated) throw notFound('NO_GAME');
    return activated;
  }

  async credentials(memberId: string, code: string): Promise<GameLogin> {
    const game = await this.memberGame(memberId, code);
    const login: GameLogin = { username: game.username, password: game.password };
    // The provider that logs in by a form-state event gives it with the credentials.
    if (CATALOGUE.find((g) => g.code === code)?.launch === 'event') {
      const target = await this.launch(memberId, code, game.username);
      if (target.event) login.event = target.event;
    }
    return login;
  }

  async resetPassword(memberId: string, code: string): Promise<GameLogin> {
    const game = await this.memberGame(memberId, code);
    let credentials;
    try {
      credentials = await this.providers(code).resetPassword(game.username);
    } catch (error) {
      if (error instanceof ProviderError) throw new AppError(502, 'SLOT_RESET_PASSWORD_FAIL');
      throw error;
    }
    await this.db
      .updateTable('member_games')
      .set({ password_enc: this.box.seal(credentials.password), updated_at: new Date() })
      .where('member_id', '=', memberId)
      .where('game_code', '=', code)
      .execute();
    return this.credentials(memberId, code);
  }

  /** A launch link for the member's own account at a game (checked by username, and password when given). */
  async launch(memberId: string, code: string, username: string, password?: string, returnUrl?: string): Promise<LaunchTarget> {
    const game = await this.memberGame(memberId, code);
    if (game.username !== username || (password !== undefined && game.password !== password)) throw notFound('SLOT_NO_ACCOUNT');
    try {
      return await this.providers(code).launch({ username: game.username, password: game.password }, returnUrl);
    } catch (error) {
      if (error instanceof ProviderError) throw new AppError(502, 'GAME_ACTIVATION_FAIL');
      throw error;
    }
  }

  /**
   * Reads a game balance from the provider and books the difference to the ledger's copy as a
   * game result (against the provider's system account). The booking is skipped when the copy
   * changed while the provider was asked, or while a transfer of that game is in flight: the next
   * refresh books it then. Answers the provider's balance.
   */
  async sync(memberId: string, game: { code: string; username: string }): Promise<number> {
    let before = await this.money.gameCopy(this.db, memberId, game.code);
    if (!before) {
      // An activation cut off between the provider's account and the ledger's: open it now.
      await this.money.openGame(this.db, memberId, game.code);
      before = await this.money.gameCopy(this.db, memberId, game.code);
      if (!before) throw new Error(`ledger account ${account.game(memberId, game.code)} missing`);
    }
    const live = await this.providers(game.code).balance(game.username);
    // A read that began while a transfer of this game was pending may have overtaken it at the
    // provider (money on our books and not yet at theirs): the next read books the result.
    if (before.transferPending) return live;
    const delta = live - before.balance;
    if (delta === 0) return live;
    await this.money.bookGame(this.db, memberId, game.code, before, delta);
    return live;
  }

  /** Adds catalogue entries that are missing (an operator's changes stay). */
  async seedCatalogue(rows: Array<Omit<GameRow, 'ft_wallet_slot'> & { ft_wallet_slot: number; sort: number }>): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('games').values(rows).onConflict((oc) => oc.column('code').doNothing()).execute();
    this.cachedCatalogue = null;
  }

  /** Refreshes every game of the member in parallel; a slow or failing provider keeps its last balance. */
  async refreshAll(memberId: string): Promise<Map<string, number>> {
    const games = await this.memberGames(memberId);
    const results = await Promise.allSettled(games.map(async (g) => [g.code, await this.sync(memberId, g)] as const));
    const fresh = new Map<string, number>();
    for (const r of results) if (r.status === 'fulfilled') fresh.set(r.value[0], r.value[1]);
    return fresh;
  }
}
