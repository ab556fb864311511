import type { th } from './th';

type DeepString<T> = { [K in keyof T]: T[K] extends string ? string : DeepString<T[K]> };

/** The shape every locale must have: the Thai file's keys, each a string. */
export type Messages = DeepString<typeof th>;
