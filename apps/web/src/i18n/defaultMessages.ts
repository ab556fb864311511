// The default locale's first-screen texts, bundled with the entry; the rest of its guest texts
// load after the first screen (defaultLaterMessages.ts, i18n.ts loadLaterMessages) and its member
// half comes with the member layout (defaultMemberMessages.ts, memberMessages.ts). The Laos build
// aliases these modules to their .laos.ts twins (vite.config.ts), so each build ships exactly one
// locale up front.
export { thFirst as defaultMessages } from './th.first';
