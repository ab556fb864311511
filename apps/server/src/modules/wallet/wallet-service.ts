import { sql, type Kysely } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import { toBaht } from '@mw/contract/money';
import type { MoneyResult, WalletResponse } from '@mw/contract/wallet';
import type { DB } from '../../db/schema';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { account, balances, InsufficientFunds, openMemberAccounts, runPosting } from '../../ledger/ledger';
import type { AccountService } from '../account/account-service';
import type { SettingsService } from '../settings/settings-service';
import type { GameService } from './game-service';
import { derive, isDuplicateKey, priorOperation, recordOperation, type Idem, type OperationRow } from './operations';
import type { TransferService } from './transfer-service';

/** Largest demo top-up in one call: 100,000 baht. */
const MAX_TOP_UP_SATANG = 10_000_000;

/**
 * The wallet: its balance, demo top-ups, withdrawals (held until an operator completes or
 * rejects them), and the calls that move everything at once.
 */
export class WalletService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly accounts: AccountService,
    private readonly games: GameService,
    private readonly transfers: TransferService,
    private readonly settings: SettingsService,
    private readonly sandboxPayments: boolean,
  ) {}

  async balance(memberId: string): Promise<number> {
    const id = account.wallet(memberId);
    let found = (await balances(this.db, [id])).get(id);
    if (!found) {
      await openMemberAccounts(this.db, memberId);
      found = (await balances(this.db, [id])).get(id);
    }
    return found?.balance ?? 0;
  }

  async wallet(memberId: string): Promise<WalletResponse> {
    const [profile, amount, slots] = await Promise.all([this.accounts.profile(memberId), this.balance(memberId), this.games.accounts(memberId)]);
    return {
      profile: { name: profile.name, _id: profile._id, createdAt: profile.createdAt, username: profile.username, coin: profile.coin },
      bankAccount: {
        bankCode: profile.bankCode,
        bankAccountName: profile.bankAccountName,
        bankAccountNo: profile.bankAccountNo,
        bank: profile.bank ? { nameTH: profile.bank.nameTH, nameEN: profile.bank.nameEN } : null,
      },
      wallet: { amount: toBaht(amount) },
      invite: { amount: 0, success: 0, fail: 0 },
      slots,
    };
  }

  /** The answer of a money call; the wallet balance is read unless the call already knows it. */
  async result(memberId: string, op: OperationRow, game?: { code: string; amount: number }, walletBalance?: number): Promise<MoneyResult> {
    const balance = walletBalance ?? (await this.balance(memberId));
    const result: MoneyResult = { ok: true, wallet: { amount: toBaht(balance) }, amount: toBaht(op.amount), reference: op.id };
    if (game) result.game = { code: game.code, amount: toBaht(game.amount) };
    return result;
  }

  /** Demo top-up (sandbox payments only): recorded as a deposit from SANDBOX. */
  async add(memberId: string, amount: number, idem: Idem | null): Promise<MoneyResult> {
    if (!this.sandboxPayments) throw forbidden('SANDBOX_ONLY');
    const prior = await priorOperation(this.db, memberId, idem);
    if (prior) return this.result(memberId, prior);
    if (amount < 100) throw badRequest('DEPOSIT_MINIMUM', { minimum: 1 });
    if (amount > MAX_TOP_UP_SATANG) throw badRequest('KEY_INVALID', { maximum: toBaht(MAX_TOP_UP_SATANG) });
    await openMemberAccounts(this.db, memberId);
    const op: OperationRow = { id: newId(), member_id: memberId, type: 'deposit', status: 'SUCCESS', source: 'SANDBOX', target: WALLET_CODE, amount, note: null };
    return this.record(op, idem, [{ account: account.deposits, amount: -amount }, { account: account.wallet(memberId), amount }], 'deposit');
  }

  /** Withdrawal: the amount leaves the wallet for a hold, PENDING until an operator acts. */
  async withdraw(memberId: string, amount: number, idem: Idem | null): Promise<MoneyResult> {
    const prior = await priorOperation(this.db, memberId, idem);
    if (prior) return this.result(memberId, prior);
    const limits = await this.settings.get('withdrawLimits', { withdrawMinSatang: 10_000, withdrawMaxSatang: 5_000_000 });
    if (amount < limits.withdrawMinSatang) throw badRequest('WITHDRAW_MINIMUM', { withdrawMin: toBaht(limits.withdrawMinSatang) });
    if (amount > limits.withdrawMaxSatang) throw badRequest('WITHDRAW_MAXIMUM', { withdrawMax: toBaht(limits.withdrawMaxSatang) });
    const profile = await this.accounts.profile(memberId);
    const op: OperationRow = {
      id: newId(),
      member_id: memberId,
      type: 'withdraw',
      status: 'PENDING',
      source: WALLET_CODE,
      target: `${profile.bankCode} ${profile.bankAccountNo}`,
      amount,
      note: null,
    };
    return this.record(op, idem, [{ account: account.wallet(memberId), amount: -amount }, { account: account.withdrawal(memberId), amount }], 'withdraw_hold');
  }

  /** The withdraw modal's call: brings every game balance home, then withdraws the amount. */
  async withdrawAll(memberId: string, amount: number, idem: Idem | null): Promise<MoneyResult> {
    const prior = await priorOperation(this.db, memberId, idem);
    if (prior) return this.result(memberId, prior);
    await this.collect(memberId, idem);
    return this.withdraw(memberId, amount, idem);
  }

  /** transferAll: the whole wallet into one game, or (to WALLET) every game balance into the wallet. */
  async transferAll(memberId: string, to: string, idem: Idem | null): Promise<MoneyResult> {
    if (to === WALLET_CODE) {
      const last = await this.collect(memberId, idem);
      if (!last) throw badRequest('MONEY_NOT_ENOUGH');
      return this.result(memberId, last);
    }
    const prior = await priorOperation(this.db, memberId, idem);
    if (prior) return this.result(memberId, prior);
    const amount = await this.balance(memberId);
    if (amount <= 0) throw badRequest('MONEY_NOT_ENOUGH');
    const outcome = await this.transfers.transfer(memberId, WALLET_CODE, to, amount, idem);
    return this.result(memberId, outcome.operation, outcome.game, outcome.wallet);
  }

  /** Moves every positive game balance to the wallet; a failing provider is skipped. */
  private async collect(memberId: string, idem: Idem | null): Promise<OperationRow | null> {
    const live = await this.games.refreshAll(memberId);
    let last: OperationRow | null = null;
    for (const [code, balance] of live) {
      if (balance < 100) continue;
      try {
        last = (await this.transfers.transfer(memberId, code, WALLET_CODE, balance, derive(idem, code))).operation;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    return last;
  }

  private async record(op: OperationRow, idem: Idem | null, postings: Array<{ account: string; amount: number }>, kind: string): Promise<MoneyResult> {
    try {
      await runPosting(this.db, { kind, operationId: op.id, postings }, {
        before: recordOperation({ id: op.id, memberId: op.member_id, type: op.type, status: op.status, source: op.source, target: op.target, amount: op.amount }, idem),
      });
    } catch (error) {
      if (error instanceof InsufficientFunds) throw badRequest('MONEY_NOT_ENOUGH');
      if (isDuplicateKey(error)) {
        const prior = await priorOperation(this.db, op.member_id, idem);
        if (prior) return this.result(op.member_id, prior);
      }
      throw error;
    }
    return this.result(op.member_id, op);
  }

  /** Operator: the bank transfer went out; the held money leaves the system. */
  async completeWithdrawal(operationId: string): Promise<OperationRow> {
    return this.settleWithdrawal(operationId, 'SUCCESS', null);
  }

  /** Operator: the withdrawal is refused; the held money goes back to the wallet. */
  async rejectWithdrawal(operationId: string, note: string): Promise<OperationRow> {
    return this.settleWithdrawal(operationId, 'FAILED', note);
  }

  private async settleWithdrawal(operationId: string, status: 'SUCCESS' | 'FAILED', note: string | null): Promise<OperationRow> {
    const op = await this.db.selectFrom('operations').selectAll().where('id', '=', operationId).where('type', '=', 'withdraw').executeTakeFirst();
    if (!op || op.status !== 'PENDING') throw notFound('NO_OPERATION');
    const member = op.member_id;
    const amount = Number(op.amount);
    const destination = status === 'SUCCESS' ? account.withdrawals : account.wallet(member);
    const done = await runPosting(
      this.db,
      { kind: status === 'SUCCESS' ? 'withdraw_complete' : 'withdraw_reject', operationId, postings: [{ account: account.withdrawal(member), amount: -amount }, { account: destination, amount }] },
      {
        before: [sql`settled AS (UPDATE operations SET status = ${status}, note = ${note}, updated_at = now() WHERE id = ${operationId} AND status = 'PENDING' RETURNING id)`],
        guard: 'settled',
      },
    );
    if (!done) throw notFound('NO_OPERATION');
    return { id: op.id, member_id: member, type: op.type, status, source: op.source, target: op.target, amount, note };
  }
}
