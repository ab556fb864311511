import type { FastifyInstance } from 'fastify';
import { payoutOperatorCalls as calls } from '@mw/contract/operator/payout';
import { contractRoute } from '../../http/contract-route';
import type { SandboxPayouts } from '../../providers/bank/sandbox-payouts';
import { AppError } from '../../lib/errors';
import { operatorIsOwner, operatorName, type operatorGuard } from '../../platform/operator';
import type { PayoutService } from './payout-service';
import type { WalletService } from './wallet-service';

/** The operator calls of withdrawals and their payouts (see the wallet module's list). */
export function payoutRoutes(
  app: FastifyInstance,
  guard: ReturnType<typeof operatorGuard>,
  { wallet, payouts, sandboxPayouts }: { wallet: WalletService; payouts: PayoutService; sandboxPayouts: SandboxPayouts | null },
): void {
  const preHandler = guard;
  // `payoutProvider`: how payouts leave ('manual': operators pay by hand), so the screen offers "mark paid" to whom it may.
  contractRoute(app, calls.withdrawalsList, { preHandler }, async ({ query: { status, ...rest } }) => ({
    ...(await wallet.withdrawals({ ...rest, status: status === 'ALL' ? undefined : status })),
    payoutProvider: payouts.providerName,
  }));
  contractRoute(app, calls.withdrawalGet, { preHandler }, async ({ params }) => payouts.get(params.id));
  // A call that waits for a second operator answers 202 with its approval; any other answer as it is.
  contractRoute(app, calls.withdrawalApprove, { preHandler }, async ({ params, request, reply }) => {
    const result = await payouts.approve(params.id, operatorName(request));
    return result.status === 'awaiting-approval' ? reply.status(202).send(result) : result;
  });
  contractRoute(app, calls.withdrawalComplete, { preHandler }, async ({ params, request, reply }) => {
    // With a payout provider, money leaves through the bank; marking one paid by hand is the
    // owner's override (docs/money.md), not finance's: 403 PAYOUT_OWNER_OVERRIDE.
    if (payouts.providerName !== 'manual' && !operatorIsOwner(request)) throw new AppError(403, 'PAYOUT_OWNER_OVERRIDE');
    const result = await payouts.complete(params.id, operatorName(request));
    return result.status === 'awaiting-approval' ? reply.status(202).send(result) : result;
  });
  contractRoute(app, calls.withdrawalReject, { preHandler }, async ({ params, body, request }) => payouts.reject(params.id, operatorName(request), body.note));
  if (sandboxPayouts) {
    // Failure injection of the sandbox bank's payout API, seen by every process on the database.
    contractRoute(app, calls.sandboxPayoutFaultPut, { preHandler }, async ({ body }) => {
      await sandboxPayouts.setFault(body);
      return sandboxPayouts.fault();
    });
    contractRoute(app, calls.sandboxPayoutFaultGet, { preHandler }, async () => sandboxPayouts.fault());
  }
}
