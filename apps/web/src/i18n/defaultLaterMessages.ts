// The default locale's texts after the first screen (see defaultMessages.ts): the guest pages' and the
// member screens'. The Laos build aliases it to .laos.ts.
import { thLater } from './th.later';
import { thMemberLater } from './th.memberLater';

export const defaultLaterMessages = { ...thLater, ...thMemberLater };
