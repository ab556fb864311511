import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Provably fair spins. For each member the server keeps a secret seed and shows its SHA-256
 * before any spin with it. A spin's outcome is the HMAC-SHA256 of `${clientSeed}:${nonce}` under
 * the seed (hex); its first 13 hex digits (52 bits) as a number, modulo the wheel's total weight,
 * walks the slices' weights in their order: the slice whose cumulative weight first exceeds the
 * roll wins. When the member rotates the seed the old one is revealed, so anyone can recompute
 * every spin made with it (bias of the modulo: below total weight / 2^52, nothing at any wheel's
 * scale).
 */
export function newServerSeed(): string {
  return randomBytes(32).toString('hex');
}

export function seedHash(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

/** The roll of a spin: an integer in [0, totalWeight). */
export function spinRoll(seed: string, clientSeed: string, nonce: number, totalWeight: number): number {
  if (!Number.isSafeInteger(totalWeight) || totalWeight <= 0) throw new RangeError('total weight must be a positive integer');
  const hex = createHmac('sha256', seed).update(`${clientSeed}:${nonce}`).digest('hex');
  return Number(BigInt(`0x${hex.slice(0, 13)}`) % BigInt(totalWeight));
}

/** The index of the slice a roll lands on, walking the weights in order. */
export function sliceOf(roll: number, weights: readonly number[]): number {
  let cumulative = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += weights[i] ?? 0;
    if (roll < cumulative) return i;
  }
  throw new RangeError(`roll ${roll} is outside the total weight ${cumulative}`);
}
