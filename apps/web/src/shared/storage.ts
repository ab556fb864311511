/** Web storage that never throws (private modes and sandboxed frames may refuse access). */
type Area = 'local' | 'session';

function area(kind: Area): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStorage(kind: Area, key: string): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(kind: Area, key: string, value: string): void {
  try {
    area(kind)?.setItem(key, value);
  } catch {
    // Storage full or refused: the app keeps working without remembering.
  }
}

export function removeStorage(kind: Area, key: string): void {
  try {
    area(kind)?.removeItem(key);
  } catch {
    // Nothing to remove.
  }
}
