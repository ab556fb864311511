import type { en } from './en';

type DeepString<T> = { [K in keyof T]: T[K] extends string ? string : DeepString<T[K]> };

/** The shape every back-office locale has: the English file's keys, each a string. */
export type AdminMessages = DeepString<typeof en>;
