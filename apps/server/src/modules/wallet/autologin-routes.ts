import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import type { Services } from '../../platform/services';

/**
 * The auto-login calls of spec section 7. Each answers a launch link for the caller's own
 * account at that game; a username (or password) that is not the caller's answers
 * SLOT_NO_ACCOUNT, exactly as a game the caller never opened does.
 */
export function autologinHandlers({ games }: Services): Handlers {
  // The sandbox service's demo game (its play link) speaks the member's language (the app's calls carry it): `lang` on its link.
  const inLanguage = (link: string, locale: string) => (/^https?:\/\/[^/]+\/games\/[A-Z0-9]+\/play\?t=/.test(link) ? `${link}&lang=${locale}` : link);
  // The provider's "back" goes to the member home on the host the member called us on (a phone on
  // the LAN, the real domain, 127.0.0.1 or localhost: each keeps its own login in the browser).
  const home = (request: FastifyRequest) => (/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:]+\](:\d{1,5})?$/.test(request.host) ? `${request.protocol}://${request.host}/user/home` : undefined);
  const link = async (ctx: { request: FastifyRequest; locale: string }, memberId: string, code: string, username: string, password: string | undefined) => ({
    link: inLanguage((await games.launch(memberId, code, username, password, home(ctx.request))).link, ctx.locale),
  });
  return {
    autoLoginPg: async (ctx) => link(ctx, requireMember(ctx).memberId, 'PG', ctx.params.username, undefined),
    autoLoginBetflix: async (ctx) => link(ctx, requireMember(ctx).memberId, 'BETFLIX', ctx.params.username, undefined),
    autoLoginAskmebet: async (ctx) => link(ctx, requireMember(ctx).memberId, 'ASKMEBET', ctx.params.username, ctx.params.password),
    autoLoginImi: async (ctx) => link(ctx, requireMember(ctx).memberId, 'IMI', ctx.params.username, ctx.params.password),
    autoLoginUsun: async (ctx) => link(ctx, requireMember(ctx).memberId, 'USUN', ctx.params.username, ctx.params.password),
    autoLoginAreaslot: async (ctx) => link(ctx, requireMember(ctx).memberId, 'AREASLOT', ctx.params.username, undefined),
    autoLoginCircus: async (ctx) => link(ctx, requireMember(ctx).memberId, 'CIRCUS', ctx.params.username, ctx.params.password),
    autoLoginSlotracha: async (ctx) => link(ctx, requireMember(ctx).memberId, 'SLOTRACHA', ctx.params.username, ctx.params.password),
    autoLoginPgslot: async (ctx) => link(ctx, requireMember(ctx).memberId, 'PGSLOT', ctx.params.username, ctx.params.password),
    autoLoginJoker2: async (ctx) => link(ctx, requireMember(ctx).memberId, 'JOKER2', ctx.params.username, undefined),
    autoLoginHuayhd: async (ctx) => link(ctx, requireMember(ctx).memberId, 'HUAYHD', ctx.params.username, undefined),
  };
}
