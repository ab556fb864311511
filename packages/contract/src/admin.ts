import { z } from 'zod';
import { endpoint, isoDateSchema, okSchema } from './http';
import { text } from './text';

/**
 * The back office's own calls: operators' login (password, then a TOTP code), their session,
 * enrolment, the management of operators (owner) and the audit log (owner). Operators are not
 * members: these calls are not in `endpoints` (the member app's list), and the server answers
 * them in its operators module. Error codes: admin-errors.ts (and the README).
 */

export const OPERATOR_ROLES = ['owner', 'finance', 'support', 'marketing'] as const;
export const operatorRoleSchema = z.enum(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof operatorRoleSchema>;

export const OPERATOR_STATUSES = ['active', 'disabled', 'pending-enrolment'] as const;
export const operatorStatusSchema = z.enum(OPERATOR_STATUSES);
export type OperatorStatus = z.infer<typeof operatorStatusSchema>;

/** Operator passwords: 12–128 characters (a password manager's, or a passphrase). */
export const OPERATOR_PASSWORD_MIN = 12;
export const OPERATOR_PASSWORD_MAX = 128;
/** Usernames: 3–32 of a–z, 0–9, `.`, `-`, `_` (lowercased on the way in). */
export const OPERATOR_USERNAME = /^[a-z0-9._-]{3,32}$/;

const password = text(OPERATOR_PASSWORD_MAX * 4);
const totpCode = z.string().regex(/^\d{6}$/, 'six digits');

export const adminLoginSchema = z.strictObject({ username: text(64), password });
export const adminLoginResponseSchema = z.object({ challenge: z.string() });
export const adminTotpSchema = z.strictObject({ challenge: text(128), code: totpCode });
export const operatorSelfSchema = z.object({ username: z.string(), name: z.string(), role: operatorRoleSchema });
export type OperatorSelf = z.infer<typeof operatorSelfSchema>;
export const adminSessionSchema = z.object({ token: z.string(), operator: operatorSelfSchema });
export const adminMeSchema = operatorSelfSchema.extend({
  id: z.string(),
  /** `session`, or `api-key` for OPERATOR_TOKEN (the automation key, role owner). */
  via: z.enum(['session', 'api-key']),
  sessionExpiresAt: isoDateSchema.nullable(),
});
export const adminPasswordSchema = z.strictObject({ oldPassword: password, newPassword: password });

export const enrolmentSchema = z.object({
  /** The one-time token of the link (also in `link`). */
  token: z.string(),
  /** `PUBLIC_URL/admin/enrol/<token>`: the page that shows the QR once and sets the password. */
  link: z.string(),
  expiresAt: isoDateSchema,
});
export const enrolmentViewSchema = z.object({
  username: z.string(),
  name: z.string(),
  role: operatorRoleSchema,
  /** `otpauth://totp/<issuer>:<username>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30` */
  otpauthUri: z.string(),
  /** The secret in base32, for typing it in. */
  secret: z.string(),
  /** The QR of `otpauthUri` as an SVG data URL. */
  qrDataUrl: z.string(),
});
export const enrolmentFinishSchema = z.strictObject({ password, code: totpCode });

export const operatorSchema = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  role: operatorRoleSchema,
  status: operatorStatusSchema,
  createdAt: isoDateSchema,
  lastLoginAt: isoDateSchema.nullable(),
});
export type Operator = z.infer<typeof operatorSchema>;
export const operatorListSchema = z.object({ operators: z.array(operatorSchema) });
export const operatorCreateSchema = z.strictObject({ username: text(64), name: text(100).optional(), role: operatorRoleSchema });
export const operatorCreatedSchema = z.object({ operator: operatorSchema, enrolment: enrolmentSchema });
export const operatorRoleChangeSchema = z.strictObject({ role: operatorRoleSchema });
export const operatorIdParams = z.object({ id: text(64).min(1) });
export const enrolmentParams = z.object({ token: text(128).min(1) });

