import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpointList } from '../src/endpoints';
import { hasControlCharacter, multilineText, text } from '../src/text';
import { stringFields } from './schema-walk';

/** Every request schema of the contract: params and body of every call. */
const requestSchemas = endpointList.flatMap(([name, def]) =>
  [
    ['params', def.params],
    ['body', def.body],
  ].flatMap(([where, schema]) => (schema ? [{ name: `${name} ${String(where)}`, schema: schema as z.ZodType }] : [])),
);

/** Fields whose text may span lines (chat messages); every other field is a single line. */
const MULTILINE = new Set([0, 1, 2].map((i) => `chatSendMessage body: message|${i}.payload.message`));

describe('request text fields', () => {
  const fields = requestSchemas.flatMap(({ name, schema }) => stringFields(schema).map((field) => ({ id: `${name}: ${field.path}`, schema: field.schema })));

  it('finds the string fields of the request schemas', () => {
    // A walk that found nothing would make the checks below pass vacuously.
    expect(fields.length).toBeGreaterThan(40);
    expect(fields.map((f) => f.id)).toEqual(expect.arrayContaining(['login body: username', 'accountCreate body: otpToken', 'walletActivate params: code']));
  });

  it('refuses NUL and every other C0 control character and DEL in every string field', () => {
    const accepted: string[] = [];
    for (const { id, schema } of fields) {
      for (let c = 0; c <= 0x1f; c++) {
        const char = String.fromCharCode(c);
        if (MULTILINE.has(id) && (char === '\n' || char === '\r' || char === '\t')) continue;
        if (schema.safeParse(`a${char}b`).success) accepted.push(`${id} U+${c.toString(16).padStart(4, '0')}`);
      }
      for (const odd of ['\u007f', '\u0080', '\u009b', '\u009f', '\ud800', '\udfff', '\udfff\ud800']) {
        if (schema.safeParse(`a${odd}b`).success) accepted.push(`${id} ${JSON.stringify(odd)}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('still accepts Thai, Lao, emoji and right-to-left marks, and line breaks where text spans lines', () => {
    for (const value of ['สมชาย', 'ສົມໃຈ', '🎰', '👨‍👩‍👧', '\u200fabc', 'a b', 'café', '\u00a0x']) {
      expect(text(64).safeParse(value).success).toBe(true);
    }
    expect(multilineText(100).safeParse('line one\nline two\r\n\tend').success).toBe(true);
    expect(multilineText(100).safeParse('a\u0000b').success).toBe(false);
    expect(hasControlCharacter('a\nb')).toBe(true);
    expect(hasControlCharacter('a\nb', true)).toBe(false);
    expect(hasControlCharacter('a\u0000b', true)).toBe(true);
  });
});
