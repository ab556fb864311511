/**
 * Helpers of the back-office tests: TOTP codes computed from the demo operators' secret (RFC 6238:
 * HMAC-SHA-1, 6 digits, 30 s), signing in through the /admin screens, and axe on a page.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import { en } from '../../apps/web/admin/src/i18n/en';

export const ADMIN_TEXT = en;
export const DEMO_OPERATOR_PASSWORD = 'demo-operator-1';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
export type DemoRole = 'owner' | 'finance' | 'support' | 'marketing';
export const DESKTOP = { width: 1366, height: 900 } as const;

function base32(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The code of the 30-second step `step` (default: now). */
export function totp(secret: string, step = Math.floor(Date.now() / 30_000)): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

/**
 * Signs in at /admin/login (English) with username, password and the TOTP code. A code is good
 * once: when another test of the run used this step's code for the same operator, the server
 * refuses it and the next step's code is used (waiting for that step to begin).
 */
export async function adminLogin(page: Page, username: string, secret = DEMO_TOTP_SECRET, password = DEMO_OPERATOR_PASSWORD): Promise<void> {
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('admin-locale')) window.localStorage.setItem('admin-locale', 'en');
  });
  await page.goto('/admin/login');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await page.getByLabel(en.login.username).fill(username);
    await page.getByLabel(en.login.password).fill(password);
    await page.getByRole('button', { name: en.login.next }).click();
    await expect(page.getByRole('heading', { name: en.login.codeTitle })).toBeVisible();
    const step = Math.floor(Date.now() / 30_000) + attempt;
    const wait = step * 30_000 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait + 50);
    await page.getByLabel(en.login.code).fill(totp(secret, step));
    await page.getByRole('button', { name: en.login.submit }).click();
    const outcome = await Promise.race([
      page.getByRole('navigation', { name: en.app.menu }).waitFor().then(() => 'in' as const),
      page.getByRole('alert').waitFor().then(() => 'refused' as const),
    ]);
    if (outcome === 'in') return;
    // Refused (the code was used by another test): start again with the next step's code.
    if (await page.getByRole('button', { name: en.login.back }).isVisible()) await page.getByRole('button', { name: en.login.back }).click();
  }
  throw new Error(`could not sign in as ${username}`);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe findings on what the page shows now (the test needs `bypassCSP`). */
export async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
