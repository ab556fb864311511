import type { Handlers } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import type { Services } from '../../platform/services';

export function statementHandlers({ statements }: Services): Handlers {
  return {
    statementList: async (ctx) => statements.statements(requireMember(ctx).memberId, ctx.body.page, ctx.body.limit),
    statementSlips: async (ctx) => statements.slips(requireMember(ctx).memberId, ctx.body.page, ctx.body.limit),
    statementSlipReference: async (ctx) => statements.slipUrl(requireMember(ctx).memberId, ctx.params.reference),
  };
}
