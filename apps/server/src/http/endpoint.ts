import { createHash } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointList } from '@mw/contract/endpoints';
import { breakRuleOf, type EndpointDef } from '@mw/contract/http';
import { WALLET_CODE } from '@mw/contract/constants';
import { AppError } from '../lib/errors';
import { idempotencyOf } from '../money';
import type { Services } from '../platform/services';
import { deviceIdOf } from './device-id';
import type { DomainModule } from '../platform/module';
import { localeOf, type Handler, type Handlers, type RequestContext } from './handlers';

/*
 * `keyedInside` (a field of the contract's definition): the call's own steps record its key with
 * its money. `walletTruelink` is claimed first although its credit records the key: its first step
 * claims the voucher, and a concurrent request of the same key found it claimed and answered
 * TRUELINK_DUPLICATE (a contract-walking test, idempotency.contract.test.ts, on PostgreSQL);
 * claimed first, it answers REQUEST_IN_PROGRESS.
 */

/**
 * A multipart money call (the slip upload) as its Idempotency-Key's hash sees it: the file's field
 * name and the SHA-256 of its bytes (the same file in another multipart envelope is the same
 * request; another file under a used key is IDEMPOTENCY_KEY_REUSED). The file is read here once;
 * the handler's `request.file()` then answers this same part (its `toBuffer()` keeps the bytes),
 * or the error reading it raised (a file over the size limit), so the handler sees what it would
 * have read itself.
 */
async function multipartRequest(request: FastifyRequest): Promise<unknown> {
  let part: MultipartFile | undefined;
  let failure: Error | null = null;
  let digest: { field: string; sha256: string } | null = null;
  try {
    part = await request.file();
    if (part) digest = { field: part.fieldname, sha256: createHash('sha256').update(await part.toBuffer()).digest('hex') };
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  }
  request.file = async () => {
    if (failure) throw failure;
    return part;
  };
  return { file: failure ? { unreadable: (failure as Error & { code?: unknown }).code ?? failure.name } : digest };
}

export function registerEndpoint(app: FastifyInstance, services: Services, name: string, def: EndpointDef, handler: Handler<EndpointDef> | undefined): void {
  const rule = breakRuleOf(def);
  app.route({
    method: def.method,
    url: def.path,
    config: { contract: { name, def } },
    schema: {
      ...(def.params ? { params: def.params } : {}),
      ...(def.body && !def.multipart ? { body: def.body } : {}),
      response: { 200: def.response },
    },
    preValidation: def.auth
      ? async (request: FastifyRequest) => {
          request.member = await services.sessions.authenticate(request.headers.authorization);
          // The member's own transfers settled behind their answers are written first: a member
          // never reads their own transfer as pending, nor has its retry answered "in progress".
          await services.money.transfers.caughtUp(request.member.memberId);
          // Responsible play: during a member's time-out or self-exclusion the calls the contract
          // marks (every money call but withdrawals and money coming home, game launches,
          // marketing) answer 403 TIME_OUT / SELF_EXCLUDED {until} before their body is even checked.
          if (rule !== 'allowed' && 'responsible' in services) {
            // Before validation the body is whatever came: only a JSON object's `to` counts.
            const body: unknown = request.body;
            const homeward = rule === 'toWalletOnly' && typeof body === 'object' && body !== null && 'to' in body && body.to === WALLET_CODE;
            if (!homeward) await services.responsible.assertNoBreak(request.member.memberId, request.member.sessionId);
          }
        }
      : def.domain === 'chat'
        ? // Chat is for guests and members: a token, when one comes, says which member (and must be valid).
          async (request: FastifyRequest) => {
            if (request.headers.authorization) request.member = await services.sessions.authenticate(request.headers.authorization);
          }
        : def.domain === 'lookup'
          ? // Lookups answer guests and members: a valid token says whose figures (a member's currency); any other is a guest.
            async (request: FastifyRequest) => {
              if (request.headers.authorization) request.member = await services.sessions.authenticate(request.headers.authorization).catch(() => null);
            }
          : undefined,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!handler) throw new AppError(501, 'NOT_IMPLEMENTED');
      const ctx: RequestContext<EndpointDef> = {
        body: request.body,
        params: request.params,
        member: request.member,
        locale: localeOf(request.headers['accept-language']),
        ip: request.ip,
        deviceId: deviceIdOf(request.headers['x-device-id']),
        // Money calls: the key and a hash of this call and its body (the same key must come with the same request).
        // A multipart call's body is its file (read once here when a key comes with it).
        idem: def.movesMoney
          ? idempotencyOf(
              request.headers['idempotency-key'],
              name,
              def.multipart && request.headers['idempotency-key'] !== undefined && request.isMultipart() ? await multipartRequest(request) : request.body,
              request.params,
            )
          : null,
        request,
        reply,
      };
      // Every money call runs once per Idempotency-Key, whatever its handler does (money/core.ts `call`).
      if (def.movesMoney && ctx.member && ctx.idem) {
        return services.money.call(ctx.member.memberId, ctx.idem, def.keyedInside === true, () => handler(ctx));
      }
      return handler(ctx);
    },
  });
}

/**
 * Each domain's contract calls and other routes, in a plugin scope of its own. A call no domain
 * answers is 501 NOT_IMPLEMENTED; `null` leaves the route out (404). A call answered by two
 * domains stops the start.
 */
export async function registerModules(app: FastifyInstance, services: Services, modules: readonly DomainModule[]): Promise<void> {
  const answered = new Map<string, string>();
  for (const module of modules) {
    const handlers: Handlers = module.handlers?.(services) ?? {};
    for (const name of Object.keys(handlers)) {
      const other = answered.get(name);
      if (other) throw new Error(`call ${name} is answered by both ${other} and ${module.name}`);
      answered.set(name, module.name);
    }
    await app.register(async (scope) => {
      await module.prepare?.(scope, services);
      for (const [name, def] of endpointList) {
        if (!(name in handlers)) continue;
        const handler = handlers[name] as Handler<EndpointDef> | null | undefined;
        if (handler) registerEndpoint(scope, services, name, def, handler);
      }
      await module.routes?.(scope, services);
    });
  }
  for (const [name, def] of endpointList) {
    if (!answered.has(name)) registerEndpoint(app, services, name, def, undefined);
  }
}
