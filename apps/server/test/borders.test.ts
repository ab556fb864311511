import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Module borders, checked on the source. An area is a domain module (src/modules/<name>), an
 * adapter (src/providers/<name>), the money core (src/money) or the platform (src/platform,
 * src/db, …). An area owns the tables its migrations create; the code of an area names only its
 * own tables, and reaches other areas' data through their services. The crossings that remain
 * are listed below, each with its reason; the test fails on a crossing that is not listed and on
 * a listed one that no longer exists (so the list only shrinks).
 */
const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function areaOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if ((parts[0] === 'modules' || parts[0] === 'providers') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0] === 'money' ? 'money' : 'platform';
}

const files = sourceFiles(SRC).map((path) => ({ path, area: areaOf(path), text: readFileSync(path, 'utf8') }));

/** Table → owning area, from the CREATE TABLE statements of each area's migrations. */
const owners = new Map<string, string>();
for (const file of files) {
  for (const match of file.text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?(\w+)"?/g)) {
    const table = match[1] as string;
    const other = owners.get(table);
    if (other && other !== file.area) throw new Error(`table ${table} is created by ${other} and ${file.area}`);
    owners.set(table, file.area);
  }
}
owners.delete('schema_migrations');

/** Where an area's code names a table: the query builder's table arguments and raw SQL. */
function namedTables(text: string): Map<string, number> {
  // Migrations' SQL (files named migrations.ts are skipped; `sql: `…`` fields elsewhere) may
  // refer to and backfill from other tables: it runs once, at the schema's level, not as a service.
  const code = text.replace(/CREATE TABLE[\s\S]*?\);/g, '').replace(/\bsql:\s*`[\s\S]*?`/g, '');
  const found = new Map<string, number>();
  for (const table of owners.keys()) {
    const pattern = new RegExp(
      `(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto)\\(\\s*'${table}(?:\\s+as\\s+\\w+)?'|\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+${table}\\b`,
      'g',
    );
    const count = [...code.matchAll(pattern)].length;
    if (count > 0) found.set(table, count);
  }
  return found;
}

/**
 * Crossings that remain, as "area -> table", with the reason. Shrink it; never grow it without a
 * reason a reviewer accepts.
 */
const ALLOWED: Record<string, string> = {
  'modules/account -> banks': 'registration checks the bank code against the lookup list inside its insert (one statement)',
  'modules/account -> sources': 'registration checks the sign-up source against the lookup list inside its insert',
  'modules/activity -> games': 'the importer walks the active catalogue; read-only',
  'modules/activity -> member_games': 'rounds are matched to members by provider username inside the insert (one statement, no round trip per round)',
  'modules/bonus -> games': 'a bonus names its game categories; read-only',
  'modules/bonus -> ledger_accounts': 'bonus progress reads the member\'s balances in the statement that checks the rule',
  'modules/bonus -> members': 'read-only: the member\'s currency and registration',
  'modules/bonus -> operations': 'bonus receipts are matched to the deposit operation that qualified them; read-only',
  'modules/chat -> members': 'read-only: the member\'s display name for the support inbox',
  'modules/deposit -> members': 'read-only: the uploader\'s registered bank account, to match a slip\'s sender',
  'modules/deposit -> operations': 'read-only: unmatched deposits are shown beside the operations they became',
  'modules/deposit -> slips': 'slips are written by the deposit module but still created by the statement module\'s migration (the table moves with its writer)',
  'modules/invite -> members': 'read-only: the referrer of a member and the holder names for the same-person rule',
  'modules/invite -> operations': 'read-only: the qualifying deposits of an invited friend',
  'modules/spin -> members': 'read-only: the depositing member\'s currency, joined where coins are earned from deposits (coins themselves are on the ledger)',
  'modules/spin -> operations': 'read-only: the deposits that earn coins',
  'modules/statement -> operations': 'the statement is the member\'s view of their operations; read-only',
  'modules/wallet -> members': 'read-only: the operator\'s list of pending withdrawals shows the member\'s username',
  'modules/wallet -> operations': 'read-only: pending withdrawals and transfers to settle',
  'money -> members': 'a member\'s ledger accounts are opened in the member\'s currency (read-only)',
};

const MONEY_TABLES = ['ledger_accounts', 'ledger_transactions', 'ledger_entries', 'idempotency_keys', 'external_credits'];

describe('module borders', () => {
  it('knows every table\'s owner', () => {
    expect(owners.get('members')).toBe('modules/account');
    expect(owners.get('ledger_entries')).toBe('money');
    expect(owners.size).toBeGreaterThan(30);
  });

  it('each area names only its own tables, apart from the listed crossings', () => {
    const crossings = new Map<string, string[]>();
    for (const file of files) {
      if (/migrations?\.ts$/.test(file.path)) continue;
      for (const [table, count] of namedTables(file.text)) {
        const owner = owners.get(table);
        if (owner === file.area) continue;
        const key = `${file.area} -> ${table}`;
        crossings.set(key, [...(crossings.get(key) ?? []), `${relative(SRC, file.path)} (${count})`]);
      }
    }
    const unlisted = [...crossings.keys()].filter((key) => !(key in ALLOWED)).map((key) => `${key}: ${crossings.get(key)?.join(', ')}`);
    expect(unlisted, 'a module names another module\'s table: go through its service').toEqual([]);
    const stale = Object.keys(ALLOWED).filter((key) => !crossings.has(key));
    expect(stale, 'a listed crossing no longer exists: take it off the list').toEqual([]);
  });

  it('no domain module writes a money table, and none but the money core names the ledger\'s own tables', () => {
    const writes: string[] = [];
    for (const file of files.filter((f) => f.area.startsWith('modules/'))) {
      for (const table of [...MONEY_TABLES, 'operations']) {
        if (new RegExp(`(?:insertInto|updateTable|deleteFrom)\\(\\s*'${table}'|\\b(?:INTO|UPDATE)\\s+${table}\\b|DELETE FROM ${table}\\b`).test(file.text)) {
          writes.push(`${relative(SRC, file.path)} writes ${table}`);
        }
      }
    }
    expect(writes).toEqual([]);
  });

  it('no domain module or adapter imports the raw posting functions', () => {
    const imports = files
      .filter((f) => f.area !== 'money')
      .filter((f) => /import\s*{[^}]*\b(runPosting|runPostingBatch|postingSql)\b[^}]*}\s*from\s*'[./]*\/money\/ledger'/.test(f.text))
      .map((f) => relative(SRC, f.path));
    expect(imports).toEqual([]);
  });
});
