import { laMemberLater } from './la.memberLater';

export const defaultMemberLaterMessages = { ...laMemberLater };
