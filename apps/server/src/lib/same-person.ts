/**
 * The "same person" rule of invites: a member earns nothing on an invitee who holds a bank account
 * under the same holder name, or the same account number. Names and numbers are compared
 * normalised, so that case, spaces, punctuation, a trailing dot, Thai or Lao tone marks and
 * vowel signs, compatibility forms (full-width letters, ໜ/ຫນ) or invisible characters do not
 * make two people of one.
 */

/** Zero of each decimal digit block a bank number may be typed in (ASCII, Thai, Lao). */
const DIGIT_ZEROS = [0x30, 0x0e50, 0x0ed0];

/** A holder name reduced to its letters and digits: NFKD, combining marks stripped, lower case. */
export function holderKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** A bank account number reduced to its digits (ASCII, full-width, Thai and Lao digits alike). */
export function accountKey(accountNo: string): string {
  let digits = '';
  for (const char of accountNo.normalize('NFKD')) {
    const code = char.codePointAt(0) ?? 0;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9);
    if (zero !== undefined) digits += String(code - zero);
  }
  return digits;
}

export interface Holder {
  bankAccountName: string;
  bankAccountNo: string;
}

/** Whether two members' bank details name the same person (an empty key never matches). */
export function samePerson(a: Holder, b: Holder): boolean {
  const nameA = holderKey(a.bankAccountName);
  const accountA = accountKey(a.bankAccountNo);
  return (nameA !== '' && nameA === holderKey(b.bankAccountName)) || (accountA !== '' && accountA === accountKey(b.bankAccountNo));
}