/** Query of GET /api/operator/audit (every filter optional; newest first). */
export const auditQuerySchema = z.object({
  /** The operator's username, or `api-key`. */
  operator: text(64).optional(),
  /** An action, or its beginning (`login` matches `login`, `login.failed`, …). */
  action: text(200).optional(),
  target: text(200).optional(),
  /** Added: a member's id or phone; the rows about that member (lock, notes) or naming them as memberId in before/after. */
  member: text(64).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
/** The member an audit entry is about (id and phone), the amount in major units and its currency, and for a four-eyes approval the action asked for. */
export const auditSubjectSchema = z.object({
  memberId: z.string().nullable(),
  phone: z.string().nullable(),
  amount: z.number().nullable(),
  currency: z.enum(['THB', 'LAK']).nullable(),
  request: z.string().nullable(),
});
export type AuditSubject = z.infer<typeof auditSubjectSchema>;
export const auditRowSchema = z.object({
  id: z.string(),
  at: isoDateSchema,
  /** The operator's username; `api-key` for OPERATOR_TOKEN; the name typed for a failed login. */
  operator: z.string(),
  /** The same as `operator` (the word for it). */
  who: z.string(),
  operatorId: z.string().nullable(),
  role: z.string().nullable(),
  action: z.string(),
  /** What was changed: `bonus`, `promotion`, `operator`, … (null for a generic row). */
  entity: z.string().nullable(),
  target: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  address: z.string().nullable(),
  /** With the api-key: the X-Operator header the automation sent, if any. */
  onBehalfOf: z.string().nullable(),
  /** Added, read from the owning domains when the log is read: what the entry is about, for its sentence. */
  subject: auditSubjectSchema.optional(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
export const auditPageSchema = z.object({ rows: z.array(auditRowSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

const admin = { auth: false, domain: 'admin', added: true } as const;

/** The back office's calls, by name (the typed client takes these like `endpoints`). */
export const adminEndpoints = {
  adminLogin: endpoint({
    ...admin, method: 'POST', path: '/api/admin/login', body: adminLoginSchema, response: adminLoginResponseSchema,
    description: 'Checks username and password (401 WRONG_CREDENTIAL for either) and answers a 5-minute challenge for the TOTP step.',
  }),
  adminLoginTotp: endpoint({
    ...admin, method: 'POST', path: '/api/admin/login/totp', body: adminTotpSchema, response: adminSessionSchema,
    description: 'The second step: a TOTP code (±30 s, each code once). 5 wrong codes void the challenge.',
  }),
  adminLogout: endpoint({ ...admin, operator: 'session', method: 'POST', path: '/api/admin/logout', response: okSchema }),
  adminMe: endpoint({ ...admin, operator: 'operator', method: 'GET', path: '/api/admin/me', response: adminMeSchema }),
  adminPassword: endpoint({
    ...admin, operator: 'session', method: 'PUT', path: '/api/admin/password', body: adminPasswordSchema, response: adminSessionSchema,
    description: 'Changes the caller\'s password, revokes every session of theirs (this one too) and answers a new session.',
  }),
  adminEnrolment: endpoint({
    ...admin, method: 'GET', path: '/api/admin/enrol/:token', params: enrolmentParams, response: enrolmentViewSchema,
    description: 'Shows the TOTP secret and its QR, once (409 ENROLMENT_SHOWN after).',
  }),
  adminEnrolmentFinish: endpoint({
    ...admin, method: 'POST', path: '/api/admin/enrol/:token', params: enrolmentParams, body: enrolmentFinishSchema, response: okSchema,
    description: 'Sets the password and proves the authenticator with a code; the operator is then active.',
  }),
  operatorsList: endpoint({ ...admin, operator: 'operator', method: 'GET', path: '/api/operator/operators', roles: [], response: operatorListSchema }),
  operatorCreate: endpoint({
    ...admin, operator: 'operator', method: 'POST', path: '/api/operator/operators', roles: [], body: operatorCreateSchema, response: operatorCreatedSchema,
    description: 'A new operator waiting for enrolment, and its one-time enrolment link.',
  }),
  operatorRole: endpoint({
    ...admin, operator: 'operator', method: 'PUT', path: '/api/operator/operators/:id/role', roles: [], params: operatorIdParams, body: operatorRoleChangeSchema, response: operatorSchema,
  }),
  operatorDisable: endpoint({
    ...admin, operator: 'operator', method: 'POST', path: '/api/operator/operators/:id/disable', roles: [], params: operatorIdParams, response: operatorSchema,
    description: 'Revokes every session of the operator at once.',
  }),
  operatorEnable: endpoint({ ...admin, operator: 'operator', method: 'POST', path: '/api/operator/operators/:id/enable', roles: [], params: operatorIdParams, response: operatorSchema }),
  operatorResetTotp: endpoint({
    ...admin, operator: 'operator', method: 'POST', path: '/api/operator/operators/:id/reset-totp', roles: [], params: operatorIdParams, response: operatorCreatedSchema,
    description: 'A new secret and enrolment link; the operator waits for enrolment (sessions revoked) until they finish it.',
  }),
  operatorAudit: endpoint({ ...admin, operator: 'operator', method: 'GET', path: '/api/operator/audit', roles: [], query: auditQuerySchema, response: auditPageSchema, description: 'The audit log, newest first, filtered and paged.' }),
};
export type AdminEndpoints = typeof adminEndpoints;
