export { laMemberFirst as defaultMemberMessages } from './la.memberFirst';
