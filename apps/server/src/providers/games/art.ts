import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ART_FILES = ['logo.svg', 'background.svg'] as const;
export type ArtFile = (typeof ART_FILES)[number];

const here = dirname(fileURLToPath(import.meta.url));
/** Beside this file when run from source (tsx, vitest); from dist/main.js, the source tree's copy. */
const ART_DIRS = [join(here, 'art'), join(here, '../src/providers/games/art'), join(here, '../../src/providers/games/art')];

const cache = new Map<string, string>();

/**
 * The hand-drawn SVG of one provider (art/<CODE>.logo.svg or art/<CODE>.background.svg), read
 * once and kept. `code` must be a code of the catalogue (the caller checks it), so it names a file.
 */
export function gameArt(code: string, file: ArtFile): string {
  const name = `${code}.${file}`;
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  for (const dir of ART_DIRS) {
    try {
      const svg = readFileSync(join(dir, name), 'utf8');
      cache.set(name, svg);
      return svg;
    } catch {
      // try the next place
    }
  }
  throw new Error(`game art ${name} not found`);
}
