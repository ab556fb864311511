import type { Connection } from '../db/database';
import type { MoneyDb } from './tables';
import type { Kysely } from 'kysely';
import { AppError } from '../lib/errors';
import type { Currency } from './tables';

/**
 * Policy hooks: checks that run before money leaves a member's control (a withdrawal, a transfer
 * out of the wallet or out of a game). A hook refuses by throwing an AppError (a bonus's
 * turnover lock answers BONUS_CONDITION, a deposit limit its own code); nothing has been recorded
 * or moved then. Domains register their hooks at start-up instead of editing the wallet.
 */
export interface MoneyLeaving {
  memberId: string;
  action: 'withdraw' | 'transfer';
  /** WALLET or a game code. */
  from: string;
  /** WALLET, a game code, or the bank for a withdrawal. */
  to: string;
  /** Satang. */
  amount: number;
  /** Set by the server's own moves: `bonus-clear` brings game money home for a bonus cancel. */
  purpose?: 'bonus-clear';
}

export type PolicyHook = (leaving: MoneyLeaving) => Promise<void> | void;

/** Money coming in for a member: asked for (a QR, a gift link, the demo top-up) or arrived. */
export interface MoneyIncoming {
  memberId: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  /**
   * ask: before money is asked for (refused with the rule's code); arrived: money an outside
   * system reports (held when refused); operator: an operator's manual credit (refused unless an
   * owner overrides); release: an operator releasing held money.
   */
  stage: 'ask' | 'arrived' | 'operator' | 'release';
  /** For an ask: money already asked for and not yet arrived (open QRs), counted with it. */
  asked?: number;
}

/** Why money may not come in now: the code a refusal answers (DEPOSIT_LIMIT, TIME_OUT, SELF_EXCLUDED) and its detail. */
export interface IncomingRefusal {
  code: 'DEPOSIT_LIMIT' | 'TIME_OUT' | 'SELF_EXCLUDED';
  extra: Record<string, unknown>;
}

/**
 * The rules money coming in must pass (responsible play: deposit limits, breaks). One set, given
 * by the domain that owns them at start-up; every deposit path consults it through the money core:
 * asks through `checkAsk`, arrivals inside `credits` (which holds what is refused).
 */
export interface DepositRules {
  /** Whether any rule can refuse money for this member now (a limit or a break): false skips the member's deposit lock. */
  applies(memberId: string): Promise<boolean>;
  /** Why this money cannot come in now (null: it can). Arrivals run it under the member's deposit lock, on `db` (the transaction). */
  refusal(db: Connection, incoming: MoneyIncoming): Promise<IncomingRefusal | null>;
}

export class MoneyPolicies {
  private readonly hooks: Array<{ name: string; hook: PolicyHook }> = [];
  private depositRules: DepositRules | null = null;

  constructor(private readonly db: Kysely<MoneyDb>) {}

  /** Sets the rules of money coming in (once, at start-up). */
  setDepositRules(rules: DepositRules): void {
    if (this.depositRules) throw new Error('deposit rules are set already');
    this.depositRules = rules;
  }

  get deposits(): DepositRules | null {
    return this.depositRules;
  }

  /** Before money is asked for: throws 403 DEPOSIT_LIMIT / TIME_OUT / SELF_EXCLUDED with the rule's detail. */
  async checkAsk(incoming: Omit<MoneyIncoming, 'stage'>): Promise<void> {
    const rules = this.depositRules;
    if (!rules || !(await rules.applies(incoming.memberId))) return;
    const refused = await rules.refusal(this.db, { ...incoming, stage: 'ask' });
    if (refused) throw new AppError(403, refused.code, refused.extra);
  }

  /** Adds a hook; answers a function that removes it. */
  register(name: string, hook: PolicyHook): () => void {
    const entry = { name, hook };
    this.hooks.push(entry);
    return () => {
      const at = this.hooks.indexOf(entry);
      if (at >= 0) this.hooks.splice(at, 1);
    };
  }

  /** Runs every hook in registration order; the first refusal stops the movement. */
  async check(leaving: MoneyLeaving): Promise<void> {
    for (const { hook } of this.hooks) await hook(leaving);
  }

  get size(): number {
    return this.hooks.length;
  }
}
