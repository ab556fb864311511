import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forbidden } from '../../lib/errors';
import { checkInvariants } from '../../money/ledger';
import type { FaultMode } from '../../providers/games/sandbox-games';
import type { Services } from '../../services';

/** Settings an operator may switch over the API. */
const switchable = z.enum(['siteActive', 'registerOTP', 'enableChatWidget']);

/**
 * Operator calls, until the back office exists. They need `Authorization: Bearer OPERATOR_TOKEN`
 * and are closed when OPERATOR_TOKEN is not configured. They keep working on a terminated site,
 * so the site can be brought back.
 *   PUT  /api/operator/settings/:key { value: boolean }  — siteActive, registerOTP, enableChatWidget
 *   GET  /api/operator/withdrawals                       — pending withdrawals, oldest first
 *   POST /api/operator/withdrawals/:id/complete          — the bank transfer went out
 *   POST /api/operator/withdrawals/:id/reject { note }   — refused: the money returns to the wallet
 *   GET  /api/operator/ledger/check                      — the ledger's invariants over the database
 *   PUT  /api/operator/sandbox/games/:code/fault { mode, latencyMs } — sandbox game failure injection
 */
export function registerOperatorRoutes(app: FastifyInstance, { config, settings, wallet, database, sandboxGames }: Services): void {
  const token = config.OPERATOR_TOKEN;
  const guard = async (request: FastifyRequest) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token ?? ''}`);
    if (!token || given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden('FORBIDDEN');
  };
  app.put(
    '/api/operator/settings/:key',
    {
      preHandler: guard,
      schema: {
        params: z.strictObject({ key: switchable }),
        body: z.strictObject({ value: z.boolean() }),
        response: { 200: z.object({ key: z.string(), value: z.boolean() }) },
      },
    },
    async (request) => {
      const { key } = request.params as { key: z.infer<typeof switchable> };
      const { value } = request.body as { value: boolean };
      await settings.set(key, value);
      return { key, value };
    },
  );

  app.get('/api/operator/withdrawals', { preHandler: guard }, async () => ({ withdrawals: await wallet.pendingWithdrawals() }));
  const idParams = z.object({ id: z.string().max(64) });
  app.post('/api/operator/withdrawals/:id/complete', { preHandler: guard, schema: { params: idParams } }, async (request) => {
    const op = await wallet.completeWithdrawal((request.params as { id: string }).id);
    return { id: op.id, status: op.status };
  });
  app.post(
    '/api/operator/withdrawals/:id/reject',
    { preHandler: guard, schema: { params: idParams, body: z.strictObject({ note: z.string().min(1).max(200) }) } },
    async (request) => {
      const op = await wallet.rejectWithdrawal((request.params as { id: string }).id, (request.body as { note: string }).note);
      return { id: op.id, status: op.status };
    },
  );
  app.get('/api/operator/ledger/check', { preHandler: guard }, async () => checkInvariants(database.db));
  if (sandboxGames) {
    app.put(
      '/api/operator/sandbox/games/:code/fault',
      {
        preHandler: guard,
        schema: {
          params: z.object({ code: z.string().max(16) }),
          body: z.strictObject({ mode: z.enum(['none', 'down', 'timeout', 'error-after-take']), latencyMs: z.number().int().min(0).max(60_000).default(0) }),
        },
      },
      async (request) => {
        const { code } = request.params as { code: string };
        const fault = request.body as { mode: FaultMode; latencyMs: number };
        await sandboxGames.setFault(code, fault);
        return { code, ...fault };
      },
    );
  }
}
