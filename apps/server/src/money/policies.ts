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

export class MoneyPolicies {
  private readonly hooks: Array<{ name: string; hook: PolicyHook }> = [];

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
