import type { Handlers } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import type { Services } from '../../platform/services';
import { deviceOf } from '../../http/device';

export function accountHandlers({ accounts, sessions }: Services): Handlers {
  return {
    accountValidate: async ({ body, ip, request }) => {
      await accounts.countCheck(ip, deviceOf(request));
      await accounts.validate(body, true);
      return { ok: true };
    },
    accountCreate: async ({ body, ip, request }) => {
      await accounts.countCheck(ip, deviceOf(request));
      return { ok: true, _id: await accounts.register(body) };
    },
    login: async ({ body, ip }) => ({ token: await accounts.login(body.username, body.password, ip) }),
    logout: async (ctx) => {
      await sessions.revoke(requireMember(ctx).sessionId);
      return { ok: true };
    },
    profileGet: async (ctx) => accounts.profile(requireMember(ctx).memberId),
    profilePut: async (ctx) => accounts.updateProfile(requireMember(ctx).memberId, ctx.body),
    bankAccountNamePut: async (ctx) => accounts.updateBankAccountName(requireMember(ctx).memberId, ctx.body.bankCode, ctx.body.bankAccountName),
    changePassword: async (ctx) => {
      const member = requireMember(ctx);
      await accounts.changePassword(member.memberId, member.sessionId, ctx.body.oldPassword, ctx.body.newPassword);
      return { ok: true };
    },
    forgotSend: async ({ body, locale, ip }) => accounts.forgotSend(body.phoneNumber, ip, locale),
    forgotReset: async ({ body }) => {
      await accounts.forgotReset(body.otpToken, body.otpCode, body.newPassword);
      return { ok: true };
    },
  };
}
