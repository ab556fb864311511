import { z } from 'zod';

/**
 * Text fields of requests. PostgreSQL cannot store NUL, and no field of this API means a control
 * character, so every request string refuses the C0 controls (U+0000–U+001F), DEL (U+007F), the
 * C1 controls (U+0080–U+009F) and lone UTF-16 surrogates (which would be stored as U+FFFD, not
 * as sent): a body or path that carries one answers 400 KEY_INVALID before any code sees it.
 *
 * `text(max)` is a single-line field (names, codes, phone numbers, ids, links);
 * `multilineText(max)` allows line feed, carriage return and tab (chat messages).
 */
/* eslint-disable no-control-regex -- matching control characters is the point of these patterns */
export const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;
export const CONTROL_CHARACTER_EXCEPT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const SINGLE_LINE = /^[^\u0000-\u001F\u007F-\u009F]*$/;
const MULTI_LINE = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$/;
/* eslint-enable no-control-regex */

const wellFormed = (value: string) => !LONE_SURROGATE.test(value);

export const text = (max: number) =>
  z.string().max(max).regex(SINGLE_LINE, 'control characters are not allowed').refine(wellFormed, 'lone surrogates are not allowed');
export const multilineText = (max: number) =>
  z.string().max(max).regex(MULTI_LINE, 'control characters other than line breaks are not allowed').refine(wellFormed, 'lone surrogates are not allowed');

/** True when a string holds a character no request field accepts (line breaks allowed or not). */
export function hasControlCharacter(value: string, allowLines = false): boolean {
  return (allowLines ? CONTROL_CHARACTER_EXCEPT_LINES : CONTROL_CHARACTER).test(value) || LONE_SURROGATE.test(value);
}
