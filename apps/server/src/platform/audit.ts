import { sameConnection, type Connection } from '../db/database';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Generated } from 'kysely';
import type { AuditRow } from '@mw/contract/admin';
import type { DefaultTimestamp } from '../db/schema';
import { newId } from '../lib/ids';
import { defineModule } from './module';

/**
 * The audit log: one append-only row per operator action, login, failed login, TOTP failure,
 * logout and change of operators — who (operator and role, `api-key` for OPERATOR_TOKEN), what
 * (action, entity, target), before and after, the client's address, when. Database triggers
 * refuse UPDATE, DELETE and TRUNCATE on both databases.
 *
 * It is a property of the framework: every /api/operator/* handler runs inside an audit context
 * (an AsyncLocalStorage set by the preHandler hook below), so `recordChange` knows who and from
 * where without being told; a mutating call (POST, PUT, DELETE) that answers < 400 without having
 * written a row of its own gets a generic one (action `METHOD /route`, target the path
 * parameters, after the body with secrets redacted) before its answer goes out.
 */
export interface AuditLogTable {
  id: string;
  seq: Generated<string>;
  at: DefaultTimestamp;
  /** The operator's username, `api-key`, or the username typed in a failed login. */
  operator: string;
  operator_id: string | null;
  role: string | null;
  action: string;
  entity: string | null;
  target: string | null;
  before: unknown;
  after: unknown;
  address: string | null;
  on_behalf_of: string | null;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface AuditTables {
  audit_log: AuditLogTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends AuditTables {}
}

/** The table and its triggers; the old operator_changes rows (configuration changes) move in. */
export const auditModule = defineModule({
  name: 'audit',
  migrations: [
    {
      id: 'audit/001_audit_log',
      sql: `
CREATE TABLE audit_log (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  operator text NOT NULL,
  operator_id text,
  role text,
  action text NOT NULL,
  entity text,
  target text,
  before jsonb,
  after jsonb,
  address text,
  on_behalf_of text
);
CREATE INDEX audit_log_seq ON audit_log (seq DESC);
CREATE INDEX audit_log_at ON audit_log (at DESC);
CREATE INDEX audit_log_operator ON audit_log (operator, seq DESC);
CREATE INDEX audit_log_action ON audit_log (action text_pattern_ops);
CREATE INDEX audit_log_entity ON audit_log (entity, target, seq DESC) WHERE entity IS NOT NULL;
INSERT INTO audit_log (id, at, operator, action, entity, target, before, after)
  SELECT id, at, who, entity || '.change', entity, key, before, after FROM operator_changes ORDER BY at, id;
DROP TABLE operator_changes;
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();`,
    },
  ],
});

/** Who acts, as the audit records it (the operator guard sets it on the request). */
export interface AuditActor {
  id: string | null;
  username: string;
  role: string | null;
  via?: 'session' | 'api-key';
}

export interface AuditEntry {
  actor: AuditActor;
  action: string;
  entity?: string | null;
  target?: string | null;
  before?: unknown;
  after?: unknown;
  address?: string | null;
  onBehalfOf?: string | null;
}

interface AuditContext {
  request: FastifyRequest;
  recorded: boolean;
}

const context = new AsyncLocalStorage<AuditContext>();
const contexts = new WeakMap<FastifyRequest, AuditContext>();

/** What a request says about who acts (set by the operator hooks, platform/operator.ts). */
function actorOf(request: FastifyRequest): AuditActor | null {
  const operator = request.operator;
  return operator ? { id: operator.id, username: operator.username, role: operator.role, via: operator.via } : null;
}

/** The name an automation sent in X-Operator (api-key calls only), cleaned for the log. */
export function onBehalfOf(request: FastifyRequest): string | null {
  if (request.operator?.via !== 'api-key') return null;
  const raw = request.headers['x-operator'];
  const name = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are dropped from a name for the log
  const clean = name.replace(/[\u0000-\u001F\u007F-\u009F]/g, '').slice(0, 64);
  return clean || null;
}

/** Writes one row. Inside an operator call, marks the call as recorded (no generic row then). */
export async function recordAudit(dbIn: Connection, entry: AuditEntry, request?: FastifyRequest): Promise<void> {
  const db = sameConnection<AuditTables>(dbIn);
  const ctx = request ? contexts.get(request) : context.getStore();
  const from = request ?? ctx?.request;
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      operator: entry.actor.username,
      operator_id: entry.actor.id,
      role: entry.actor.role,
      action: entry.action,
      entity: entry.entity ?? null,
      target: entry.target ?? null,
      before: JSON.stringify(redact(entry.before ?? null)),
      after: JSON.stringify(redact(entry.after ?? null)),
      address: entry.address ?? from?.ip ?? null,
      on_behalf_of: entry.onBehalfOf ?? (from ? onBehalfOf(from) : null),
    })
    .execute();
  if (ctx) ctx.recorded = true;
}

