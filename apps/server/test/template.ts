import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { allMigrations } from '../src/app';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';

/**
 * A migrated embedded database to start every in-memory test app from. PGlite's own start runs
 * initdb (2-4 s on the test machine, most of an embedded app's start); loading a dumped data
 * directory takes about 0.6 s. The dump is kept in the temp folder under a hash of every
 * migration's SQL and PGlite's version, so each test file and worker shares it, and a changed
 * migration makes a new one. Apps still run `migrate` on it (nothing left to apply) and their
 * own seeds, so what a test sees is what a fresh database gives.
 */
let loaded: Promise<Blob> | undefined;

export function embeddedTemplate(): Promise<Blob> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<Blob> {
  const migrations = allMigrations();
  // the package's version (its exports do not include package.json: found from its entry)
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglite = JSON.parse(await readFile(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  const hash = createHash('sha256').update(pglite.version);
  for (const m of migrations) hash.update(`${m.id}\n${m.appliedWith ?? ''}\n${m.sql}\n`);
  const file = join(tmpdir(), `mw-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // not made yet (or being made by another worker: both make it, the rename keeps one whole file)
  }
  const database = await openDatabase({ DATABASE_URL: undefined, DATABASE_SCHEMA: undefined, DATABASE_POOL_SIZE: 1, DATA_DIR: 'memory' });
  try {
    await migrate(database, migrations);
    if (!database.dump) throw new Error('the embedded database cannot be dumped');
    const blob = await database.dump();
    const part = `${file}.${process.pid}.${Date.now()}`;
    await writeFile(part, Buffer.from(await blob.arrayBuffer()));
    await rename(part, file);
    return blob;
  } finally {
    await database.close();
  }
}
