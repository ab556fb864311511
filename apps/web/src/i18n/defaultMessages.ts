// The default locale's guest half, bundled with the entry; its member half comes with the member
// layout (defaultMemberMessages.ts, memberMessages.ts). The Laos build aliases both modules to
// their .laos.ts twins (vite.config.ts), so each build ships exactly one locale up front.
export { thGuest as defaultMessages } from './th.guest';
