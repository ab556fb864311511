import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret from configuration, or else generated once into the data folder
 * (`DATA_DIR/secrets/<name>`, mode 0600) and read from there by every later start and by every
 * process sharing the folder (the first writer wins: the file is created exclusively). With the
 * in-memory data folder of tests (`DATA_DIR=memory`) it is random per process. Several server
 * processes on separate machines must set it in their configuration.
 */
export function secretOf(configured: string | undefined, dataDir: string, name: string): string {
  if (configured) return configured;
  if (dataDir === 'memory') return randomBytes(32).toString('hex');
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written whole to a file of its own, then linked into place: a process that starts at the
  // same moment never reads a half-written secret, and the first link wins.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, randomBytes(32).toString('hex'), { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(tmp);
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 16) throw new Error(`${file} holds no usable secret`);
  return secret;
}
