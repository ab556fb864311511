import type { MoneyResult } from '@mw/contract/wallet';
import type { Handlers } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import type { Services } from '../../platform/services';

/** The wallet's calls. Money calls get their parsed Idempotency-Key (`idem`) from the route layer. */
export function walletHandlers({ wallet, games, transfers, sandboxPayments, risk }: Services): Handlers {
  /** A withdrawal asked: a risk signal when the stakes since the last deposit are short of it (never a refusal). */
  const observed = async (ctx: { deviceId: string | null; ip: string }, memberId: string, answer: MoneyResult): Promise<MoneyResult> => {
    await risk.withdrawalRequested({ memberId, withdrawalId: answer.reference, amount: Math.round(answer.amount * 100), deviceId: ctx.deviceId, address: ctx.ip });
    return answer;
  };
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
    walletAdd: sandboxPayments ? async (ctx) => wallet.add(requireMember(ctx).memberId, ctx.body.amount, ctx.idem) : null,
    walletTransfer: async (ctx) => transfers.transfer(requireMember(ctx).memberId, ctx.body.from.toUpperCase(), ctx.body.to.toUpperCase(), ctx.body.amount, ctx.idem),
    walletTransferAll: async (ctx) => wallet.transferAll(requireMember(ctx).memberId, ctx.body.to.toUpperCase(), ctx.idem),
    walletWithdraw: async (ctx) => {
      const { memberId } = requireMember(ctx);
      return observed(ctx, memberId, await wallet.withdraw(memberId, ctx.body.amount, ctx.idem));
    },
    walletWithdrawAll: async (ctx) => {
      const { memberId } = requireMember(ctx);
      return observed(ctx, memberId, await wallet.withdrawAll(memberId, ctx.body.amount, ctx.idem));
    },
  };
}
