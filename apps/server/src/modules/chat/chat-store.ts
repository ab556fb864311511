import { mkdir, readdir, readFile, rm, stat, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where chat attachments' bytes live: an object store keyed by upload id. The file implementation
 * keeps them under `DATA_DIR/chat-files/` (several processes on one machine share it; processes on
 * several machines need a shared volume or another implementation of this interface, such as an
 * S3 bucket); with `DATA_DIR=memory` (tests) they stay in memory.
 */
export interface ChatObjectStore {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** Removes objects written before `before` (objects a crash left without their row); answers how many. */
  sweep(before: Date): Promise<number>;
}

const KEY = /^[0-9a-f]{24}$/;

function checked(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a chat file key: ${key}`);
  return key;
}

export class MemoryObjectStore implements ChatObjectStore {
  private readonly objects = new Map<string, { bytes: Buffer; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    this.objects.set(checked(key), { bytes, at: this.now() });
  }

  async get(key: string): Promise<Buffer | null> {
    return this.objects.get(key)?.bytes ?? null;
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }

  async sweep(before: Date): Promise<number> {
    let removed = 0;
    for (const [key, entry] of this.objects) {
      if (entry.at < before.getTime()) {
        this.objects.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  /** How many objects it holds (tests). */
  get size(): number {
    return this.objects.size;
  }
}

export class FileObjectStore implements ChatObjectStore {
  constructor(private readonly dir: string) {}

  private pathOf(key: string): string {
    // Two levels by the key's last characters (the first ones are a timestamp): at most 256 folders.
    const k = checked(key);
    return join(this.dir, k.slice(-2), k);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
    // Written whole, then renamed into place: a reader never sees half a file.
    const tmp = `${path}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, path);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async sweep(before: Date): Promise<number> {
    let removed = 0;
    let folders: string[];
    try {
      folders = await readdir(this.dir);
    } catch {
      return 0;
    }
    for (const folder of folders) {
      let names: string[];
      try {
        names = await readdir(join(this.dir, folder));
      } catch {
        continue;
      }
      for (const name of names) {
        const path = join(this.dir, folder, name);
        const info = await stat(path).catch(() => null);
        if (info?.isFile() && info.mtime < before) {
          await rm(path, { force: true });
          removed += 1;
        }
      }
    }
    return removed;
  }
}
