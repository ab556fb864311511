// The default locale's messages, bundled with the entry. The Laos build aliases this module to
// defaultMessages.laos.ts (vite.config.ts), so each build ships exactly one locale up front.
export { th as defaultMessages } from './th';
