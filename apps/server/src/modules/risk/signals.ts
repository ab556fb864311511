import { accountKey, holderKey } from '../../lib/same-person';

/**
 * Pure parts of the signals: which addresses say something about a client, and whether a
 * member's name and their bank account's holder name name the same person.
 */

/**
 * A client address worth comparing, or null. Loopback is the server's own side (a proxy that
 * TRUST_PROXY does not name, a health check, the tests' injected requests): every member would
 * share it, so it says nothing about anyone.
 */
export function comparableAddress(ip: string | null | undefined): string | null {
  const address = (ip ?? '').trim().toLowerCase();
  if (address === '' || address === '::1' || /^(::ffff:)?127\./.test(address)) return null;
  return address.slice(0, 64);
}

/** A bank account number as the signal compares it: its digits (any script). */
export { accountKey };

/** The words of a name: NFKD, marks stripped, lower case, split on anything not a letter or digit. */
function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2);
}

/**
 * Whether a member's name and their bank account's holder name differ: neither contains the
 * other (a first name alone, a title such as นาย before it) and they share no word. Names of
 * different scripts (Thai on one side, Latin on the other) differ: a person checks them.
 * An empty side compares as equal (nothing to compare).
 */
export function namesDiffer(name: string, holder: string): boolean {
  const a = holderKey(name);
  const b = holderKey(holder);
  if (a === '' || b === '') return false;
  if (a.includes(b) || b.includes(a)) return false;
  const theirs = new Set(words(holder));
  return !words(name).some((w) => theirs.has(w));
}
