// Generates src/shared/api/contractParsers.generated.ts: zod-free parsers of the contract answers the
// member's first screens read, emitted from the contract's own zod schemas.
//
// The rule: code in the first download (the entry, the member layout, the dashboard) does not
// import zod or a contract schema — zod is ≈22 KB gzipped, and building the schemas is one of the
// longest tasks of the dashboard's start on a phone. Such code checks an answer with a parser
// generated here instead of a hand-written copy of the schema. The parsers are built from the small
// checks of src/shared/api/parserRuntime.ts (one per schema kind, written and typed by hand); this
// writes only how they compose, and the import of those it uses. `npm run build -w @mw/web` runs this
// first; test/contractParsers.test.ts fails when the committed file is not what this writes, and
// proves each parser says what its schema says (samples generated from the schema, then mutated).
// `zod/mini` was weighed: the wallet, slot-refresh and spin-active schemas in it bundle to 6.5 KB
// gzipped (minified, with its core), these parsers to 0.8 KB. (The guest pages' two lookups in
// shared/api/lookups.ts still have hand-written parsers, kept in step by test/siteLookups.test.ts.)
//
// It handles the schema kinds those answers use (object, strict and loose object, array, string,
// number, int, boolean, enum, literal, nullable, optional) and stops with an error on anything else
// (a refinement, a transform, a string check…): teach it the new kind (here, and its check in
// parserRuntime.ts), or keep that schema out of the first download.
//
// Usage: tsx apps/web/scripts/contract-parsers.ts [--check]   (--check: fail when the file is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import * as bonusContract from '@mw/contract/bonus';
import * as lookupsContract from '@mw/contract/lookups';
import * as responsibleContract from '@mw/contract/responsible';
import * as spinContract from '@mw/contract/spin';
import * as walletContract from '@mw/contract/wallet';
import type * as runtime from '../src/shared/api/parserRuntime';

const { bonusEndpoints } = bonusContract;
const { lookupEndpoints } = lookupsContract;
const { responsibleEndpoints } = responsibleContract;
const { spinEndpoints } = spinContract;
const { walletEndpoints } = walletContract;

interface Target {
  /** The exported parser's name. */
  name: string;
  /** The exported path constant's name. */
  pathName: string;
  /** Where the contract declares the call: the module, its endpoints object and the call. */
  from: { module: string; object: string; call: string };
  endpoint: { path: string; method: string; response: z.ZodType };
}

/** The answers parsed without zod: the home dashboard's and the member layout's calls. */
export const targets: Target[] = [
  { name: 'walletResponseParser', pathName: 'WALLET_PATH', from: { module: 'wallet', object: 'walletEndpoints', call: 'wallet' }, endpoint: walletEndpoints.wallet },
  {
    name: 'refreshSlotsParser',
    pathName: 'WALLET_REFRESH_SLOT_PATH',
    from: { module: 'wallet', object: 'walletEndpoints', call: 'walletRefreshSlot' },
    endpoint: walletEndpoints.walletRefreshSlot,
  },
  { name: 'spinActiveParser', pathName: 'SPIN_ACTIVE_PATH', from: { module: 'spin', object: 'spinEndpoints', call: 'spinActive' }, endpoint: spinEndpoints.spinActive },
  {
    name: 'bonusProgressParser',
    pathName: 'BONUS_PROGRESS_PATH',
    from: { module: 'bonus', object: 'bonusEndpoints', call: 'bonusProgress' },
    endpoint: bonusEndpoints.bonusProgress,
  },
  // The member layout's reality check reads the member's responsible-play state on every screen.
  {
    name: 'responsibleStateParser',
    pathName: 'RESPONSIBLE_PATH',
    from: { module: 'responsible', object: 'responsibleEndpoints', call: 'responsibleGet' },
    endpoint: responsibleEndpoints.responsibleGet,
  },
  // The bank list names a paid withdrawal's bank in the member layout's balance toast (and the
  // registration's choice): with zod it brought zod and the lookups contract to every member page.
  {
    name: 'lookupBanksParser',
    pathName: 'LOOKUP_BANKS_PATH',
    from: { module: 'lookups', object: 'lookupEndpoints', call: 'lookupBanks' },
    endpoint: lookupEndpoints.lookupBanks,
  },
];

export const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), '../src/shared/api/contractParsers.generated.ts');

/** A check of parserRuntime.ts, by its export's name: a name it does not export fails typecheck here. */
type RuntimeName = keyof typeof runtime;

/** A string or a list of values as TypeScript source, single-quoted. */
const quote = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map(quote).join(', ')}]` : typeof value === 'string' ? `'${JSON.stringify(value).slice(1, -1).replace(/'/g, "\\'")}'` : JSON.stringify(value);
const key = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name));

function unsupported(schema: z.core.$ZodType, detail = ''): never {
  throw new Error(`contract-parsers: cannot generate a parser for a ${schema._zod.def.type} schema${detail} (see the comment at the top of the generator)`);
}

/** The checks of a schema (e.g. `.int()`), each as its definition's name and format. */
function checksOf(schema: z.core.$ZodType): Array<{ check: string; format?: string }> {
  return (schema._zod.def.checks ?? []).map((check) => check._zod.def as { check: string; format?: string });
}

