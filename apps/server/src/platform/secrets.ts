import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
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
  const secret = persisted(dataDir, name, () => randomBytes(32).toString('hex'));
  if (secret.length < 16) throw new Error(`${join(dataDir, 'secrets', name)} holds no usable secret`);
  return secret;
}

/**
 * An RSA key pair (2048 bits) from configuration (the private key as PKCS#8 PEM), or else
 * generated once into `DATA_DIR/secrets/<name>.pem`, like `secretOf`. Answers both keys as PEM
 * (the public one as SPKI).
 */
export function rsaKeyPairOf(configuredPrivatePem: string | undefined, dataDir: string, name: string): { privateKey: string; publicKey: string } {
  const privatePem =
    configuredPrivatePem ??
    persisted(dataDir, `${name}.pem`, () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  const key = createPrivateKey(privatePem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`${name}: an RSA private key is needed`);
  return { privateKey: privatePem, publicKey: createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString() };
}

/** What `make` made once into `DATA_DIR/secrets/<name>` (first writer wins); made afresh with DATA_DIR=memory. */
function persisted(dataDir: string, name: string, make: () => string): string {
  if (dataDir === 'memory') return make();
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  // Written whole to a file of its own, then linked into place: a process that starts at the
  // same moment never reads a half-written secret, and the first link wins.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, make(), { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(file, 'utf8').trim();
}
