import { laLater } from './la.later';
import { laMemberLater } from './la.memberLater';

export const defaultLaterMessages = { ...laLater, ...laMemberLater };
