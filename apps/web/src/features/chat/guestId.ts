import { STORAGE_KEYS } from '@mw/contract/constants';
import { readStorage, writeStorage } from '../../shared/storage';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The guest id of this browser (`guest-id`), made once with crypto.randomUUID (122 random bits). */
export function guestId(): string {
  const stored = readStorage('local', STORAGE_KEYS.guestId);
  if (stored && UUID_V4.test(stored)) return stored;
  const made = crypto.randomUUID();
  writeStorage('local', STORAGE_KEYS.guestId, made);
  return made;
}

/** After a member's conversation took the guest's over, this browser's next guest conversation starts fresh. */
export function renewGuestId(): void {
  writeStorage('local', STORAGE_KEYS.guestId, crypto.randomUUID());
}
