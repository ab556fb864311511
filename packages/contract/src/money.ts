import { z } from 'zod';
import { text } from './text';

/**
 * Money on the wire is decimal baht with at most two decimals; inside the system it is integer
 * satang. Parsing is done on the decimal text, never with float arithmetic.
 */
export type Satang = number;

/** Largest amount one call may carry: 10,000,000 baht. */
export const MAX_AMOUNT_SATANG = 1_000_000_000;

const AMOUNT_TEXT = /^(0|[1-9]\d{0,11})(\.\d{1,2})?$/;

/** Parses a decimal baht amount into satang, or returns null when it is not a valid amount. */
export function parseBaht(value: unknown): Satang | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = AMOUNT_TEXT.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = (match[2] ?? '').slice(1).padEnd(2, '0');
  const satang = whole * 100 + Number(fraction || '0');
  return satang > MAX_AMOUNT_SATANG ? null : satang;
}

/** Satang to baht for the wire (exact for every integer satang below 2^53 / 100). */
export function toBaht(satang: Satang): number {
  return Math.round(satang) / 100;
}

/**
 * Request schema for an amount: accepts a JSON number or a numeric string, non-negative, at most
 * two decimals, at most MAX_AMOUNT_SATANG; yields satang. Rules on minimums are domain rules
 * (TRANSFER_MINIMUM and so on), checked by the services.
 */
export const amountSchema = z
  .union([z.number(), text(32)])
  .transform((value, ctx) => {
    const satang = parseBaht(value);
    if (satang === null) {
      ctx.addIssue({ code: 'custom', message: 'amount must be decimal baht, at least 0, with at most 2 decimals' });
      return z.NEVER;
    }
    return satang;
  });

/** Response schema for an amount: baht as a number with at most two decimals. */
export const bahtSchema = z.number().describe('decimal baht, at most 2 decimals');
