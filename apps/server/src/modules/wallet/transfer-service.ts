import type { Kysely } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import { MIN_TRANSFER } from '@mw/contract/currency-figures';
import { toBaht } from '@mw/contract/money';
import type { MoneyResult } from '@mw/contract/wallet';
import { AppError, badRequest } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { answerFrom, answerOf } from '../../money';
import type { MoneyCore } from '../../money';
import type { MoneyLeaving } from '../../money';
import { derive, isDuplicateKey, KeyTaken, type Idem } from '../../money';
import { account, InsufficientFunds, ledgerCurrency, type Currency } from '../../money';
import type { OperationRow } from '../../money';
import { ProviderError } from '../../providers/games/game-provider';
import type { GameService } from './game-service';
import type { WalletDb } from './tables';

interface GameLogin {
  code: string;
  username: string;
}

/** The smallest transfer per currency (minor units): ฿1 and ₭1,000 (TRANSFER_MIN_BAHT, TRANSFER_MIN_LAK). */
export const DEFAULT_TRANSFER_MINIMUMS: Record<Currency, number> = { THB: MIN_TRANSFER.BAHT * 100, LAK: MIN_TRANSFER.LAK * 100 };

/**
 * Transfers between the wallet and game accounts, each one ledger transaction (money/operations.ts
 * `settlement`): a PENDING operation is recorded (with the wallet's money when it goes to a game),
 * then the provider is asked; its answer completes or ends the operation. When the answer is unknown (timeout, error after sending)
 * the provider is asked about the reference; if that fails too, the operation stays PENDING and
 * the reconciler settles it. Never lost, never doubled.
 */
export class TransferService {
  constructor(
    private readonly db: Kysely<WalletDb>,
    private readonly games: GameService,
    private readonly money: MoneyCore,
    private readonly minimums: Record<Currency, number> = DEFAULT_TRANSFER_MINIMUMS,
  ) {}

  /** The smallest transfer of this currency (minor units). */
  minimum(currency: Currency): number {
    return this.minimums[currency];
  }

  /** Members' currencies, read once: a member's currency is fixed when the member registers (nothing changes it). */
  private readonly currencies = new Map<string, Currency>();

  private async currencyOf(memberId: string): Promise<Currency> {
    const known = this.currencies.get(memberId);
    if (known) return known;
    const row = await this.db.selectFrom('member_view as members').select('currency').where('id', '=', memberId).executeTakeFirst();
    if (!row) return ledgerCurrency('BAHT');
    const currency = ledgerCurrency(row.currency);
    if (this.currencies.size >= 100_000) this.currencies.clear();
    this.currencies.set(memberId, currency);
    return currency;
  }

  /**
   * One transfer, once per Idempotency-Key (MoneyCore.once). A retried key is noticed when
   * recording (the key is unique), not by an extra read first. Game to game is two transfers,
   * out to the wallet and in to the other game, each once-only under its own derived key.
   */
  transfer(memberId: string, from: string, to: string, amount: number, idem: Idem | null, purpose?: MoneyLeaving['purpose']): Promise<MoneyResult> {
    return this.money.once(memberId, idem, async () => {
      // The minimum of the member's currency (₭1,000 for a kip member, never ฿1 read as kip).
      const currency = await this.currencyOf(memberId);
      const minimum = this.minimums[currency];
      if (amount < minimum) throw badRequest('TRANSFER_MINIMUM', { minimum: toBaht(minimum), currency });
      if (from === to) throw badRequest('TRANSFER_SAME_ACCOUNT');
      // A seamless game takes no money of its own: its bets take the wallet's as they are made.
      // (Out of it is allowed: a balance left from before the game became seamless comes home.)
      if (this.games.isSeamless(to)) throw badRequest('TRANSFER_SEAMLESS');
      if (from !== WALLET_CODE && to !== WALLET_CODE) {
        // The second leg records under the call's own key, so the key names what the call did.
        await this.transfer(memberId, from, WALLET_CODE, amount, derive(idem, 'out'));
        return this.transfer(memberId, WALLET_CODE, to, amount, idem);
      }
      const code = from === WALLET_CODE ? to : from;
      const game = { code, username: await this.games.gameUsername(memberId, code) };
      await this.money.policies.check({ memberId, action: 'transfer', from, to, amount, ...(purpose ? { purpose } : {}) });
      return from === WALLET_CODE ? this.toGame(memberId, game, amount, idem) : this.fromGame(memberId, game, amount, idem);
    });
  }

