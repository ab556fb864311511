import type { Kysely } from 'kysely';
import type { MoneyDb } from './tables';
import { observePostings, type Posted, type PostedMove, type PostingKind } from './ledger';

/** One of a member's balances after a committed posting. */
export interface BalanceMove {
  /** Minor units after the posting (for a batch: after the whole batch). */
  balance: number;
  /** The account's version: a later change of the same account has a larger one. */
  version: number;
  /** Signed minor units this posting moved on the account. */
  amount: number;
}

/**
 * What a member can see change: their wallet, a game account, or the withdrawal hold (a payout
 * paid or a withdrawal returned). In-flight and coin accounts are left out (the app shows no such
 * figure; a transfer's in-flight leg is announced with the wallet or game side it ends on).
 */
export interface BalanceChange {
  memberId: string;
  kind: PostingKind;
  operationId: string | null;
  wallet: BalanceMove | null;
  /** Game code → its account, for every game account the posting moved. */
  games: Record<string, BalanceMove>;
  /** Minor units the posting moved on the member's withdrawal hold (negative: it left the hold). */
  held: number;
}

export type BalanceListener = (change: BalanceChange) => void;

const MEMBER_ACCOUNT = /^m:([^:]+):(wallet|withdrawal|game:(.+))$/;

/** The member-visible changes of committed postings, one per member per posting. */
export function balanceChangesOf(posted: readonly Posted[]): BalanceChange[] {
  const changes: BalanceChange[] = [];
  for (const p of posted) {
    const byMember = new Map<string, BalanceChange>();
    for (const move of p.moves) {
      const match = MEMBER_ACCOUNT.exec(move.account);
      if (!match) continue;
      const memberId = match[1] as string;
      let change = byMember.get(memberId);
      if (!change) {
        change = { memberId, kind: p.kind, operationId: p.operationId, wallet: null, games: {}, held: 0 };
        byMember.set(memberId, change);
      }
      const seen = moveOf(move);
      if (match[2] === 'wallet') change.wallet = seen;
      else if (match[2] === 'withdrawal') change.held += move.amount;
      else change.games[match[3] as string] = seen;
    }
    changes.push(...byMember.values());
  }
  return changes;
}

function moveOf(move: PostedMove): BalanceMove {
  return { balance: move.balance, version: move.version, amount: move.amount };
}

/**
 * The money core's news of members' balances: every committed posting that moves a member's
 * wallet, game account or withdrawal hold, whatever made it (a deposit credited, a slip, a
 * payout, a bonus, a game result, a transfer). The money core knows no socket: whoever wants to
 * tell the member (the chat socket, modules/chat/balance-push.ts) subscribes here.
 */
export class BalanceFeed {
  private readonly listeners = new Set<BalanceListener>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly db: Kysely<MoneyDb>) {}

  /**
   * What an operation was about, for a member's notice: its target (a withdrawal's bank and
   * account) and its note (a refused withdrawal's reason). Null when there is no such operation.
   */
  async operationDetail(operationId: string): Promise<{ target: string | null; note: string | null } | null> {
    const op = await this.db.selectFrom('operations').select(['target', 'note']).where('id', '=', operationId).executeTakeFirst();
    return op ? { target: op.target, note: op.note } : null;
  }

  subscribe(listener: BalanceListener): () => void {
    this.listeners.add(listener);
    this.unsubscribe ??= observePostings(this.db, (posted) => {
      for (const change of balanceChangesOf(posted)) {
        for (const each of this.listeners) each(change);
      }
    });
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.unsubscribe) {
        this.unsubscribe();
        this.unsubscribe = null;
      }
    };
  }
}
