import { thMemberFirst } from './th.memberFirst';
import { thMemberLater } from './th.memberLater';

/** Thai texts of the member area only: its first screens' (th.memberFirst.ts) and the others' (th.memberLater.ts). */
export const thMember = { ...thMemberFirst, ...thMemberLater };
