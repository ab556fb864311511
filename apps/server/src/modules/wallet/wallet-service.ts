import type { Kysely } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import { toBaht } from '@mw/contract/money';
import type { MoneyResult, WalletResponse } from '@mw/contract/wallet';
import { AppError, badRequest, forbidden } from '../../lib/errors';
import { withdrawLimitsOf } from '../../lib/withdraw-limits';
import { newId } from '../../lib/ids';
import { answerFrom } from '../../money';
import type { MoneyCore } from '../../money';
import type { MoneyLeaving } from '../../money';
import { derive, isDuplicateKey, KeyTaken, type Idem } from '../../money';
import { account, balances, InsufficientFunds, ledgerCurrency, memberCurrency, type Currency, type NewOperation, type OperationRow, type PostingKind } from '../../money';
import type { AccountService } from '../account/account-service';
import type { SettingsService } from '../settings/settings-service';
import type { GameService } from './game-service';
import type { TransferService } from './transfer-service';
import type { WalletDb } from './tables';

/** The parts of transferAll to WALLET and of withdrawAll: which game balances come home, fixed at the first execution. */
interface CollectPlan {
  parts: Array<{ code: string; amount: number }>;
}

/** Largest demo top-up in one call: 100,000 baht. */
/** The demo top-up's largest amount per currency, in minor units. */
const MAX_TOP_UP: Record<Currency, number> = { THB: 10_000_000, LAK: 1_000_000_000 };

/**
 * The wallet: its balance, demo top-ups, withdrawals (held until they are paid out or returned:
 * PayoutService), and the calls that move everything at once.
 */
export class WalletService {
  constructor(
    private readonly db: Kysely<WalletDb>,
    private readonly accounts: AccountService,
    private readonly games: GameService,
    private readonly transfers: TransferService,
    private readonly settings: SettingsService,
    private readonly money: MoneyCore,
    private readonly sandboxPayments: boolean,
  ) {}

  /** What the invite domain says a member can receive (it registers itself; zeros until it does). */
  private inviteSummary: (memberId: string) => Promise<{ amount: number; success: number; fail: number }> = () => Promise.resolve({ amount: 0, success: 0, fail: 0 });

  setInviteSummary(source: (memberId: string) => Promise<{ amount: number; success: number; fail: number }>): void {
    this.inviteSummary = source;
  }

  async balance(memberId: string): Promise<number> {
    const id = account.wallet(memberId);
    let found = (await balances(this.db, [id])).get(id);
    if (!found) {
      await this.money.openMember(this.db, memberId);
      found = (await balances(this.db, [id])).get(id);
    }
    return found?.balance ?? 0;
  }

  async wallet(memberId: string): Promise<WalletResponse> {
    const walletId = account.wallet(memberId);
    const [profile, games] = await Promise.all([this.accounts.profile(memberId), this.games.accountsWith(memberId, [walletId])]);
    const { slots } = games;
    // A member whose accounts are not open yet (registered before the ledger) gets them now.
    const amount = games.balances.get(walletId)?.balance ?? (await this.balance(memberId));
    return {
      profile: { name: profile.name, _id: profile._id, createdAt: profile.createdAt, username: profile.username, coin: profile.coin, currency: profile.currency === 'LAK' ? 'LAK' : 'BAHT' },
      bankAccount: {
        bankCode: profile.bankCode,
        bankAccountName: profile.bankAccountName,
        bankAccountNo: profile.bankAccountNo,
        bank: profile.bank ? { nameTH: profile.bank.nameTH, nameEN: profile.bank.nameEN, nameLA: profile.bank.nameLA } : null,
      },
      wallet: { amount: toBaht(amount) },
      invite: await this.inviteSummary(memberId),
      slots,
    };
  }

  /** Demo top-up (sandbox payments only): recorded as a deposit from SANDBOX. */
  add(memberId: string, amount: number, idem: Idem | null): Promise<MoneyResult> {
    return this.money.once(memberId, idem, async () => {
      if (!this.sandboxPayments) throw forbidden('SANDBOX_ONLY');
      if (amount < 100) throw badRequest('DEPOSIT_MINIMUM', { minimum: 1 });
      const currency = await memberCurrency(this.db, memberId);
      // In the member's currency: ฿100,000 or ₭10,000,000 at most (a kip member's 500,000 is ₭500,000).
      if (amount > MAX_TOP_UP[currency]) throw badRequest('KEY_INVALID', { maximum: toBaht(MAX_TOP_UP[currency]), currency });
      await this.money.openMember(this.db, memberId);
      const op: OperationRow = { id: newId(), member_id: memberId, type: 'deposit', status: 'SUCCESS', source: 'SANDBOX', target: WALLET_CODE, amount, note: null };
      const postings = [{ account: account.deposits(currency), amount: -amount }, { account: account.wallet(memberId), amount }];
      // Money asked for: the member's deposit limits and breaks (responsible play) refuse it first,
      // decided and written under the member's deposit lock (as every deposit path's credit is), so
      // that top-ups at once cannot each pass a check made before the others were written.
      const rules = this.money.policies.deposits;
      if (!rules || !(await rules.applies(memberId))) return this.record(op, idem, postings, 'deposit');
      return this.money.inTransaction(this.db, async (trx) => {
        await this.money.lockDeposits(trx, memberId);
        const refused = await rules.refusal(trx, { memberId, amount, currency, stage: 'ask' });
        if (refused) throw new AppError(403, refused.code, refused.extra);
        return this.record(op, idem, postings, 'deposit', trx);
      });
    });
  }

