import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with the configured memory cost. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
  /** Spends the time of one verification, so an unknown user costs what a known one does. */
  burn(password: string): Promise<void>;
}

export function createPasswordHasher(memoryKiB: number): PasswordHasher {
  const options = { memoryCost: memoryKiB, timeCost: 2, parallelism: 1 };
  let dummy: Promise<string> | null = null;
  return {
    hash: (password) => hash(password, options),
    verify: async (hashed, password) => {
      try {
        return await verify(hashed, password);
      } catch {
        return false;
      }
    },
    burn: async (password) => {
      dummy ??= hash('not-a-real-password', options);
      await verify(await dummy, password).catch(() => false);
    },
  };
}
