/**
 * Transfer codes (issue 35): what a ledger transaction records as its kind. The money core's own
 * ways money moves are its codes below; a domain module declares its own code (a bonus, a refund,
 * an invite earning, a wheel prize) with `transferCode` beside the code that posts it, and the
 * money core writes every declared code into `transfer_codes` at start (its seed). A ledger
 * transaction's kind is a foreign key into that table, so a code nobody declared cannot be
 * written, whoever writes it — and a new promotion kind needs no money migration.
 */
export const CORE_CODES = [
  'deposit',
  'withdraw_hold',
  'withdraw_complete',
  'withdraw_reject',
  'transfer_start',
  'transfer_complete',
  'transfer_reverse',
  'transfer',
  'transfer_return',
  'game_result',
  'adjustment',
  'coin_earn',
  'coin_grant',
  'coin_spend',
  'coin_opening',
  'seamless_bet',
  'seamless_win',
  'seamless_rollback',
] as const;
export type CoreCode = (typeof CORE_CODES)[number];

declare const declared: unique symbol;
/** A code a domain module declared with `transferCode`: only the registry hands one out. */
export type DomainCode = string & { readonly [declared]: true };
/** A ledger transaction's kind: one of the core's codes or a declared one. */
export type PostingKind = CoreCode | DomainCode;

export interface DeclaredCode {
  code: string;
  owner: string;
  description: string;
}

const CODE_FORMAT = /^[a-z][a-z0-9_]{1,39}$/;
const registry = new Map<string, DeclaredCode>();

/**
 * Declares a module's transfer code (at module load, beside the code that posts it); answers it
 * as a `DomainCode`. The same code twice is the same code; one code claimed by two owners, a
 * core code or a malformed one stops the start.
 */
export function transferCode(owner: string, code: string, description: string): DomainCode {
  if (!CODE_FORMAT.test(code)) throw new Error(`transfer code ${JSON.stringify(code)}: lower case, digits and _ (2–40)`);
  if ((CORE_CODES as readonly string[]).includes(code)) throw new Error(`transfer code ${code} is the money core's`);
  const known = registry.get(code);
  if (known && known.owner !== owner) throw new Error(`transfer code ${code} is declared by ${known.owner} and ${owner}`);
  registry.set(code, { code, owner, description });
  return code as DomainCode;
}

/** Every code a module declared in this process. */
export function declaredCodes(): DeclaredCode[] {
  return [...registry.values()];
}
