import { reportErrorCodes } from './report-errors';

/**
 * The back office's error codes (operators, their sessions, roles and the audit), zod-free like
 * deposit-errors.ts. Every one is in the README ("Operators, roles and the audit"). They are not
 * in errors.ts's `errorCodes`: the member app never meets them, so its message catalogue (and
 * its first bundle) does not carry them; the back office has its own.
 */
export const adminErrorCodes = [
  // 401 UNAUTHORIZED (an operator call without valid credentials) is the spec's own code, in errors.ts.
  /** 401: the operator session passed its lifetime (OPERATOR_SESSION_HOURS) or sat idle longer than OPERATOR_IDLE_MINUTES. */
  'SESSION_EXPIRED',
  /** 403: the operator's role may not make this call (see the roles matrix, platform/operator-roles.ts). */
  'FORBIDDEN_ROLE',
  /** 401: a login challenge that is unknown, expired (5 minutes), already used, or voided by 5 wrong codes. */
  'CHALLENGE_INVALID',
  /** 401: a wrong, out-of-window or already-used TOTP code (the fifth voids the challenge). */
  'WRONG_TOTP',
  /** 403: the right password of a disabled operator. */
  'OPERATOR_DISABLED',
  /** 404: no operator with this id. */
  'NO_OPERATOR',
  /** 409: the username is taken. */
  'OPERATOR_EXISTS',
  /** 400: a username that is not 3–32 lowercase letters, digits, dots, dashes or underscores. */
  'USERNAME_INVALID',
  /** 400: an operator password shorter than 12 or longer than 128 characters. */
  'OPERATOR_PASSWORD_INVALID',
  /** 409: the change would leave no active owner. */
  'LAST_OWNER',
  /** 409: an owner may not disable, or change the role of, their own account. */
  'OWN_ACCOUNT',
  /** 404: an enrolment link that is unknown, expired, already used or replaced by a newer one. */
  'ENROLMENT_INVALID',
  /** 409: the enrolment's secret was shown once already (the QR is shown once); an owner resets TOTP for a new link. */
  'ENROLMENT_SHOWN',
  /** 409: the operator is not active (a disabled one is enabled first; one waiting for enrolment finishes it). */
  'OPERATOR_NOT_ACTIVE',
  /** 403: the automation key (OPERATOR_TOKEN) approves, rejects or cancels no four-eyes request: a second pair of eyes is a person with a session. */
  'API_KEY_NOT_A_PERSON',
  /** 403: the checker was created, enrolled, re-enrolled or given a money role by the maker less than 7 days ago. */
  'CHECKER_TOO_NEW',
  /** 403: only the operator who asked may cancel a pending request. */
  'NOT_THE_MAKER',
  /** 422: an approved settings change (a deposit channel, the slip rules, the manual-deposit switch) found the setting changed since it was asked: nothing applied; ask again. */
  'CHANGED_SINCE_REQUEST',
  // The reports' refusals (report-errors.ts): back office only, like the codes above.
  ...reportErrorCodes,
  /** 400: resolving or dismissing a risk flag without a note (a person says why). */
  'NOTE_REQUIRED',
  /** 404: no risk flag with this id. */
  'NO_RISK_FLAG',
  /** 409: the risk flag was resolved or dismissed already. */
  'RISK_FLAG_CLOSED',
] as const;

export type AdminErrorCode = (typeof adminErrorCodes)[number];
