import { operatorCalls, type OperatorCallName } from '@mw/contract/operator/index';
import type { EndpointDef } from '@mw/contract/http';
import type { OperatorRole as Role } from '@mw/contract/admin';

/**
 * What each role may do is the contract's: each operator call's `roles` field (owner may call
 * everything). A screen's capability is the call that decides it, so the back office cannot show a
 * button the server would refuse, nor hide one it would run; operator-roles.test.ts checks every
 * capability names a call. (The server refuses anything else with 403 FORBIDDEN_ROLE; the screens
 * only hide what a role cannot use.)
 */
export const CAPABILITIES = {
  dashboard: 'dashboard',
  approvals: 'approvalsList',
  withdrawals: 'withdrawalApprove',
  'slips.read': 'slipsList',
  'slips.decide': 'slipApprove',
  deposits: 'depositsUnmatched',
  held: 'heldRelease',
  'members.read': 'membersSearch',
  'members.manage': 'memberLock',
  'members.money': 'depositManual',
  'members.tags': 'memberTagsPut',
  risk: 'riskFlagsList',
  'risk.decide': 'riskFlagResolve',
  'risk.rules': 'riskRulesPut',
  chat: 'chatThreads',
  promotions: 'bonusPut',
  settings: 'operatorSetting',
  operators: 'operatorCreate',
  audit: 'operatorAudit',
  sandbox: 'sandboxClock',
  reports: 'reportBonusCost',
  reconciliation: 'reconciliation',
} as const satisfies Record<string, OperatorCallName>;

export type Capability = keyof typeof CAPABILITIES;

/** Whether `role` may make the call (a call name) or use the capability (the call that decides it). */
export function can(role: Role | undefined, capability: Capability | OperatorCallName): boolean {
  if (!role) return false;
  if (role === 'owner') return true;
  const name: OperatorCallName = capability in CAPABILITIES ? CAPABILITIES[capability as Capability] : (capability as OperatorCallName);
  const def: EndpointDef = operatorCalls[name];
  return (def.roles ?? []).includes(role);
}
