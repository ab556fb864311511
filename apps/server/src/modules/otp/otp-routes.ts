import { checkPhone } from '@mw/contract/rules';
import type { Handlers } from '../../http/handlers';
import { conflict } from '../../lib/errors';
import { ruleError } from '../../lib/rule-error';
import type { Services } from '../../services';

/**
 * Registration OTP. A phone that is already registered answers EXISTING_USER (registration
 * reveals that anyway); a phone verified within the last 30 minutes answers code OTP_VERIFIED
 * and the client skips the OTP step.
 */
export function otpHandlers({ otp, config, database }: Services): Handlers {
  return {
    otpSend: async ({ body, locale }) => {
      const phone = body.phoneNumber.trim();
      const failure = ruleError(checkPhone(phone, config.LAOS_MODE));
      if (failure) throw failure;
      const member = await database.db.selectFrom('members').select('id').where('username', '=', phone).executeTakeFirst();
      if (member) throw conflict('EXISTING_USER');
      if (await otp.isPhoneVerified(phone)) return { otpRef: '', otpToken: '', code: 'OTP_VERIFIED' as const };
      const sent = await otp.issue(phone, 'register', true, locale);
      return { ...sent, code: 'OTP_SENT' as const };
    },
    otpVerify: async ({ body }) => {
      const phone = await otp.verify(body.otpToken, body.otpCode.trim(), 'register');
      await otp.markPhoneVerified(phone);
      return { code: 'OTP_CODE_VALID' as const };
    },
  };
}
