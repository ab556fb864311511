export { laMember as defaultMemberMessages } from './la.member';
