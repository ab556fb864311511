import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The server's domain modules in layers (docs/development.md, "Layers"): a module imports —
 * values or types — only modules of a lower layer, never one of its own layer or above, so the
 * module import graph has no cycle and is at most four modules deep. Shared helpers live in lib/,
 * the contract or the platform; a module reaches a higher one only through the services registry
 * at run time (platform/services.ts), never by an import. Imports are read with the TypeScript
 * compiler's own pre-processor (every `import`, `export … from`, `import()` and `require`).
 */
const LAYERS: Record<string, 1 | 2 | 3 | 4> = {
  // 1: the site's own facts — no import of another module.
  settings: 1,
  lookup: 1,
  otp: 1,
  statement: 1,
  // 2: people, permissions, and the rounds they play.
  account: 2,
  operators: 2,
  approval: 2,
  activity: 2,
  // 3: money in and out, games, the wheel, the turnover of bonuses.
  // chat reads members' names through account's published read model (AccountReads).
  chat: 3,
  wallet: 3,
  deposit: 3,
  seamless: 3,
  spin: 3,
  responsible: 3,
  bonus: 3,
  // 4: promotions paid on top of bonuses, oversight, reports and the demo.
  invite: 4,
  refund: 4,
  risk: 4,
  backoffice: 4,
  reports: 4,
  demo: 4,
};

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const modulesDir = join(src, 'modules');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The module a file belongs to (its folder under modules/), or null. */
function moduleOf(path: string): string | null {
  const rel = relative(modulesDir, path);
  if (rel.startsWith('..')) return null;
  const [first, ...rest] = rel.split(sep);
  return rest.length > 0 ? (first ?? null) : null;
}

/** Every module → module import edge, with the file that makes it. */
function edges(): Array<{ from: string; to: string; file: string; spec: string }> {
  const found: Array<{ from: string; to: string; file: string; spec: string }> = [];
  for (const file of files(modulesDir)) {
    const from = moduleOf(file);
    if (!from) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), ref.fileName);
      const to = moduleOf(statSafe(target) ? join(target, 'index.ts') : `${target}.ts`);
      if (to && to !== from) found.push({ from, to, file: relative(src, file), spec: ref.fileName });
    }
  }
  return found;
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

describe('module layers', () => {
  const all = edges();

  it('every module folder has a layer', () => {
    const folders = readdirSync(modulesDir).filter((name) => statSafe(join(modulesDir, name)));
    expect(folders.filter((name) => !(name in LAYERS))).toEqual([]);
  });

  it('a module imports only modules of a lower layer (no sideways or upward import)', () => {
    const wrong = all.filter((e) => (LAYERS[e.to] ?? 0) >= (LAYERS[e.from] ?? 0)).map((e) => `${e.file} imports ${e.spec} (${e.from}, layer ${LAYERS[e.from]} → ${e.to}, layer ${LAYERS[e.to]})`);
    expect(wrong).toEqual([]);
  });

  it('the module import graph has no cycle and is at most four modules deep', () => {
    const next = new Map<string, Set<string>>();
    for (const e of all) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
    const depth = (name: string, path: string[]): number => {
      if (path.includes(name)) throw new Error(`cycle: ${[...path, name].join(' → ')}`);
      return 1 + Math.max(0, ...[...(next.get(name) ?? [])].map((to) => depth(to, [...path, name])));
    };
    const deepest = Math.max(...Object.keys(LAYERS).map((name) => depth(name, [])));
    expect(deepest).toBeLessThanOrEqual(4);
  });

  it('below the modules: adapters and the money core import no domain module, and the adapters no cycle (type imports too)', () => {
    const areaOf = (path: string): string | null => {
      const parts = relative(src, path).split(sep);
      if (parts[0] === 'money') return 'money';
      return parts[0] === 'providers' && parts.length > 2 ? `providers/${parts[1] ?? ''}` : null;
    };
    const below = new Map<string, Set<string>>();
    const upward: string[] = [];
    for (const file of [...files(join(src, 'money')), ...files(join(src, 'providers'))]) {
      const from = areaOf(file);
      if (!from) continue;
      for (const ref of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        if (!ref.fileName.startsWith('.')) continue;
        const target = resolve(dirname(file), ref.fileName);
        const path = statSafe(target) ? join(target, 'index.ts') : `${target}.ts`;
        if (moduleOf(path)) upward.push(`${relative(src, file)} imports ${ref.fileName}`);
        const to = areaOf(path);
        if (to && to !== from) below.set(from, (below.get(from) ?? new Set()).add(to));
      }
    }
    expect(upward).toEqual([]);
    const depth = (name: string, path: string[]): number => {
      if (path.includes(name)) throw new Error(`cycle: ${[...path, name].join(' → ')}`);
      return 1 + Math.max(0, ...[...(below.get(name) ?? [])].map((to) => depth(to, [...path, name])));
    };
    // An adapter may read another's format (slips read bank codes): one step, never back.
    expect(Math.max(0, ...[...below.keys()].map((name) => depth(name, [])))).toBeLessThanOrEqual(2);
  });

  it('catches an import it is meant to catch (the checker itself)', () => {
    // A settings file importing wallet would be upward: the rule above must see such an edge.
    const sample = ts.preProcessFile("import type { X } from '../wallet/game-service';\nexport { y } from '../bonus';", true, true);
    expect(sample.importedFiles.map((f) => f.fileName)).toEqual(['../wallet/game-service', '../bonus']);
  });
});
