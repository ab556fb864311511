import type { th } from './th';
import type { thGuest } from './th.guest';
import type { thMember } from './th.member';

type DeepString<T> = { [K in keyof T]: T[K] extends string ? string : DeepString<T[K]> };

/** The shape every locale must have: the Thai file's keys, each a string. */
export type Messages = DeepString<typeof th>;
/** The guest pages' half (in the entry's bundle for the default locale). */
export type GuestMessages = DeepString<typeof thGuest>;
/** The member area's half (loaded with the member layout for the default locale). */
export type MemberMessages = DeepString<typeof thMember>;
