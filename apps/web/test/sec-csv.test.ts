import { describe, expect, it } from 'vitest';
import { toCsv } from '../admin/src/shared/csv';

/** Issue 37 item 7: back-office CSV cells that a spreadsheet would split or run as a formula. */
describe('toCsv', () => {
  const one = (value: unknown) => toCsv([{ a: value }], ['a']).split('\r\n')[1];

  it('quotes cells with a semicolon, a comma, a quote, a tab or a line break', () => {
    expect(one('a;b')).toBe('"a;b"');
    expect(one('a,b')).toBe('"a,b"');
    expect(one('say "hi"')).toBe('"say ""hi"""');
    expect(one('a\nb')).toBe('"a\nb"');
    expect(one('plain')).toBe('plain');
  });

  it('neutralises a leading = + - @ tab or CR, but keeps negative numbers', () => {
    expect(one(';=1+1')).toBe('";=1+1"');
    expect(one('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(one('+1')).toBe("'+1");
    expect(one('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(one('\t=1')).toBe('"\'\t=1"');
    expect(one('\r=1')).toBe('"\'\r=1"');
    expect(one('-12.50')).toBe('-12.50');
    expect(one('-x')).toBe("'-x");
  });
});
