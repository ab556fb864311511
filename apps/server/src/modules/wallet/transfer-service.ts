import type { Kysely } from 'kysely';
import { MIN_TRANSFER_BAHT, WALLET_CODE } from '@mw/contract/constants';
import type { DB } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { account, balances, InsufficientFunds } from '../../ledger/ledger';
import { ProviderError } from '../../providers/games/game-provider';
import type { GameService } from './game-service';

interface GameLogin {
  code: string;
  username: string;
}
import { isDuplicateKey, priorOperation, settleTransfer, TransferPostings, type Idem, type OperationRow } from './operations';

export interface TransferOutcome {
  operation: OperationRow;
  /** The game account's balance after the call, when this call settled it. */
  game?: { code: string; amount: number };
  /** The wallet balance after the call, when this call knows it. */
  wallet?: number;
}

const MIN_TRANSFER_SATANG = MIN_TRANSFER_BAHT * 100;

/**
 * Transfers between the wallet and game accounts. Money leaving for a provider is held in the
 * member's in-flight account first (a PENDING operation), then the provider is asked; its answer
 * completes or reverses the operation. When the answer is unknown (timeout, error after sending)
 * the provider is asked about the reference; if that fails too, the operation stays PENDING and
 * the reconciler settles it. Never lost, never doubled.
 */
export class TransferService {
  private readonly postings: TransferPostings;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly games: GameService,
  ) {
    this.postings = new TransferPostings(db);
  }

  async transfer(memberId: string, from: string, to: string, amount: number, idem: Idem | null): Promise<TransferOutcome> {
    // A retried key is noticed when recording (the key is unique), not by an extra read first.
    if (amount < MIN_TRANSFER_SATANG) throw badRequest('TRANSFER_MINIMUM', { minimum: MIN_TRANSFER_BAHT });
    if (from === to) throw badRequest('TRANSFER_SAME_ACCOUNT');
    if (from !== WALLET_CODE && to !== WALLET_CODE) {
      // Game to game: out to the wallet, then in to the other game; each step on its own.
      await this.transfer(memberId, from, WALLET_CODE, amount, idem ? { key: `${idem.key}:out`, hash: idem.hash } : null);
      return this.transfer(memberId, WALLET_CODE, to, amount, idem ? { key: `${idem.key}:in`, hash: idem.hash } : null);
    }
    const code = from === WALLET_CODE ? to : from;
    const game = { code, username: await this.games.gameUsername(memberId, code) };
    return from === WALLET_CODE ? this.toGame(memberId, game, amount, idem) : this.fromGame(memberId, game, amount, idem);
  }

  private async toGame(memberId: string, game: GameLogin, amount: number, idem: Idem | null): Promise<TransferOutcome> {
    const op = await this.start(memberId, WALLET_CODE, game.code, amount, idem, account.wallet(memberId));
    if ('replayed' in op) return op.replayed;
    const outcome = await this.complete(op.row, game);
    return { ...outcome, wallet: op.balances.get(account.wallet(memberId)) };
  }

  private async fromGame(memberId: string, game: GameLogin, amount: number, idem: Idem | null): Promise<TransferOutcome> {
    // The player may have won or lost since the last look: book the live balance first.
    await this.games.sync(memberId, game).catch(() => undefined);
    const op = await this.start(memberId, game.code, WALLET_CODE, amount, idem, account.game(memberId, game.code));
    if ('replayed' in op) return op.replayed;
    const outcome = await this.complete(op.row, game);
    const gameBalance = op.balances.get(account.game(memberId, game.code));
    return gameBalance === undefined ? outcome : { ...outcome, game: { code: game.code, amount: gameBalance } };
  }

  /** Records the PENDING operation and holds the money in flight, in one statement. */
  private async start(
    memberId: string,
    source: string,
    target: string,
    amount: number,
    idem: Idem | null,
    debit: string,
  ): Promise<{ row: OperationRow; balances: Map<string, number> } | { replayed: TransferOutcome }> {
    const row: OperationRow = { id: newId(), member_id: memberId, type: 'transfer', status: 'PENDING', source, target, amount, note: null };
    let balances;
    try {
      balances = await this.postings.start({ op: { id: row.id, memberId, type: 'transfer', status: 'PENDING', source, target, amount }, idem, debit });
    } catch (error) {
      if (isDuplicateKey(error) || (error instanceof InsufficientFunds && idem)) {
        const prior = await priorOperation(this.db, memberId, idem);
        if (prior) return { replayed: await this.replay(prior) };
      }
      if (error instanceof InsufficientFunds) throw badRequest('MONEY_NOT_ENOUGH');
      throw error;
    }
    return { row, balances };
  }

  /** Asks the provider and settles. */
  private async complete(op: OperationRow, game: GameLogin): Promise<TransferOutcome> {
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
    const { status, balances } = await this.postings.settle(op, outcome);
    const settled = { ...op, status, note: status === 'FAILED' ? 'TRANSFER_FAIL' : null };
    if (status === 'FAILED') throw new AppError(502, 'TRANSFER_FAIL', { reference: op.id });
    const gameBalance = balances?.get(account.game(op.member_id, game.code));
    const walletBalance = balances?.get(account.wallet(op.member_id));
    return {
      operation: settled,
      ...(gameBalance === undefined ? {} : { game: { code: game.code, amount: gameBalance } }),
      ...(walletBalance === undefined ? {} : { wallet: walletBalance }),
    };
  }

  /** The answer to a retry: the first request's outcome. */
  async replay(op: OperationRow): Promise<TransferOutcome> {
    if (op.status === 'SUCCESS') {
      const code = op.source === WALLET_CODE ? op.target : op.source;
      const id = account.game(op.member_id, code);
      const game = (await balances(this.db, [id])).get(id);
      return game ? { operation: op, game: { code, amount: game.balance } } : { operation: op };
    }
    if (op.status === 'FAILED') throw new AppError(502, 'TRANSFER_FAIL', { reference: op.id });
    throw new AppError(409, 'REQUEST_IN_PROGRESS', { reference: op.id });
  }

  /**
   * Settles transfers left PENDING (a crash, a provider that did not answer) by asking their
   * provider. Only operations older than `graceMs` are touched, so requests still running in any
   * server process are left alone. Answers how many were settled.
   */
  async reconcile(graceMs: number): Promise<number> {
    const pending = await this.db
      .selectFrom('operations')
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
        await settleTransfer(this.db, op, outcome);
        settled += 1;
      } catch {
        // provider still unreachable: try again next round
      }
    }
    return settled;
  }
}
