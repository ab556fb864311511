import { z } from 'zod';
import { endpoint } from '../http';
import { awaitingApprovalSchema } from './payout';

/**
 * Risk flags (issue 34): signals that several accounts may be one person, or that money passes
 * through the wallet without play. A flag names its members and its evidence; it never blocks a
 * player — it makes work for people: a queue to resolve or dismiss (with a note), and a second
 * review (four eyes) of any withdrawal of a member with an open flag.
 */

const op = { auth: false, operator: 'operator', domain: 'risk', added: true } as const;
const idParams = z.object({ id: z.string().min(1).max(64) });

export const RISK_FLAG_KINDS = [
  /** Registrations with the same bank account number (its digits, at any bank). */
  'same-bank-account',
  /** Registrations from the same device id (the member app's `X-Device-Id`). */
  'same-device',
  /** Registrations from the same client address within the rule's hours. */
  'same-address',
  /** A one-time (welcome, first-deposit) bonus taken from a device or address another claimer used. */
  'shared-bonus',
  /** A withdrawal asked while the stakes since the last deposit are under the rule's share of it. */
  'low-turnover',
  /** Many failed logins, then a success from a device the member never used. */
  'login-new-device',
  /** The member's name and their bank account's holder name differ. */
  'name-mismatch',
] as const;
export type RiskFlagKind = (typeof RISK_FLAG_KINDS)[number];

export const riskFlagStatusSchema = z.enum(['open', 'resolved', 'dismissed']);

/** A member a flag names, as the queue shows them side by side. */
export const riskMemberSchema = z.looseObject({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  bankCode: z.string(),
  bankAccountNo: z.string(),
  bankAccountName: z.string(),
  status: z.string(),
  createdAt: z.string(),
});

export const riskFlagSchema = z.looseObject({
  id: z.string(),
  kind: z.enum(RISK_FLAG_KINDS),
  memberIds: z.array(z.string()),
  /** What raised it: the shared device, address or account, the claims, the deposit and the stakes, … */
  evidence: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  status: riskFlagStatusSchema,
  note: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  members: z.array(riskMemberSchema),
});

/**
 * The rules (owner's settings, audited). A count of 0 (or `false`) switches a signal off.
 * Defaults: every signal on; 2 registrations share a device or an address (within 24 h);
 * a withdrawal needs stakes of 100 % of the last deposit; 5 failed logins within 60 minutes.
 */
export const riskRulesSchema = z.strictObject({
  sameBankAccount: z.boolean(),
  /** How many registrations on one device raise a flag (0: off). */
  sameDeviceRegistrations: z.number().int().min(0).max(100),
  /** How many registrations from one address within `sameAddressHours` raise a flag (0: off). */
  sameAddressRegistrations: z.number().int().min(0).max(1000),
  sameAddressHours: z.number().int().min(1).max(24 * 30),
  sharedBonus: z.boolean(),
  /** Stakes since the last deposit under this percent of it flag a withdrawal (0: off). */
  withdrawalTurnoverPercent: z.number().min(0).max(10_000),
  /** Failed logins (within `failedLoginMinutes`) before a success from a new device raise a flag (0: off). */
  failedLogins: z.number().int().min(0).max(1000),
  failedLoginMinutes: z.number().int().min(1).max(24 * 60),
  nameMismatch: z.boolean(),
});
export type RiskRules = z.output<typeof riskRulesSchema>;

export const DEFAULT_RISK_RULES: RiskRules = {
  sameBankAccount: true,
  sameDeviceRegistrations: 2,
  sameAddressRegistrations: 2,
  sameAddressHours: 24,
  sharedBonus: true,
  withdrawalTurnoverPercent: 100,
  failedLogins: 5,
  failedLoginMinutes: 60,
  nameMismatch: true,
};

/** Why a person closes a flag: required, non-empty (400 NOTE_REQUIRED otherwise). */
const decisionBody = z.object({ note: z.string().max(1000).nullish() }).nullish();

export const riskOperatorCalls = {
  riskFlagsList: endpoint({
    ...op, method: 'GET', path: '/api/operator/risk/flags', roles: ['finance', 'support'],
    query: z.object({
      /** `resolved` lists every flag a person closed (resolved or dismissed); `dismissed` only those. */
      status: z.enum(['open', 'resolved', 'dismissed', 'all']).default('all'),
      kind: z.enum(RISK_FLAG_KINDS).optional(),
      memberId: z.string().min(1).max(64).optional(),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    }),
    response: z.looseObject({ flags: z.array(riskFlagSchema), total: z.number().int() }),
    description: 'Risk flags, newest first, each with its members and evidence.',
  }),
  riskFlagResolve: endpoint({
    ...op, method: 'POST', path: '/api/operator/risk/flags/:id/resolve', roles: ['finance'], params: idParams, body: decisionBody, response: riskFlagSchema,
    description: 'The flag was real and is dealt with; a note is required (400 NOTE_REQUIRED). Audited.',
  }),
  riskFlagDismiss: endpoint({
    ...op, method: 'POST', path: '/api/operator/risk/flags/:id/dismiss', roles: ['finance'], params: idParams, body: decisionBody, response: riskFlagSchema,
    description: 'The flag was no problem; a note is required (400 NOTE_REQUIRED). Audited.',
  }),
  riskRulesGet: endpoint({
    ...op, method: 'GET', path: '/api/operator/risk/rules', roles: ['finance', 'support'], response: riskRulesSchema,
    description: 'The signals\' rules (defaults in docs/back-office.md).',
  }),
  riskRulesPut: endpoint({
    ...op, method: 'PUT', path: '/api/operator/risk/rules', roles: [], body: riskRulesSchema, response: z.union([riskRulesSchema, awaitingApprovalSchema]),
    description: 'Owner only; audited with before and after. Tightening applies at once; loosening a rule (a check off, a count raised or 0, the turnover percent or a window lowered) answers 202 with the approval a second person runs (over the rules as they were when asked, else 422 CHANGED_SINCE_REQUEST).',
  }),
};
