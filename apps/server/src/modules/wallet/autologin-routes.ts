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
  const link = async (memberId: string, code: string, username: string, password: string | undefined, locale: string) => ({
    link: inLanguage((await games.launch(memberId, code, username, password)).link, locale),
  });
  return {
    autoLoginPg: async (ctx) => link(requireMember(ctx).memberId, 'PG', ctx.params.username, undefined, ctx.locale),
    autoLoginBetflix: async (ctx) => link(requireMember(ctx).memberId, 'BETFLIX', ctx.params.username, undefined, ctx.locale),
    autoLoginAskmebet: async (ctx) => link(requireMember(ctx).memberId, 'ASKMEBET', ctx.params.username, ctx.params.password, ctx.locale),
    autoLoginImi: async (ctx) => link(requireMember(ctx).memberId, 'IMI', ctx.params.username, ctx.params.password, ctx.locale),
    autoLoginUsun: async (ctx) => link(requireMember(ctx).memberId, 'USUN', ctx.params.username, ctx.params.password, ctx.locale),
    autoLoginAreaslot: async (ctx) => link(requireMember(ctx).memberId, 'AREASLOT', ctx.params.username, undefined, ctx.locale),
    autoLoginCircus: async (ctx) => link(requireMember(ctx).memberId, 'CIRCUS', ctx.params.username, ctx.params.password, ctx.locale),
    autoLoginSlotracha: async (ctx) => link(requireMember(ctx).memberId, 'SLOTRACHA', ctx.params.username, ctx.params.password, ctx.locale),
    autoLoginPgslot: async (ctx) => link(requireMember(ctx).memberId, 'PGSLOT', ctx.params.username, ctx.params.password, ctx.locale),
    autoLoginJoker2: async (ctx) => link(requireMember(ctx).memberId, 'JOKER2', ctx.params.username, undefined, ctx.locale),
    autoLoginHuayhd: async (ctx) => link(requireMember(ctx).memberId, 'HUAYHD', ctx.params.username, undefined, ctx.locale),
  };
}
