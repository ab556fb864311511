import { thGuest } from './th.guest';
import { thMember } from './th.member';

/** Thai, the default locale. Its shape is the shape of every locale (see messages.ts). */
export const th = { ...thGuest, ...thMember };
