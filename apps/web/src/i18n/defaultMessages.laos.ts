export { laGuest as defaultMessages } from './la.guest';
