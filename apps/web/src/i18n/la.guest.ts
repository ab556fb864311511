import { laFirst } from './la.first';
import { laLater } from './la.later';
import type { GuestMessages } from './messages';

/** Lao texts of the guest pages and of everything on every page (la.first.ts, the Laos build's entry bundle, and la.later.ts). */
export const laGuest: GuestMessages = { ...laFirst, ...laLater };
