import { chatErrorCodes } from './chat-errors';
import { depositErrorCodes } from './deposit-errors';
import { payoutErrorCodes } from './payout-errors';
import { promotionErrorCodes } from './promotion-errors';
import { responsibleErrorCodes } from './responsible-errors';

/**
 * Error codes that travel on the wire as `{ "message": CODE }`.
 * `specErrorCodes` is the catalogue of spec section 8, verbatim; `addedErrorCodes` are the codes
 * this implementation adds, each documented where it is raised.
 */
export const specErrorCodes = [
  'UNAUTHORIZED', 'EXPIRED_AUTH_TOKEN', 'INVALID_USER_1', 'INVALID_USER_2', 'INVALID_USER_3', 'INVALID_USER_4',
  'INVALID_IP', 'OTP_BLOCK', 'OTP_TOKEN_INVALID', 'OTP_NOT_EXIST', 'OTP_VERIFIED', 'OTP_EXPIRED',
  'OTP_CODE_INVALID', 'OTP_CODE_VALID', 'OTP_SEND_FAIL', 'OTP_VERIFY_FAIL', 'EXISTING_USER', 'EXISTING_BANK',
  'INVALID_USER_INFO', 'UNVERIFIED_OTP', 'GAME_ACTIVATION_FAIL', 'INVALID_BANK', 'BANK_ACCOUNT_NAME_ENG',
  'REGISTER_FAIL', 'NO_USER', 'WRONG_PASSWORD', 'WRONG_CREDENTIAL', 'INACTIVE_USER', 'LOGIN_FAIL',
  'REQUEST_LIMIT', 'REQUEST_LIMIT_1MIN', 'BONUS_REMAINING', 'BONUS_ALREADY_ACTIVE', 'BONUS_MAX_CLAIMED',
  'BONUS_CONDITION', 'BONUS_CLEAR', 'BONUS_FULL', 'INVITE_COLLECT', 'INVITE_INACTIVE', 'NO_INVITE_BONUS',
  'NO_INVITEE_PLAY_INFO', 'INVITE_BONUS_SUCCESS', 'INVITE_BONUS_FAIL', 'NO_PROMOTION', 'PROMOTION_RECEIVED',
  'QR_FAIL', 'NO_REFUND', 'REFUND_CONDITION', 'REFUND_SUCCESS', 'REFUND_INACTIVE', 'REFUND_MINIMUM', 'NO_BANK',
  'NO_WALLET', 'SLOT_ALREADY_ACTIVE', 'SLOT_ACTIVATE_FAIL', 'SLOT_NO_ACCOUNT', 'SLOT_RESET_PASSWORD_FAIL',
  'TRANSFER_MINIMUM', 'NO_GAME', 'MONEY_NOT_ENOUGH', 'TRANSFER_FAIL', 'SLIP_UPLOAD_FAIL', 'SLIP_NO_FILE',
  'SLIP_INVALID_FILE', 'TRUELINK_DUPLICATE', 'TRUELINK_INVALID', 'PHONE_NUMBER_REQUIRE_10_DIGIT',
  'INTERNAL_SERVER_ERROR', 'NO_DATA', 'KEY_MISSING', 'KEY_INVALID',
] as const;

/** Spin coupon codes of spec section 8 (BONUS_REMAINING is shared with the main list). */
export const spinErrorCodes = [
  'NO_CLAIMABLE_COUPON', 'INVALID_PRIZE_CODE', 'INVALID_CODE', 'INVALID_COUPON_TYPE', 'COUPON_EXPIRED',
] as const;

/** Slip reason codes of spec section 8, carried in a slip's `note`. */
export const slipReasonCodes = [
  'UPLOADED_FILE_NOT_EXIST', 'IMG_SIZE_UNABLE_TO_PROCESS', 'CANNOT_READ_CROPPED_IMAGE', 'DEST_ACC_INVALID',
  'SLIP_REFNO_DUPLICATED', 'UNSTABLE_REFNO_ON_SLIP', 'TRIPPLE_WRONG_CAPTCHA', 'INVALID_SLIP', 'NOT_MATCH',
  'EXPIRED_SLIP', 'UNKNOW_ERROR',
] as const;

/**
 * Codes the spec's client reacts to by text rather than by catalogue: `invalid-token` sends the
 * user to /login, `gone` to /terminated (spec section 4 and 8).
 */
export const protocolCodes = ['invalid-token', 'gone'] as const;