  private async toGame(memberId: string, game: GameLogin, amount: number, idem: Idem | null): Promise<MoneyResult> {
    // The money leaves the wallet for the game account when the transfer starts (one ledger
    // transaction): the answer is the balances that posting left.
    const op = await this.start(memberId, WALLET_CODE, game.code, amount, idem);
    const settled = await this.complete(op.row, game);
    return this.answer(settled.op, op.balances.get(account.wallet(memberId)), op.balances.get(account.game(memberId, game.code)), settled.balances !== null);
  }

  private async fromGame(memberId: string, game: GameLogin, amount: number, idem: Idem | null): Promise<MoneyResult> {
    // The player may have won or lost since the last look: book the live balance first.
    await this.games.sync(memberId, game).catch(() => undefined);
    // The money moves when the provider has paid it out: the answer is the balances of that posting.
    const op = await this.start(memberId, game.code, WALLET_CODE, amount, idem);
    const settled = await this.complete(op.row, game);
    return this.answer(settled.op, settled.balances?.get(account.wallet(memberId)), settled.balances?.get(account.game(memberId, game.code)), settled.balances !== null);
  }

  /** The call's answer from the balances its statements returned; read back when another settled it. */
  private async answer(op: OperationRow, wallet: number | undefined, game: number | undefined, settledHere: boolean): Promise<MoneyResult> {
    return settledHere ? answerFrom(op, wallet, game) : answerOf(this.db, op);
  }

  /** Records the PENDING operation under its key (and, for a transfer to a game, its money), in one statement. */
  private async start(memberId: string, source: string, target: string, amount: number, idem: Idem | null): Promise<{ row: OperationRow; balances: Map<string, number> }> {
    const row: OperationRow = { id: newId(), member_id: memberId, type: 'transfer', status: 'PENDING', source, target, amount, note: null };
    let balances;
    try {
      balances = await this.money.transfers.start({ op: { id: row.id, memberId, type: 'transfer', status: 'PENDING', source, target, amount }, idem });
    } catch (error) {
      if (isDuplicateKey(error)) throw new KeyTaken();
      if (error instanceof InsufficientFunds) throw badRequest('MONEY_NOT_ENOUGH');
      throw error;
    }
    return { row, balances };
  }

  /** Asks the provider and settles; a transfer that failed answers TRANSFER_FAIL (money returned). */
  private async complete(op: OperationRow, game: GameLogin): Promise<{ op: OperationRow; balances: Map<string, number> | null }> {
    const provider = this.games.provider(game.code);
    const direction = op.source === WALLET_CODE ? 'in' : 'out';
    let outcome: 'applied' | 'absent';
    try {
      await provider.transfer(direction, game.username, op.amount, op.id);
      outcome = 'applied';
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.kind === 'unknown') {
        try {
          outcome = await provider.lookupTransfer(op.id);
        } catch {
          throw new AppError(504, 'TRANSFER_PENDING', { reference: op.id });
        }
      } else {
        outcome = 'absent';
      }
    }
    const { status, balances } = await this.money.transfers.settle(op, outcome);
    if (status === 'FAILED') throw new AppError(502, 'TRANSFER_FAIL', { reference: op.id });
    return { op: { ...op, status, note: null }, balances };
  }

  /**
   * Settles transfers left PENDING (a crash, a provider that did not answer) by asking their
   * provider. Only operations older than `graceMs` are touched, so requests still running in any
   * server process are left alone. Answers how many were settled.
   */
  async reconcile(graceMs: number): Promise<number> {
    const pending = await this.db
      .selectFrom('operation_view as operations')
      .select(['id', 'member_id', 'type', 'status', 'source', 'target', 'amount', 'note'])
      .where('status', '=', 'PENDING')
      .where('type', '=', 'transfer')
      .where('created_at', '<', new Date(Date.now() - graceMs))
      .orderBy('created_at')
      .limit(500)
      .execute();
    let settled = 0;
    for (const row of pending) {
      const op = { ...row, amount: Number(row.amount) };
      const code = op.source === WALLET_CODE ? op.target : op.source;
      try {
        const outcome = await this.games.provider(code).lookupTransfer(op.id);
        await this.money.settleTransfer(this.db, op, outcome);
        settled += 1;
      } catch {
        // provider still unreachable: try again next round
      }
    }
    return settled;
  }
}