  /** Withdrawal: the amount leaves the wallet for a hold, PENDING until an operator acts. */
  withdraw(memberId: string, amount: number, idem: Idem | null): Promise<MoneyResult> {
    return this.money.once(memberId, idem, async () => {
      // The bounds of the member's currency: a kip member's in kip (never the baht figures read as kip).
      const currency = await memberCurrency(this.db, memberId);
      const limits = await withdrawLimitsOf(this.settings, currency);
      if (amount < limits.min) throw badRequest('WITHDRAW_MINIMUM', { withdrawMin: toBaht(limits.min), currency });
      if (amount > limits.max) throw badRequest('WITHDRAW_MAXIMUM', { withdrawMax: toBaht(limits.max), currency });
      const profile = await this.accounts.profile(memberId);
      const target = `${profile.bankCode} ${profile.bankAccountNo}`;
      await this.money.policies.check({ memberId, action: 'withdraw', from: WALLET_CODE, to: target, amount });
      const op: OperationRow = { id: newId(), member_id: memberId, type: 'withdraw', status: 'PENDING', source: WALLET_CODE, target, amount, note: null };
      return this.placeHold(op, idem);
    });
  }

  /**
   * The withdraw modal's call: brings every game balance home, then withdraws the amount. The
   * parts are fixed at the first execution; a retry runs the same parts (each once-only under
   * its own key) and answers the first definite answer.
   */
  withdrawAll(memberId: string, amount: number, idem: Idem | null): Promise<MoneyResult> {
    return this.money.composite(
      memberId,
      idem,
      () => this.collectPlan(memberId),
      async (plan) => {
        await this.collect(memberId, plan, idem);
        return this.withdraw(memberId, amount, derive(idem, 'withdraw'));
      },
    );
  }

  /** transferAll: the whole wallet into one game, or (to WALLET) every game balance into the wallet. */
  transferAll(memberId: string, to: string, idem: Idem | null): Promise<MoneyResult> {
    if (to === WALLET_CODE) {
      return this.money.composite(
        memberId,
        idem,
        () => this.collectPlan(memberId),
        async (plan) => {
          const last = await this.collect(memberId, plan, idem);
          if (!last) throw badRequest('MONEY_NOT_ENOUGH');
          return last;
        },
      );
    }
    // The amount is the wallet at the first execution: the operation records it, a retry answers it.
    return this.money.once(memberId, idem, async () => {
      const amount = await this.balance(memberId);
      if (amount <= 0) throw badRequest('MONEY_NOT_ENOUGH');
      return this.transfers.transfer(memberId, WALLET_CODE, to, amount, idem);
    });
  }