/** Codes added by this implementation (not in the spec). */
export const addedErrorCodes = [
  /** 404: no route or no such resource. */
  'NOT_FOUND',
  /** 501: the call is routed but its domain has not been built yet. */
  'NOT_IMPLEMENTED',
  /** 413: a body larger than the server accepts. */
  'PAYLOAD_TOO_LARGE',
  /** 415: a body in a content type the call does not accept. */
  'UNSUPPORTED_MEDIA_TYPE',
  /** 403: kept for older clients; operator calls now answer 401 UNAUTHORIZED without valid credentials and 403 FORBIDDEN_ROLE outside the role. */
  'FORBIDDEN',
  /** 409: the same Idempotency-Key was used with a different request body. */
  'IDEMPOTENCY_KEY_REUSED',
  /** 400: a new password that does not meet the password rule (see rules.ts). */
  'PASSWORD_TOO_SHORT',
  /** 400: the new password equals the old one. */
  'PASSWORD_SAME',
  /** 400: a new password longer than the password rule allows. */
  'PASSWORD_TOO_LONG',
  /** 400: a phone number outside the Laos-mode rule (digits, 8 to 15). */
  'PHONE_NUMBER_INVALID',
  /** 400: a profile name longer than the rule allows. */
  'NAME_TOO_LONG',
  /** 400: a bank account number that is not 10 to 18 digits. */
  'BANK_ACCOUNT_NO_INVALID',
  /** 400: a bank account name with characters other than letters, spaces and dots. */
  'BANK_ACCOUNT_NAME_INVALID',
  /** 400: an inviter code that names no member. */
  'INVALID_INVITE_CODE',
  /** 400: a source code that is not in the sources lookup. */
  'INVALID_SOURCE',
  /** 403: bank details are fixed after registration (withdrawals go there); only the name may be corrected. */
  'BANK_DETAILS_LOCKED',
  /** 409: a money call with this Idempotency-Key is still being processed. */
  'REQUEST_IN_PROGRESS',
  /** 504: a game provider did not confirm a transfer in time; it is settled by the reconciler and shows in the statement. */
  'TRANSFER_PENDING',
  /** 400: from and to of a transfer are the same account. */
  'TRANSFER_SAME_ACCOUNT',
  /** 400: a transfer into a seamless game (it holds no balance of its own: its bets move the wallet itself). */
  'TRANSFER_SEAMLESS',
  /** 400: a withdrawal below withdrawMin (the answer carries `withdrawMin`). */
  'WITHDRAW_MINIMUM',
  /** 400: a withdrawal above withdrawMax (the answer carries `withdrawMax`). */
  'WITHDRAW_MAXIMUM',
  /** 400: a deposit below its minimum (the answer carries `minimum` in baht). */
  'DEPOSIT_MINIMUM',
  /** 403: the demo top-up is refused when real payment providers are configured. */
  'SANDBOX_ONLY',
  /** 404: a withdrawal or operation the operator named does not exist or is not pending. */
  'NO_OPERATION',
  /** 408: the request (headers and body) did not arrive within the request timeout; the connection is closed. */
  'REQUEST_TIMEOUT',
  /** 414: a path parameter longer than the router accepts. */
  'URI_TOO_LONG',
  /** 431: request headers larger than the server accepts. */
  'HEADERS_TOO_LARGE',
  /** 503: the server is overloaded (load shedding); nothing was read or moved, retry after `retryAfter` seconds (also the Retry-After header). */
  'BUSY',
] as const;

/**
 * Every code: the spec's, then each domain's own (declared in the domain's contract file, one
 * line here per domain).
 */
export const errorCodes = [...specErrorCodes, ...spinErrorCodes, ...protocolCodes, ...addedErrorCodes, ...depositErrorCodes, ...promotionErrorCodes, ...chatErrorCodes, ...payoutErrorCodes, ...responsibleErrorCodes] as const;
export type ErrorCode = (typeof errorCodes)[number];
export type SlipReasonCode = (typeof slipReasonCodes)[number];

const errorCodeSet: ReadonlySet<string> = new Set(errorCodes);
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && errorCodeSet.has(value);
}

const slipReasonSet: ReadonlySet<string> = new Set(slipReasonCodes);
export function isSlipReasonCode(value: unknown): value is SlipReasonCode {
  return typeof value === 'string' && slipReasonSet.has(value);
}

/** The text the spec's client also treats as an expired session. */
export const CANNOT_VERIFY_IDENTITY = 'cannot verify identity';
