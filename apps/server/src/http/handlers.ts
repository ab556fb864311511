import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Locale } from '@mw/contract/constants';
import type { EndpointName, Endpoints } from '@mw/contract/endpoints';
import type { EndpointDef } from '@mw/contract/http';
import { unauthorized } from '../lib/errors';
import type { Idem } from '../money';

/** The member a bearer token belongs to. */
export interface AuthMember {
  memberId: string;
  sessionId: string;
  username: string;
}

type Output<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;

export interface RequestContext<E extends EndpointDef> {
  body: Output<E['body']>;
  params: Output<E['params']>;
  /** The caller, when a valid bearer token came with the request. */
  member: AuthMember | null;
  locale: Locale;
  /** The client's address (X-Forwarded-For only from the proxies TRUST_PROXY names). */
  ip: string;
  /** The member app's `X-Device-Id`, when it is a well-formed token (http/device-id.ts); otherwise null. */
  deviceId: string | null;
  /** The parsed Idempotency-Key of a money call (the contract's `movesMoney`), or null. */
  idem: Idem | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<E extends EndpointDef> = (ctx: RequestContext<E>) => Promise<z.input<E['response']>>;
/** A handler per call; a missing one answers 501 NOT_IMPLEMENTED, `null` leaves the route out (404). */
export type Handlers = { [K in EndpointName]?: Handler<Endpoints[K]> | null };

/** The caller of an `auth: true` call (the route's guard has already refused guests). */
export function requireMember(ctx: { member: AuthMember | null }): AuthMember {
  if (!ctx.member) throw unauthorized('invalid-token');
  return ctx.member;
}

/** The app's locale ids are th, la, en; `lo` is Lao's BCP 47 tag. */
export function localeOf(header: string | undefined): Locale {
  const first = (header ?? '').split(',')[0]?.trim().slice(0, 2).toLowerCase();
  if (first === 'la' || first === 'lo') return 'la';
  if (first === 'en') return 'en';
  return 'th';
}
