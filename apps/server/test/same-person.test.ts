import { describe, expect, it } from 'vitest';
import { accountKey, holderKey, samePerson } from '../src/lib/same-person';

const holder = (bankAccountName: string, bankAccountNo = '') => ({ bankAccountName, bankAccountNo });

describe('the invite "same person" rule (unit)', () => {
  it('sees one holder name through case, spaces, punctuation, a trailing dot and invisible characters', () => {
    const base = holder('CHAI SAMENAME');
    for (const name of ['chai samename', 'CHAI SAMENAME.', 'Chai  Samename', ' chai\tsamename ', 'C.H.A.I. SAME-NAME', 'CHAI\u200bSAMENAME', 'ＣＨＡＩ ＳＡＭＥＮＡＭＥ', 'chaï samename']) {
      expect(samePerson(base, holder(name)), name).toBe(true);
    }
    expect(samePerson(base, holder('CHAI OTHERNAME'))).toBe(false);
  });

  it('strips Thai tone marks and vowel signs, and Lao ones (NFKD, combining marks)', () => {
    // สมชาย ใจดี with and without a tone mark / with a stray mai ek, and spacing variants.
    expect(holderKey('นาย สมชาย ใจดี')).toBe(holderKey('นายสมชาย  ใจดี.'));
    expect(samePerson(holder('สมศักดิ์ ใจดี'), holder('สมศักดิ ใจดี'))).toBe(true);
    expect(samePerson(holder('ก้อง'), holder('กอง'))).toBe(true);
    // SARA AM decomposes to NIKHAHIT + SARA AA under NFKD: typed either way, one name.
    expect(holderKey('คำ')).toBe(holderKey('ค\u0e4d\u0e32'));
    // Lao: tone marks, and ໜ (U+0EDC) is ຫນ.
    expect(samePerson(holder('ສົມສັກ ໃຈດີ'), holder('ສມສກ ໃຈດີ'))).toBe(true);
    expect(samePerson(holder('ບຸນມີ'), holder('ບຸນມີ່'))).toBe(true);
    expect(holderKey('ໜ່ອຍ')).toBe(holderKey('ຫນອຍ'));
    expect(samePerson(holder('สมชาย'), holder('สมหญิง'))).toBe(false);
  });

  it('sees one account number through dashes, spaces and Thai, Lao or full-width digits', () => {
    expect(accountKey('123-4-56789-0')).toBe('1234567890');
    expect(accountKey('๑๒๓๔๕๖๗๘๙๐')).toBe('1234567890');
    expect(accountKey('໑໒໓໔໕໖໗໘໙໐')).toBe('1234567890');
    expect(accountKey('１２３４５６７８９０')).toBe('1234567890');
    expect(samePerson(holder('A PERSON', '123 456 7890'), holder('ANOTHER NAME', '123-456-7890'))).toBe(true);
  });

  it('never matches on empty keys', () => {
    expect(samePerson(holder('...', ''), holder(' . ', ''))).toBe(false);
    expect(samePerson(holder('A', '--'), holder('B', '-'))).toBe(false);
  });
});
