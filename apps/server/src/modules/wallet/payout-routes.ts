import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { PAYOUT_FAILURES } from '../../providers/bank/payout';
import { PAYOUT_FAULT_MODES, type PayoutFault, type SandboxPayouts } from '../../providers/bank/sandbox-payouts';
import { operatorName, type operatorGuard } from '../../platform/operator';
import type { AwaitingApproval } from '../approval/approval-service';
import type { PayoutService } from './payout-service';
import type { WalletService } from './wallet-service';

/** A call that waits for a second operator answers 202 with its approval; any other answer as it is. */
function answer<T extends object>(reply: FastifyReply, result: T | AwaitingApproval): T | AwaitingApproval {
  if ('status' in result && result.status === 'awaiting-approval') reply.status(202);
  return result;
}

/** The operator calls of withdrawals and their payouts (see the wallet module's list). */
export function payoutRoutes(
  app: FastifyInstance,
  guard: ReturnType<typeof operatorGuard>,
  { wallet, payouts, sandboxPayouts }: { wallet: WalletService; payouts: PayoutService; sandboxPayouts: SandboxPayouts | null },
): void {
  // Pending ones oldest first by default (as before); the back office pages, filters and sorts.
  const listQuery = z.object({
    status: z.enum(['PENDING', 'SUCCESS', 'FAILED', 'ALL']).default('PENDING'),
    q: z.string().max(64).optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(500).default(500),
    sort: z.enum(['createdAt', '-createdAt', 'amount', '-amount']).default('createdAt'),
  });
  app.get('/api/operator/withdrawals', { preHandler: guard, schema: { querystring: listQuery } }, async (request) => {
    const { status, ...rest } = request.query as z.output<typeof listQuery>;
    return wallet.withdrawals({ ...rest, status: status === 'ALL' ? undefined : status });
  });
  const idParams = z.object({ id: z.string().min(1).max(64) });
  app.get('/api/operator/withdrawals/:id', { preHandler: guard, schema: { params: idParams } }, async (request) => payouts.get((request.params as { id: string }).id));
  app.post('/api/operator/withdrawals/:id/approve', { preHandler: guard, schema: { params: idParams } }, async (request, reply) =>
    answer(reply, await payouts.approve((request.params as { id: string }).id, operatorName(request))),
  );
  app.post('/api/operator/withdrawals/:id/complete', { preHandler: guard, schema: { params: idParams } }, async (request, reply) =>
    answer(reply, await payouts.complete((request.params as { id: string }).id, operatorName(request))),
  );
  app.post(
    '/api/operator/withdrawals/:id/reject',
    { preHandler: guard, schema: { params: idParams, body: z.strictObject({ note: z.string().min(1).max(200) }) } },
    async (request) => payouts.reject((request.params as { id: string }).id, operatorName(request), (request.body as { note: string }).note),
  );
  if (sandboxPayouts) {
    // Failure injection of the sandbox bank's payout API, seen by every process on the database.
    const faultBody = z.strictObject({ mode: z.enum(PAYOUT_FAULT_MODES), failure: z.enum(PAYOUT_FAILURES).optional() });
    app.put('/api/operator/sandbox/bank/payout-fault', { preHandler: guard, schema: { body: faultBody } }, async (request) => {
      const fault = request.body as PayoutFault;
      await sandboxPayouts.setFault(fault);
      return sandboxPayouts.fault();
    });
    app.get('/api/operator/sandbox/bank/payout-fault', { preHandler: guard }, async () => sandboxPayouts.fault());
  }
}
