import type { Handlers } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import type { Services } from '../../platform/services';

/** The statement's calls; slip history is answered by the deposit module's SlipHistory (it owns the slips). */
export function statementHandlers({ statements, slipHistory }: Services): Handlers {
  return {
    statementList: async (ctx) => statements.statements(requireMember(ctx).memberId, ctx.body.page, ctx.body.limit),
    statementSlips: async (ctx) => slipHistory.slips(requireMember(ctx).memberId, ctx.body.page, ctx.body.limit),
    statementSlipReference: async (ctx) => slipHistory.slipUrl(requireMember(ctx).memberId, ctx.params.reference),
  };
}
