import { z } from 'zod';
import { text } from './text';

/** How one call of spec section 7 is described: the single source for the server and the client. */
export interface EndpointDef<
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify-style path: `/api/wallet/activate/:code`. */
  path: string;
  /** Needs a member's bearer token. */
  auth: boolean;
  /**
   * An operator call (admin.ts): `session` needs an operator session's bearer token, `operator`
   * a session or the OPERATOR_TOKEN automation key (every /api/operator/* call, roles per
   * platform/operator-roles.ts). Not in `endpoints` (the member app's list).
   */
  operator?: 'session' | 'operator';
  /**
   * An /api/operator/* call: the roles besides `owner` (who may call everything) that may call it.
   * THE roles matrix: the server's role check (platform/operator-roles.ts), the back office's
   * `can()`, the OpenAPI document and the README's matrix are all read from this field, and
   * operator-roles.test.ts fails when any of them disagrees. An operator call without it is the owner's only.
   */
  roles?: readonly OperatorStaffRole[];
  /** The domain module (and the issue) that implements it. */
  domain: Domain;
  params?: P;
  /** The query string (operator calls: filters and paging). */
  query?: Q;
  /** JSON body, or for multipart calls the non-file fields. */
  body?: B;
  response: R;
  /**
   * The handler reads the body itself from the raw bytes (webhooks: the signature is over them);
   * `body` then documents what it accepts and the route does not parse it.
   */
  rawBody?: boolean;
  /** The answer is not JSON (an image, an HTML page): its media type; `response` is not applied. */
  produces?: string;
  /** multipart/form-data with a file field. */
  multipart?: { fileField: string };
  /** Moves money: accepts an Idempotency-Key header. */
  movesMoney?: boolean;
  /**
   * A money call whose own steps record its Idempotency-Key with its money (the money core's
   * `once` / `composite`): the route layer keeps its first answer but does not claim the key before
   * it runs (money/core.ts `call`). Every other `movesMoney` call is claimed first.
   */
  keyedInside?: boolean;
  /** Added by this implementation, not in spec section 7. */
  added?: boolean;
  /**
   * During a member's time-out or self-exclusion (responsible play): `refused` answers 403
   * TIME_OUT / SELF_EXCLUDED with the end date before the handler runs; `toWalletOnly` refuses
   * unless the body's `to` is WALLET (money coming back from games, so it can be withdrawn);
   * `allowed` runs. The route layer (app.ts) applies it; unset: `refused` for a `movesMoney` call,
   * `allowed` for any other (see breakRuleOf).
   */
  duringBreak?: BreakRule;
  description?: string;
}

export type Domain =
  | 'lookup'
  | 'account'
  | 'otp'
  | 'wallet'
  | 'deposit'
  | 'qr'
  | 'invite'
  | 'refund'
  | 'bonus'
  | 'promotion'
  | 'statement'
  | 'spin'
  | 'autologin'
  | 'chat'
  | 'responsible'
  | 'admin'
  // Operator calls (contract/operator/*), provider webhooks and the sandbox providers' calls.
  | 'settings'
  | 'backoffice'
  | 'approval'
  | 'payout'
  | 'ledger'
  | 'webhook'
  | 'sandbox'
  | 'seamless'
  | 'reports'
  | 'risk';

/** The operator roles besides `owner` (contract/admin.ts's OPERATOR_ROLES without it). */
export type OperatorStaffRole = 'finance' | 'support' | 'marketing';

export type BreakRule = 'refused' | 'toWalletOnly' | 'allowed';

/** What a call does during a time-out or self-exclusion: its `duringBreak`, or refused for a money call and allowed for any other. */
export function breakRuleOf(def: Pick<EndpointDef, 'duringBreak' | 'movesMoney'>): BreakRule {
  return def.duringBreak ?? (def.movesMoney ? 'refused' : 'allowed');
}

export function endpoint<P extends z.ZodType, B extends z.ZodType, R extends z.ZodType, Q extends z.ZodType = z.ZodType>(
  def: EndpointDef<P, B, R, Q>,
): EndpointDef<P, B, R, Q> {
  return def;
}

/** Wire error body: `{ message: CODE }` plus optional detail. */
export const errorBodySchema = z.object({
  message: z.string(),
  fields: z.array(z.object({ path: z.string(), code: z.string() })).optional(),
  retryAfter: z.number().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Answer of calls that only acknowledge. */
export const okSchema = z.object({ ok: z.literal(true) });

/** `{ page, limit }` of paged calls: page from 1, limit 1..100. */
export const pageRequestSchema = z.strictObject({
  page: z.number().int().min(1).max(1_000_000),
  limit: z.number().int().min(1).max(100),
});

export const isoDateSchema = z.string().describe('ISO 8601 timestamp');
/** An id in a request (or an answer): 1–64 characters, no control characters. */
export const idSchema = text(64).min(1);