/**
 * Records an operator's change of configuration (a bonus, a promotion code, the wheel, …) with
 * the rows before and after. Inside an operator call, who acts, their role and address come
 * from the call (`who` is what the call site names: the fallback outside a call).
 */
export async function recordChange(dbIn: Connection, change: { who: string; entity: string; key: string; before: unknown; after: unknown }): Promise<void> {
  const db = sameConnection<AuditTables>(dbIn);
  const request = context.getStore()?.request;
  const actor = (request && actorOf(request)) ?? { id: null, username: change.who, role: null };
  await recordAudit(db, { actor, action: `${change.entity}.change`, entity: change.entity, target: change.key, before: change.before, after: change.after });
}

const SECRET_FIELD = /pass(word)?|secret|token|otp|credential|private.?key|api.?key|authorization/i;

/** A copy of a value with every field whose name says it holds a secret replaced by `***`. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_FIELD.test(key) ? '***' : redact(item, depth + 1)]));
}

const MUTATING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** Whether a request reached an operator route (by its pattern). */
export function isOperatorRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/operator/') ?? false;
}

/** The audit context of every operator call, and the generic row of a mutating one that wrote none. */
export function registerAuditHooks(app: FastifyInstance, dbIn: Connection): void {
  const db = sameConnection<AuditTables>(dbIn);
  app.addHook('preHandler', (request, _reply, done) => {
    if (!isOperatorRoute(request) || !request.operator) {
      done();
      return;
    }
    const ctx: AuditContext = { request, recorded: false };
    contexts.set(request, ctx);
    context.run(ctx, done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const ctx = contexts.get(request);
    if (!ctx || ctx.recorded || !MUTATING.has(request.method) || reply.statusCode >= 400) return payload;
    const actor = actorOf(request);
    if (!actor) return payload;
    const params = request.params && typeof request.params === 'object' && Object.keys(request.params).length > 0 ? request.params : null;
    try {
      await recordAudit(
        db,
        {
          actor,
          action: `${request.method} ${request.routeOptions.url ?? ''}`,
          target: params ? Object.entries(params as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`).join(' ') : null,
          before: null,
          after: request.body ?? null,
        },
        request,
      );
    } catch (error) {
      // The action is done and cannot be undone here: its answer goes out, the missing row is an error in the log.
      request.log.error({ err: error, action: `${request.method} ${request.routeOptions.url ?? ''}`, operator: actor.username }, 'audit row not written');
    }
    return payload;
  });
}

/** Filters of GET /api/operator/audit. */
export interface AuditQuery {
  operator?: string;
  action?: string;
  target?: string;
  entity?: string;
  /** A member's id: the rows about the member (entity member or member-note) or naming them as memberId. */
  member?: string;
  from?: string;
  to?: string;
  page: number;
  limit: number;
}

/** One page of the log, newest first, with the number of rows the filters match. */
export async function readAudit(dbIn: Connection, query: AuditQuery): Promise<{ rows: AuditRow[]; total: number; page: number; limit: number }> {
  const db = sameConnection<AuditTables>(dbIn);
  let base = db.selectFrom('audit_log');
  if (query.operator) base = base.where('operator', '=', query.operator);
  if (query.action) base = base.where('action', 'like', `${query.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (query.target) base = base.where('target', '=', query.target);
  if (query.entity) base = base.where('entity', '=', query.entity);
  const member = query.member;
  if (member)
    base = base.where((eb) =>
      eb.or([
        eb.and([eb('entity', 'in', ['member', 'member-note']), eb('target', '=', member)]),
        eb(sql<string>`before->>'memberId'`, '=', member),
        eb(sql<string>`after->>'memberId'`, '=', member),
      ]),
    );
  if (query.from) base = base.where('at', '>=', new Date(query.from));
  if (query.to) base = base.where('at', '<', new Date(query.to));
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('seq', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      operator: r.operator,
      who: r.operator,
      operatorId: r.operator_id,
      role: r.role,
      action: r.action,
      entity: r.entity,
      target: r.target,
      before: r.before,
      after: r.after,
      address: r.address,
      onBehalfOf: r.on_behalf_of,
    })),
    total: Number(count.n),
    page: query.page,
    limit: query.limit,
  };
}

/** The configuration changes (`GET /api/operator/changes`): rows with an entity, newest first, at most 200. */
export async function readChanges(dbIn: Connection, filter: { entity?: string; key?: string }) {
  const db = sameConnection<AuditTables>(dbIn);
  let query = db
    .selectFrom('audit_log')
    .select(['id', 'at', 'operator as who', 'role', 'entity', 'target as key', 'before', 'after', 'on_behalf_of as onBehalfOf'])
    .where('entity', 'is not', null)
    .orderBy('seq', 'desc')
    .limit(200);
  if (filter.entity) query = query.where('entity', '=', filter.entity);
  if (filter.key) query = query.where('target', '=', filter.key);
  return query.execute();
}
