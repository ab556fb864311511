// The checks the generated parsers are built from (contractParsers.generated.ts, written by
// apps/web/scripts/contract-parsers.ts): one per zod schema kind the generator mirrors, each
// accepting, refusing and returning what zod does for that kind. It is in the first download with
// the parsers, so it imports no zod (the rule is written in the generator). A new schema kind the
// generator learns gets its check here; test/contractParsers.test.ts proves them through the parsers.
import type { ResponseParser } from './client';

/** Thrown inside a parser when a value does not fit; turned into `success: false`. */
class Mismatch extends Error {}

/** One schema's check: returns what zod's parse would return, or throws a Mismatch. */
export type Check = (value: unknown) => unknown;

const fail = (): never => {
  throw new Mismatch();
};
const is =
  (test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? value : fail();
export const string = is((value) => typeof value === 'string');
/** z.number(): finite numbers only. */
export const number = is(Number.isFinite);
/** z.number().int(): safe integers. */
export const integer = is(Number.isSafeInteger);
export const boolean = is((value) => typeof value === 'boolean');
/** z.enum() and z.literal(). */
export const oneOf = (values: readonly unknown[]): Check => is((value) => values.includes(value));
export const nullable =
  (inner: Check): Check =>
  (value) =>
    value === null ? null : inner(value);
export const optional =
  (inner: Check): Check =>
  (value) =>
    value === undefined ? undefined : inner(value);
export const array =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) ? value.map((element) => item(element)) : fail();
/**
 * z.object() (unknown keys dropped), z.strictObject() (refused: `strict`) or z.looseObject() (kept:
 * `loose`); a key missing from the answer stays missing.
 */
export const object =
  (shape: Record<string, Check>, unknownKeys?: 'strict' | 'loose'): Check =>
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail();
    const input = value as Record<string, unknown>;
    const output: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      if (Object.hasOwn(shape, key)) continue;
      if (unknownKeys === 'strict') fail();
      if (unknownKeys === 'loose') output[key] = input[key];
    }
    for (const [key, check] of Object.entries(shape)) {
      const checked = check(input[key]);
      if (checked !== undefined || Object.hasOwn(input, key)) output[key] = checked;
    }
    return output;
  };

/** A check as a parser with zod's `safeParse` (what `request` takes), typed as the schema's output. */
export function parser<T>(check: Check): ResponseParser<T> {
  return {
    safeParse(value) {
      try {
        // The cast is what test/contractParsers.test.ts proves: the check accepts exactly what the schema accepts.
        return { success: true, data: check(value) as T };
      } catch (error) {
        if (error instanceof Mismatch) return { success: false };
        throw error;
      }
    },
  };
}
