import { thFirst } from './th.first';
import { thLater } from './th.later';

/** Thai, the default locale: the texts of the guest pages and of everything on every page — the
 * first screen's (th.first.ts, in the entry's bundle) and the rest (th.later.ts). The member
 * area's texts are in th.member.ts; th.ts joins all. */
export const thGuest = { ...thFirst, ...thLater };
