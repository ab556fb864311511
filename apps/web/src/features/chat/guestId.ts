import { STORAGE_KEYS } from '@mw/contract/constants';
import { request, type ResponseParser } from '../../shared/api/client';
import { readStorage, removeStorage, writeStorage } from '../../shared/storage';

// zod-free (the bubble stays light): the answer of POST /api/chat/guest.
const guestParser: ResponseParser<{ guestId: string }> = {
  safeParse: (value) =>
    typeof value === 'object' && value !== null && typeof (value as { guestId?: unknown }).guestId === 'string' ? { success: true, data: { guestId: (value as { guestId: string }).guestId } } : { success: false },
};

/** The guest session this browser holds (`guest-id`), if any: the server issued it (`<uuid>.<signature>`), or it is a bare UUID an older version made. */
export function storedGuestId(): string | null {
  const stored = readStorage('local', STORAGE_KEYS.guestId);
  return stored && stored.length <= 64 ? stored : null;
}

/**
 * The guest session to chat with: the stored one sent to POST /api/chat/guest, which answers it
 * as it is when the server issued it, adopts a bare UUID of an earlier conversation once, and
 * otherwise (a value it did not sign, none at all) issues a new one. Kept under `guest-id`.
 */
export async function guestSession(): Promise<string> {
  const { guestId } = await request('/api/chat/guest', guestParser, { method: 'POST', body: { guestId: storedGuestId() }, background: true });
  writeStorage('local', STORAGE_KEYS.guestId, guestId);
  return guestId;
}

/** After a member's conversation took the guest's over, this browser's next guest conversation starts fresh (the server issues a new session). */
export function renewGuestId(): void {
  removeStorage('local', STORAGE_KEYS.guestId);
}
