// The default locale's guest texts after the first screen (see defaultMessages.ts): the other guest
// pages', the error messages, the installable app's. The member screens' are in
// defaultMemberLaterMessages.ts. The Laos build aliases it to .laos.ts.
import { thLater } from './th.later';

export const defaultLaterMessages = { ...thLater };
