export { la as defaultMessages } from './la';
