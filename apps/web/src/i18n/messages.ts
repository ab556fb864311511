import type { th } from './th';
import type { thFirst } from './th.first';
import type { thGuest } from './th.guest';
import type { thLater } from './th.later';
import type { thMember } from './th.member';
import type { thMemberFirst } from './th.memberFirst';
import type { thMemberLater } from './th.memberLater';

type DeepString<T> = { [K in keyof T]: T[K] extends string ? string : DeepString<T[K]> };

/** The shape every locale must have: the Thai file's keys, each a string. */
export type Messages = DeepString<typeof th>;
/** The guest pages' half (in the entry's bundle for the default locale). */
export type GuestMessages = DeepString<typeof thGuest>;
/** The guest texts of the first screen (in the entry's bundle for the default locale). */
export type FirstMessages = DeepString<typeof thFirst>;
/** The other guest texts (loaded after the first screen for the default locale). */
export type LaterMessages = DeepString<typeof thLater>;
/** The member area's half. */
export type MemberMessages = DeepString<typeof thMember>;
/** The member texts of the first screens (loaded with the member layout for the default locale). */
export type MemberFirstMessages = DeepString<typeof thMemberFirst>;
/** The member texts of the screens and dialogs beyond the first (loaded with them for the default locale). */
export type MemberLaterMessages = DeepString<typeof thMemberLater>;
