// The default locale's guest texts after the first screen (see defaultMessages.ts); the Laos build aliases it to .laos.ts.
export { thLater as defaultLaterMessages } from './th.later';
