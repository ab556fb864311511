import { laMemberFirst } from './la.memberFirst';
import { laMemberLater } from './la.memberLater';
import type { MemberMessages } from './messages';

/** Lao texts of the member area only (la.memberFirst.ts and la.memberLater.ts). */
export const laMember: MemberMessages = { ...laMemberFirst, ...laMemberLater };
