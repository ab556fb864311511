import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import type { EndpointDef } from '@mw/contract/http';
import { operatorCallNames } from '@mw/contract/operator/index';

type Output<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;

/** What an operator, webhook or sandbox handler gets: the request's parts as its contract call's schemas parsed them. */
export interface CallContext<D extends EndpointDef> {
  params: Output<D['params']>;
  query: Output<D['query']>;
  /** The parsed body; for a `rawBody` call (a webhook), undefined: read `raw`. */
  body: D['rawBody'] extends true ? undefined : Output<D['body']>;
  /** A `rawBody` call's body as the bytes came (UTF-8 text), for the signature; '' for any other. */
  raw: string;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a handler answers: the call's `response` (a call that `produces` something else sends it through `reply`). */
export type CallAnswer<D extends EndpointDef> = D['produces'] extends string ? unknown : Known<z.output<D['response']>> | FastifyReply;

/**
 * An answer's type without the index signatures of `looseObject` schemas: a service's interface
 * (which has none) answers a loose schema's known fields, and the rest goes out as it is.
 */
type Known<T> = T extends Date | string | number | boolean | bigint | null | undefined
  ? T
  : T extends ReadonlyArray<infer U>
    ? ReadonlyArray<Known<U>>
    : T extends object
      ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
      : T;

export interface CallOptions {
  preHandler?: preHandlerAsyncHookHandler;
  bodyLimit?: number;
}

/**
 * Registers a route from its contract call (contract/operator/*, contract/admin.ts): method,
 * path, the schemas of params, query, body and answer (the server validates them all: a bad one
 * is 400 KEY_INVALID; an answer is sent as its schema encodes it), and the call's name (the
 * OpenAPI operationId; `app.registeredRoutes` names it). A `rawBody` call (a webhook) parses its
 * own body from the raw bytes: its `body` schema documents it. A call that `produces` another
 * media type (an image, a page) answers through `reply`. The operators' roles and authentication
 * are not here: the central hook (platform/operator.ts) has run before any of this.
 */
export function contractRoute<D extends EndpointDef>(app: FastifyInstance, def: D, options: CallOptions, handler: (ctx: CallContext<D>) => Promise<CallAnswer<D>>): void;
export function contractRoute<D extends EndpointDef>(app: FastifyInstance, def: D, handler: (ctx: CallContext<D>) => Promise<CallAnswer<D>>): void;
export function contractRoute<D extends EndpointDef>(
  app: FastifyInstance,
  def: D,
  second: CallOptions | ((ctx: CallContext<D>) => Promise<CallAnswer<D>>),
  third?: (ctx: CallContext<D>) => Promise<CallAnswer<D>>,
): void {
  const options = typeof second === 'function' ? {} : second;
  const handler = typeof second === 'function' ? second : third;
  if (!handler) throw new Error(`${def.method} ${def.path}: no handler`);
  const name = operatorCallNames.get(def);
  if (!name) throw new Error(`${def.method} ${def.path} is not in the contract's operatorCalls (contract/operator/index.ts)`);
  const schema: FastifySchema = {
    ...(def.params ? { params: def.params } : {}),
    ...(def.query ? { querystring: def.query } : {}),
    ...(def.body && !def.rawBody && !def.multipart ? { body: def.body } : {}),
    ...(def.produces ? {} : { response: { 200: def.response } }),
  };
  app.route({
    method: def.method,
    url: def.path,
    schema,
    config: { contract: { name, def }, ...(def.body && (def.rawBody || def.multipart) ? { openapiBody: def.body } : {}) },
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    handler: async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      // The one place the request's parts get their types: the route's schemas (above) have parsed them.
      const parts = request as unknown as { params: CallContext<D>['params']; query: CallContext<D>['query']; body: unknown };
      const raw = def.rawBody && typeof parts.body === 'string' ? parts.body : '';
      const body = (def.rawBody ? undefined : parts.body) as CallContext<D>['body'];
      return handler({ params: parts.params, query: parts.query, body, raw, request, reply });
    },
  });
}
