import type { Role } from './session';

/**
 * What each role may do, as the server's role table says (the server refuses anything else with
 * 403 FORBIDDEN_ROLE; the screens only hide what a role cannot use).
 */
export type Capability =
  | 'dashboard'
  | 'withdrawals'
  | 'slips.read'
  | 'slips.decide'
  | 'deposits'
  | 'members.read'
  | 'members.manage'
  | 'members.money'
  | 'chat'
  | 'promotions'
  | 'settings'
  | 'operators'
  | 'audit'
  | 'sandbox';

const MATRIX: Record<Role, readonly Capability[]> = {
  owner: ['dashboard', 'withdrawals', 'slips.read', 'slips.decide', 'deposits', 'members.read', 'members.manage', 'members.money', 'chat', 'promotions', 'settings', 'operators', 'audit', 'sandbox'],
  finance: ['dashboard', 'withdrawals', 'slips.read', 'slips.decide', 'deposits', 'members.read', 'members.money'],
  support: ['dashboard', 'slips.read', 'members.read', 'members.manage', 'chat'],
  marketing: ['dashboard', 'promotions'],
};

export function can(role: Role | undefined, capability: Capability): boolean {
  return role ? MATRIX[role].includes(capability) : false;
}
