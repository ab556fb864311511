import { laLater } from './la.later';

export const defaultLaterMessages = { ...laLater };
