import { z } from 'zod';

/**
 * Text fields of requests. PostgreSQL cannot store NUL, and no field of this API means a control
 * character, so every request string refuses the C0 controls (U+0000–U+001F) and DEL (U+007F):
 * a body or path that carries one answers 400 KEY_INVALID before any code sees it.
 *
 * `text(max)` is a single-line field (names, codes, phone numbers, ids, links);
 * `multilineText(max)` allows line feed, carriage return and tab (chat messages).
 */
/* eslint-disable no-control-regex -- matching control characters is the point of these patterns */
export const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/;
export const CONTROL_CHARACTER_EXCEPT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const SINGLE_LINE = /^[^\u0000-\u001F\u007F]*$/;
const MULTI_LINE = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
/* eslint-enable no-control-regex */

export const text = (max: number) => z.string().max(max).regex(SINGLE_LINE, 'control characters are not allowed');
export const multilineText = (max: number) => z.string().max(max).regex(MULTI_LINE, 'control characters other than line breaks are not allowed');

/** True when a string holds a character no request field accepts (line breaks allowed or not). */
export function hasControlCharacter(value: string, allowLines = false): boolean {
  return (allowLines ? CONTROL_CHARACTER_EXCEPT_LINES : CONTROL_CHARACTER).test(value);
}
