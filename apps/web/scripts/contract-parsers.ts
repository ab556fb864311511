// Generates src/shared/api/contractParsers.generated.ts: zod-free parsers of the contract answers the
// member's first screens read, emitted from the contract's own zod schemas.
//
// The rule: code in the first download (the entry, the member layout, the dashboard) does not
// import zod or a contract schema — zod is ≈22 KB gzipped, and building the schemas is one of the
// longest tasks of the dashboard's start on a phone. Such code checks an answer with a parser
// generated here instead of a hand-written copy of the schema. `npm run build -w @mw/web` runs this
// first; test/contractParsers.test.ts fails when the committed file is not what this writes, and
// proves each parser says what its schema says (samples generated from the schema, then mutated).
// `zod/mini` was weighed: the wallet, slot-refresh and spin-active schemas in it bundle to 6.5 KB
// gzipped (minified, with its core), these parsers to 0.8 KB. (The guest pages' two lookups in
// shared/api/lookups.ts still have hand-written parsers, kept in step by test/siteLookups.test.ts.)
//
// It handles the schema kinds those answers use (object, strict and loose object, array, string,
// number, int, boolean, enum, literal, nullable, optional) and stops with an error on anything else
// (a refinement, a transform, a string check…): teach it the new kind, or keep that schema out of
// the first download.
//
// Usage: tsx apps/web/scripts/contract-parsers.ts [--check]   (--check: fail when the file is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import * as bonusContract from '@mw/contract/bonus';
import * as responsibleContract from '@mw/contract/responsible';
import * as spinContract from '@mw/contract/spin';
import * as walletContract from '@mw/contract/wallet';

const { bonusEndpoints } = bonusContract;
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

/** The answers parsed without zod: the home dashboard's calls on entry. */
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
];

export const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), '../src/shared/api/contractParsers.generated.ts');

const RUNTIME = `/** Thrown inside a parser when a value does not fit; turned into \`success: false\`. */
class Mismatch extends Error {}

type Check = (value: unknown) => unknown;

const fail = (): never => {
  throw new Mismatch();
};
const is =
  (test: (value: unknown) => boolean): Check =>
  (value) =>
    test(value) ? value : fail();
const string = is((value) => typeof value === 'string');
/** z.number(): finite numbers only. */
const number = is(Number.isFinite);
/** z.number().int(): safe integers. */
const integer = is(Number.isSafeInteger);
const boolean = is((value) => typeof value === 'boolean');
/** z.enum() and z.literal(). */
const oneOf = (values: readonly unknown[]) => is((value) => values.includes(value));
const nullable =
  (inner: Check): Check =>
  (value) =>
    value === null ? null : inner(value);
const optional =
  (inner: Check): Check =>
  (value) =>
    value === undefined ? undefined : inner(value);
const array =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) ? value.map((element) => item(element)) : fail();
/**
 * z.object() (unknown keys dropped), z.strictObject() (refused: \`strict\`) or z.looseObject() (kept:
 * \`loose\`); a key missing from the answer stays missing.
 */
const object =
  (shape: Record<string, Check>, unknownKeys?: 'strict' | 'loose'): Check =>
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail();
    const input = value as Record<string, unknown>;
    const output: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      if (Object.hasOwn(shape, key)) continue;
      if (unknownKeys === 'strict') fail();
      if (unknownKeys === 'loose') output[key] = input[key];
    }
    for (const [key, check] of Object.entries(shape)) {
      const checked = check(input[key]);
      if (checked !== undefined || Object.hasOwn(input, key)) output[key] = checked;
    }
    return output;
  };

function parser<T>(check: Check): ResponseParser<T> {
  return {
    safeParse(value) {
      try {
        // The cast is what test/contractParsers.test.ts proves: the check accepts exactly what the schema accepts.
        return { success: true, data: check(value) as T };
      } catch (error) {
        if (error instanceof Mismatch) return { success: false };
        throw error;
      }
    },
  };
}`;

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
  for (const module of [walletContract, spinContract, bonusContract]) for (const [name, value] of Object.entries(module)) if (!exported.has(value)) exported.set(value, name);

  const emit = (schema: z.core.$ZodType, indent = ''): string => {
    const existing = named.get(schema);
    if (existing) return existing;
    const checks = checksOf(schema);
    const noChecks = () => {
      if (checks.length > 0) unsupported(schema, ` with the check ${checks.map((c) => c.check).join(', ')}`);
    };
    if (schema instanceof z.ZodString) {
      noChecks();
      return 'string';
    }
    if (schema instanceof z.ZodNumber) {
      if (checks.length === 0) return 'number';
      if (checks.length === 1 && checks[0]?.check === 'number_format' && checks[0].format === 'safeint') return 'integer';
      return unsupported(schema, ` with the check ${checks.map((c) => c.format ?? c.check).join(', ')}`);
    }
    if (schema instanceof z.ZodBoolean) {
      noChecks();
      return 'boolean';
    }
    if (schema instanceof z.ZodEnum) {
      noChecks();
      return `oneOf(${quote(Object.values(schema.enum as Record<string, string | number>))})`;
    }
    if (schema instanceof z.ZodLiteral) {
      noChecks();
      const values = [...schema.values];
      if (values.some((value) => value === undefined || typeof value === 'bigint')) unsupported(schema, ' of undefined or a bigint');
      return `oneOf(${quote(values)})`;
    }
    if (schema instanceof z.ZodNullable) return `nullable(${emit(schema.unwrap(), indent)})`;
    if (schema instanceof z.ZodOptional) return `optional(${emit(schema.unwrap(), indent)})`;
    if (schema instanceof z.ZodArray) {
      noChecks();
      return `array(${emit(schema.element, indent)})`;
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
      const code = `object({\n${entries.join('\n')}\n${shared ? '' : indent}}${unknownKeys})`;
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
      `export const ${target.name}: ResponseParser<${type}> = parser(${check});`,
    ].join('\n');
  });

  const contractImports = new Map<string, Set<string>>();
  for (const target of targets) contractImports.set(target.from.module, (contractImports.get(target.from.module) ?? new Set()).add(target.from.object));
  const imports = [
    "import type { z } from 'zod';",
    ...[...contractImports].sort(([a], [b]) => a.localeCompare(b)).map(([module, objects]) => `import type { ${[...objects].sort().join(', ')} } from '@mw/contract/${module}';`),
    "import type { ResponseParser } from './client';",
  ];

  return `${[
    '// Generated by apps/web/scripts/contract-parsers.ts from the contract\'s zod schemas: do not edit.',
    '// Zod-free parsers for the first download (the rule is written there); test/contractParsers.test.ts',
    '// proves each one accepts and returns what its schema does.',
    imports.join('\n'),
    RUNTIME,
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
