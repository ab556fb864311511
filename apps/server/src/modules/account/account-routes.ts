import type { Handlers } from '../../http/handlers';
import { requireMember } from '../../http/handlers';
import { AppError } from '../../lib/errors';
import type { Services } from '../../platform/services';

export function accountHandlers({ accounts, sessions, risk }: Services): Handlers {
  return {
    accountValidate: async ({ body, ip, deviceId }) => {
      await accounts.countCheck(ip, deviceId);
      await accounts.validate(body, true);
      return { ok: true };
    },
    accountCreate: async ({ body, ip, deviceId }) => {
      await accounts.countCheck(ip, deviceId);
      const memberId = await accounts.register(body);
      // Risk signals (shared device, address, bank account; a name unlike the account's): never a refusal.
      await risk.registered({ memberId, deviceId, address: ip, name: body.name, bankAccountName: body.bankAccountName, bankAccountNo: body.bankAccountNo });
      return { ok: true, _id: memberId };
    },
    login: async ({ body, ip, deviceId }) => {
      try {
        const { token, memberId } = await accounts.login(body.username, body.password, ip);
        await risk.loggedIn({ memberId, deviceId, address: ip });
        return { token };
      } catch (error) {
        if (error instanceof AppError && error.code === 'WRONG_CREDENTIAL') await risk.loginFailed({ username: body.username, deviceId, address: ip });
        throw error;
      }
    },
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
