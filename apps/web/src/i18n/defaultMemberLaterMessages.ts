// The default locale's member texts after the dashboard (see defaultMessages.ts): loaded with the
// member screens and dialogs that show them, never on a guest page. The Laos build aliases it to .laos.ts.
import { thMemberLater } from './th.memberLater';

export const defaultMemberLaterMessages = { ...thMemberLater };