  /**
   * Brings every game balance home to the wallet for one of the server's own moves (a bonus cancel):
   * each game's live balance, moved once; a game that fails is left where it is (the caller decides
   * on what stayed out). No key: it moves what each game holds now, so running it again moves only what is still out.
   */
  async bringHome(memberId: string, purpose: NonNullable<MoneyLeaving['purpose']>): Promise<void> {
    const { parts } = await this.collectPlan(memberId);
    for (const { code, amount } of parts) {
      try {
        await this.transfers.transfer(memberId, code, WALLET_CODE, amount, null, purpose);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
  }

  /** Every positive game balance, read live from the providers (a failing provider is left out). */
  private async collectPlan(memberId: string): Promise<CollectPlan> {
    const live = await this.games.refreshAll(memberId);
    return { parts: [...live].filter(([, balance]) => balance >= 100).map(([code, amount]) => ({ code, amount })) };
  }

  /** Moves each part of the plan to the wallet, once each; a failing part is skipped. Answers the last that moved. */
  private async collect(memberId: string, plan: CollectPlan, idem: Idem | null): Promise<MoneyResult | null> {
    let last: MoneyResult | null = null;
    for (const { code, amount } of plan.parts) {
      try {
        last = await this.transfers.transfer(memberId, code, WALLET_CODE, amount, derive(idem, code));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // A part not ended yet — still running under its key in a concurrent retry (409
        // REQUEST_IN_PROGRESS) or unconfirmed by its provider (TRANSFER_PENDING) — is no answer:
        // going on would withdraw (or answer) without that money, and the composite would store
        // that as the call's one answer. The call answers "not yet" and a retry runs the same plan.
        // A part that definitely failed (its money stayed in the game) is passed over.
        if (error.status === 409 || error.code === 'TRANSFER_PENDING') throw error;
      }
    }
    return last;
  }

  /** Records an operation with its money (`postings`), or places a withdrawal's hold (no postings: the money core's hold). */
  /** Records a settled operation with its postings (under the call's key); answers as the operation answers. */
  private record(op: OperationRow, idem: Idem | null, postings: Array<{ account: string; amount: number }>, kind: PostingKind, db: Kysely<WalletDb> = this.db): Promise<MoneyResult> {
    return this.posted(op, (row) => this.money.record(db, row, idem, postings, kind));
  }

  /** Records a withdrawal's hold (its PENDING operation and the money held, one statement). */
  private placeHold(op: OperationRow, idem: Idem | null): Promise<MoneyResult> {
    return this.posted(op, (row) => this.money.holds.place(this.db, row, idem));
  }

  private async posted(op: OperationRow, write: (row: NewOperation) => Promise<Map<string, number> | null>): Promise<MoneyResult> {
    let after;
    try {
      const creditedAt = op.type === 'deposit' ? new Date(this.money.now()) : null;
      after = await write({ id: op.id, memberId: op.member_id, type: op.type, status: op.status, source: op.source, target: op.target, amount: op.amount, creditedAt });
    } catch (error) {
      if (error instanceof InsufficientFunds) throw badRequest('MONEY_NOT_ENOUGH');
      if (isDuplicateKey(error)) throw new KeyTaken();
      throw error;
    }
    return answerFrom(op, after?.get(account.wallet(op.member_id)), undefined);
  }

  /**
   * Withdrawals for operators, paged on the server: by status (every status when left out), a
   * member's phone or id (`q`), oldest or newest first, or by amount; each with its payout: pending
   * (waiting for an operator), processing (with the bank, or being settled) or ended.
   */
  async withdrawals(input: { status?: 'PENDING' | 'SUCCESS' | 'FAILED'; q?: string; page: number; pageSize: number; sort: 'createdAt' | '-createdAt' | 'amount' | '-amount' }): Promise<{
    total: number;
    withdrawals: Array<{
      id: string;
      memberId: string;
      username: string;
      name: string;
      bankCode: string;
      bankAccountNo: string;
      currency: 'THB' | 'LAK';
      amount: number;
      to: string;
      createdAt: string;
      status: string;
      note: string | null;
      payout: 'pending' | 'processing' | 'ended';
      bankStatus: string | null;
    }>;
  }> {
    let query = this.db
      .selectFrom('operation_view as operations')
      .innerJoin('member_view as members', 'members.id', 'operations.member_id')
      .leftJoin('withdrawal_payouts', 'withdrawal_payouts.withdrawal_id', 'operations.id')
      .where('operations.type', '=', 'withdraw');
    if (input.status) query = query.where('operations.status', '=', input.status);
    const q = input.q?.trim();
    if (q) query = query.where((eb) => eb.or([eb('members.username', '=', q), eb('members.id', '=', q), eb('operations.id', '=', q)]));
    const count = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
    const rows = await query
      .select(['operations.id', 'operations.member_id', 'members.username', 'members.name', 'members.bank_code', 'members.bank_account_no', 'members.currency', 'operations.amount', 'operations.target', 'operations.created_at', 'operations.status', 'operations.note', 'withdrawal_payouts.state', 'withdrawal_payouts.bank_status'])
      .orderBy(input.sort.endsWith('amount') ? 'operations.amount' : 'operations.created_at', input.sort.startsWith('-') ? 'desc' : 'asc')
      .orderBy('operations.id')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute();
    return {
      total: Number(count?.n ?? 0),
      withdrawals: rows.map((r) => ({
        id: r.id,
        memberId: r.member_id,
        username: r.username,
        name: r.name,
        bankCode: r.bank_code,
        bankAccountNo: r.bank_account_no,
        // Minor units are hundredths in both currencies: toBaht gives the major units of either.
        currency: ledgerCurrency(r.currency),
        amount: toBaht(Number(r.amount)),
        to: r.target,
        createdAt: r.created_at.toISOString(),
        status: r.status,
        note: r.note,
        payout: r.status !== 'PENDING' ? 'ended' : r.state ? 'processing' : 'pending',
        bankStatus: r.bank_status,
      })),
    };
  }
}
