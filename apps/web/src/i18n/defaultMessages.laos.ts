export { laFirst as defaultMessages } from './la.first';
