import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Module borders in raw SQL (issue 35). The query builder is held by the type checker: each area
 * gets a `Kysely<ItsTables & the read models it was given>` (`moduleDb`), so naming another area's
 * table there does not compile (test/borders.types.ts proves it for every module, and a lint rule
 * keeps the whole-schema `DB` and `database.db` out of the modules). What the compiler cannot
 * see is SQL written as text: this test reads it.
 *
 * An area is a domain module (src/modules/<name>), an adapter (src/providers/<name>), the money
 * core (src/money) or the platform (the rest). An area owns the tables and views its migrations
 * create. A view another area may read is that area's published read model (member_view,
 * operation_view, bank_view, source_view): read-only, typed so (`ReadOnlyRow`), refused writes by a trigger.
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

/** Tables that moved to another area after the migration that created them had shipped. */
const MOVED: Record<string, string> = { slips: 'modules/deposit' };

/** Table or view → owning area, from the CREATE statements of each area's migrations. */
const owners = new Map<string, string>();
const views = new Set<string>();
for (const file of files) {
  for (const match of file.text.matchAll(/CREATE (TABLE|VIEW) (?:IF NOT EXISTS )?"?(\w+)"?/gi)) {
    const name = (match[2] as string).toLowerCase();
    if (match[1]?.toUpperCase() === 'VIEW') views.add(name);
    const other = owners.get(name);
    if (other && other !== file.area) throw new Error(`${name} is created by ${other} and ${file.area}`);
    owners.set(name, file.area);
  }
}
for (const [table, area] of Object.entries(MOVED)) owners.set(table, area);
owners.delete('schema_migrations');

/**
 * The code of a file as the database sees it: comments out, and migrations' SQL out (files named
 * migrations.ts are skipped; `sql: `…`` fields elsewhere run once, at the schema's level).
 */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .replace(/\bsql:\s*`[\s\S]*?`/g, '');
}

const WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?|ALTER\s+TABLE|DROP\s+(?:TABLE|VIEW))\s+(?:ONLY\s+|IF\s+EXISTS\s+)?"?(\w+)"?/gi;
const READ = /\b(?:FROM|JOIN)\s+(?:ONLY\s+)?"?(\w+)"?/gi;

function named(pattern: RegExp, code: string): string[] {
  return [...code.matchAll(pattern)].map((m) => (m[1] as string).toLowerCase()).filter((name) => owners.has(name));
}

const codeFiles = files.filter((f) => !/migrations?\.ts$/.test(f.path)).map((f) => ({ ...f, code: codeOf(f.text) }));

/**
 * Raw-SQL reads of another area's table (not its view) that remain, as "area -> table", with the
 * reason. Only shrinks.
 */
const READS_LEFT: Record<string, string> = {
  'modules/activity -> member_games': 'rounds are matched to members by provider username inside the import statement (one statement per page, not a round trip per round)',
};

describe('module borders in raw SQL', () => {
  it('knows every table\'s and view\'s owner', () => {
    expect(owners.get('members')).toBe('modules/account');
    expect(owners.get('member_view')).toBe('modules/account');
    expect(owners.get('operation_view')).toBe('money');
    expect(owners.get('ledger_entries')).toBe('money');
    expect(owners.get('slips')).toBe('modules/deposit');
    expect(views.has('bank_view') && !views.has('banks')).toBe(true);
    expect(owners.size).toBeGreaterThan(35);
  });

  it('finds a write in any spelling: lower case, quoted, aliased', () => {
    const code = codeOf('await sql`update "members" m set name = 1`; // INSERT INTO members\n sql`insert into ledger_entries (x)`; sql`Delete From ONLY slips`');
    expect(named(WRITE, code)).toEqual(['members', 'ledger_entries', 'slips']);
    expect(named(READ, codeOf('sql`SELECT 1 from operations o JOIN "member_view" m`'))).toEqual(['operations', 'member_view']);
  });

  it('no area writes another area\'s table or view in raw SQL (no exceptions)', () => {
    const writes = codeFiles.flatMap((file) =>
      named(WRITE, file.code)
        .filter((name) => owners.get(name) !== file.area)
        .map((name) => `${relative(SRC, file.path)} writes ${name} (${owners.get(name)}'s)`),
    );
    expect(writes, 'write another area\'s data through its service').toEqual([]);
  });

  it('raw SQL reads another area\'s data only through its published views, apart from the listed statements', () => {
    const crossings = new Map<string, string[]>();
    for (const file of codeFiles) {
      if (file.area === 'platform') continue;
      for (const name of named(READ, file.code)) {
        if (owners.get(name) === file.area || views.has(name)) continue;
        const key = `${file.area} -> ${name}`;
        crossings.set(key, [...(crossings.get(key) ?? []), relative(SRC, file.path)]);
      }
    }
    const unlisted = [...crossings.keys()].filter((key) => !(key in READS_LEFT)).map((key) => `${key}: ${[...new Set(crossings.get(key))].join(', ')}`);
    expect(unlisted, 'read another area\'s data through its service or its view').toEqual([]);
    const stale = Object.keys(READS_LEFT).filter((key) => !crossings.has(key));
    expect(stale, 'a listed read no longer exists: take it off the list').toEqual([]);
  });

  it('no area but the money core names the ledger\'s own tables, and none imports the raw posting functions', () => {
    const ledger = ['ledger_accounts', 'ledger_transactions', 'ledger_entries', 'idempotency_keys', 'external_credits', 'operations'];
    const named2 = codeFiles
      .filter((f) => f.area !== 'money' && f.area !== 'platform')
      .flatMap((f) => [...named(WRITE, f.code), ...named(READ, f.code)].filter((n) => ledger.includes(n) && !(`${f.area} -> ${n}` in READS_LEFT)).map((n) => `${relative(SRC, f.path)}: ${n}`));
    expect(named2).toEqual([]);
    const imports = files
      .filter((f) => f.area !== 'money')
      .filter((f) => /\b(runPosting|runPostingBatch|postingSql)\b/.test(f.text))
      .map((f) => relative(SRC, f.path));
    expect(imports).toEqual([]);
  });
});
