import type { Handlers } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import type { Services } from '../../platform/services';

/**
 * The auto-login calls of spec section 7. Each answers a launch link for the caller's own
 * account at that game; a username (or password) that is not the caller's answers
 * SLOT_NO_ACCOUNT, exactly as a game the caller never opened does.
 */
export function autologinHandlers({ games }: Services): Handlers {
  const link = async (memberId: string, code: string, username: string, password?: string) => ({ link: (await games.launch(memberId, code, username, password)).link });
  return {
    autoLoginPg: async (ctx) => link(requireMember(ctx).memberId, 'PG', ctx.params.username),
    autoLoginBetflix: async (ctx) => link(requireMember(ctx).memberId, 'BETFLIX', ctx.params.username),
    autoLoginAskmebet: async (ctx) => link(requireMember(ctx).memberId, 'ASKMEBET', ctx.params.username, ctx.params.password),
    autoLoginImi: async (ctx) => link(requireMember(ctx).memberId, 'IMI', ctx.params.username, ctx.params.password),
    autoLoginUsun: async (ctx) => link(requireMember(ctx).memberId, 'USUN', ctx.params.username, ctx.params.password),
    autoLoginAreaslot: async (ctx) => link(requireMember(ctx).memberId, 'AREASLOT', ctx.params.username),
    autoLoginCircus: async (ctx) => link(requireMember(ctx).memberId, 'CIRCUS', ctx.params.username, ctx.params.password),
    autoLoginSlotracha: async (ctx) => link(requireMember(ctx).memberId, 'SLOTRACHA', ctx.params.username, ctx.params.password),
    autoLoginPgslot: async (ctx) => link(requireMember(ctx).memberId, 'PGSLOT', ctx.params.username, ctx.params.password),
    autoLoginJoker2: async (ctx) => link(requireMember(ctx).memberId, 'JOKER2', ctx.params.username),
    autoLoginHuayhd: async (ctx) => link(requireMember(ctx).memberId, 'HUAYHD', ctx.params.username),
  };
}
