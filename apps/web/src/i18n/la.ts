import type { Messages } from './messages';
import { laGuest } from './la.guest';
import { laMember } from './la.member';

/** Lao (the app's locale id is `la`; its BCP 47 tag is `lo`). */
export const la: Messages = { ...laGuest, ...laMember };