/** Generates the parsers' module from the contract as it is now. */
export function generateParsers(): string {
  // Objects met more than once (a game account is in two answers) become one constant.
  const seen = new Map<z.core.$ZodType, number>();
  const count = (schema: z.core.$ZodType): void => {
    seen.set(schema, (seen.get(schema) ?? 0) + 1);
    if ((seen.get(schema) ?? 0) > 1) return;
    if (schema instanceof z.ZodObject) for (const child of Object.values(schema.shape as Record<string, z.ZodType>)) count(child);
    else if (schema instanceof z.ZodArray) count(schema.element);
    else if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) count(schema.unwrap());
  };
  for (const target of targets) count(target.endpoint.response);

  const constants: string[] = [];
  const named = new Map<z.core.$ZodType, string>();
  // A shared object's constant takes the name the contract exports it under (gameAccountSchema).
  const exported = new Map<unknown, string>();
  for (const module of [walletContract, spinContract, bonusContract, lookupsContract]) for (const [name, value] of Object.entries(module)) if (!exported.has(value)) exported.set(value, name);

  // The runtime's checks the parsers use, imported by name (an unused import would fail lint).
  const used = new Set<RuntimeName>();
  const ref = (name: RuntimeName): string => {
    used.add(name);
    return name;
  };

  const emit = (schema: z.core.$ZodType, indent = ''): string => {
    const existing = named.get(schema);
    if (existing) return existing;
    const checks = checksOf(schema);
    const noChecks = () => {
      if (checks.length > 0) unsupported(schema, ` with the check ${checks.map((c) => c.check).join(', ')}`);
    };
    if (schema instanceof z.ZodString) {
      noChecks();
      return ref('string');
    }
    if (schema instanceof z.ZodNumber) {
      if (checks.length === 0) return ref('number');
      if (checks.length === 1 && checks[0]?.check === 'number_format' && checks[0].format === 'safeint') return ref('integer');
      return unsupported(schema, ` with the check ${checks.map((c) => c.format ?? c.check).join(', ')}`);
    }
    if (schema instanceof z.ZodBoolean) {
      noChecks();
      return ref('boolean');
    }
    if (schema instanceof z.ZodEnum) {
      noChecks();
      return `${ref('oneOf')}(${quote(Object.values(schema.enum as Record<string, string | number>))})`;
    }
    if (schema instanceof z.ZodLiteral) {
      noChecks();
      const values = [...schema.values];
      if (values.some((value) => value === undefined || typeof value === 'bigint')) unsupported(schema, ' of undefined or a bigint');
      return `${ref('oneOf')}(${quote(values)})`;
    }
    if (schema instanceof z.ZodNullable) return `${ref('nullable')}(${emit(schema.unwrap(), indent)})`;
    if (schema instanceof z.ZodOptional) return `${ref('optional')}(${emit(schema.unwrap(), indent)})`;
    if (schema instanceof z.ZodArray) {
      noChecks();
      return `${ref('array')}(${emit(schema.element, indent)})`;
    }
    if (schema instanceof z.ZodObject) {
      noChecks();
      const catchall = schema._zod.def.catchall;
      let unknownKeys = '';
      if (catchall instanceof z.ZodNever) unknownKeys = ", 'strict'";
      else if (catchall instanceof z.ZodUnknown || catchall instanceof z.ZodAny) unknownKeys = ", 'loose'";
      else if (catchall !== undefined) unsupported(schema, ' with a catchall');
      const shared = (seen.get(schema) ?? 0) > 1;
      const inner = shared ? '  ' : `${indent}  `;
      const entries = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, child]) => `${inner}${key(name)}: ${emit(child, inner)},`);
      const code = `${ref('object')}({\n${entries.join('\n')}\n${shared ? '' : indent}}${unknownKeys})`;
      if (!shared) return code;
      const name = exported.get(schema) ?? `object${named.size + 1}`;
      constants.push(`const ${name} = ${code};`);
      named.set(schema, name);
      return name;
    }
    return unsupported(schema);
  };

  const exports = targets.map((target) => {
    const check = emit(target.endpoint.response);
    const type = `z.output<(typeof ${target.from.object})[${quote(target.from.call)}]['response']>`;
    return [
      `/** ${target.endpoint.method} ${target.endpoint.path}: ${target.from.object}.${target.from.call}.response of @mw/contract/${target.from.module}. */`,
      `export const ${target.pathName} = ${quote(target.endpoint.path)};`,
      `export const ${target.name}: ResponseParser<${type}> = ${ref('parser')}(${check});`,
    ].join('\n');
  });

  const contractImports = new Map<string, Set<string>>();
  for (const target of targets) contractImports.set(target.from.module, (contractImports.get(target.from.module) ?? new Set()).add(target.from.object));
  const imports = [
    "import type { z } from 'zod';",
    ...[...contractImports].sort(([a], [b]) => a.localeCompare(b)).map(([module, objects]) => `import type { ${[...objects].sort().join(', ')} } from '@mw/contract/${module}';`),
    "import type { ResponseParser } from './client';",
    `import { ${[...used].sort().join(', ')} } from './parserRuntime';`,
  ];

  return `${[
    '// Generated by apps/web/scripts/contract-parsers.ts from the contract\'s zod schemas: do not edit.',
    '// Zod-free parsers for the first download (the rule is written there); test/contractParsers.test.ts',
    '// proves each one accepts and returns what its schema does.',
    imports.join('\n'),
    ...constants,
    ...exports,
  ].join('\n\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const code = generateParsers();
  let current = '';
  try {
    current = readFileSync(OUTPUT, 'utf8');
  } catch {
    // not generated yet
  }
  if (process.argv.includes('--check')) {
    if (current !== code) {
      console.error(`${OUTPUT} is not what the contract generates: run npx tsx apps/web/scripts/contract-parsers.ts`);
      process.exit(1);
    }
  } else if (current !== code) {
    writeFileSync(OUTPUT, code);
    console.log(`wrote ${OUTPUT}`);
  }
}
