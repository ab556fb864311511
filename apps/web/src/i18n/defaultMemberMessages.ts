// The default locale's member half (see defaultMessages.ts); the Laos build aliases it to .laos.ts.
export { thMember as defaultMemberMessages } from './th.member';
