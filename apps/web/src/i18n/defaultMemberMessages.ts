// The default locale's member texts of the first screens (see defaultMessages.ts); the Laos build aliases it to .laos.ts.
export { thMemberFirst as defaultMemberMessages } from './th.memberFirst';
