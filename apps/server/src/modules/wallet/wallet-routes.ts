import type { Handlers, RequestContext } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import type { EndpointDef } from '@mw/contract/http';
import type { Services } from '../../services';
import { idempotencyOf } from './operations';

const key = (ctx: RequestContext<EndpointDef>, name: string, body: unknown) => idempotencyOf(ctx.request.headers['idempotency-key'], name, body);

export function walletHandlers({ wallet, games, transfers, sandboxPayments }: Services): Handlers {
  return {
    wallet: async (ctx) => wallet.wallet(requireMember(ctx).memberId),
    walletRefreshSlot: async (ctx) => {
      const { memberId } = requireMember(ctx);
      const fresh = await games.refreshAll(memberId);
      return { slots: await games.accounts(memberId, fresh), updatedAt: new Date().toISOString() };
    },
    walletActivate: async (ctx) => games.activate(requireMember(ctx).memberId, ctx.params.code),
    walletAccount: async (ctx) => games.credentials(requireMember(ctx).memberId, ctx.params.code),
    walletResetPassword: async (ctx) => games.resetPassword(requireMember(ctx).memberId, ctx.params.code),
    // The demo top-up exists only with sandbox payments (PAYMENTS=sandbox): otherwise 404.
    walletAdd: sandboxPayments ? async (ctx) => wallet.add(requireMember(ctx).memberId, ctx.body.amount, key(ctx, 'walletAdd', ctx.body)) : null,
    walletTransfer: async (ctx) => {
      const { memberId } = requireMember(ctx);
      const outcome = await transfers.transfer(memberId, ctx.body.from.toUpperCase(), ctx.body.to.toUpperCase(), ctx.body.amount, key(ctx, 'walletTransfer', ctx.body));
      return wallet.result(memberId, outcome.operation, outcome.game, outcome.wallet);
    },
    walletTransferAll: async (ctx) => wallet.transferAll(requireMember(ctx).memberId, ctx.body.to.toUpperCase(), key(ctx, 'walletTransferAll', ctx.body)),
    walletWithdraw: async (ctx) => wallet.withdraw(requireMember(ctx).memberId, ctx.body.amount, key(ctx, 'walletWithdraw', ctx.body)),
    walletWithdrawAll: async (ctx) => wallet.withdrawAll(requireMember(ctx).memberId, ctx.body.amount, key(ctx, 'walletWithdrawAll', ctx.body)),
  };
}
