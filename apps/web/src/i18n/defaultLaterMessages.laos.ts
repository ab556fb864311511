export { laLater as defaultLaterMessages } from './la.later';
