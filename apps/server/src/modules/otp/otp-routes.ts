import { checkPhone } from '@mw/contract/rules';
import type { Handlers } from '../../http/handlers';
import { conflict } from '../../lib/errors';
import { ruleError } from '../../lib/rule-error';
import type { Services } from '../../platform/services';

/**
 * Registration OTP. A phone that is already registered answers EXISTING_USER (registration
 * reveals that anyway). A client that sends the otpToken it verified for this phone (within the
 * last 30 minutes, not yet used to register) gets code OTP_VERIFIED with that token and skips the
 * OTP step; anyone else gets a code of their own.
 */
export function otpHandlers({ otp, config, accounts }: Services): Handlers {
  return {
    otpSend: async ({ body, locale, ip, deviceId }) => {
      const phone = body.phoneNumber.trim();
      const failure = ruleError(checkPhone(phone, config.LAOS_MODE));
      if (failure) throw failure;
      // It answers EXISTING_USER: counted with the other registration checks of the address.
      await accounts.countCheck(ip, deviceId);
      if (await accounts.isRegistered(phone)) throw conflict('EXISTING_USER');
      const verified = body.otpToken ? await otp.verifiedRegistration(body.otpToken, phone) : null;
      if (verified) return { ...verified, code: 'OTP_VERIFIED' as const };
      const sent = await otp.issue(phone, 'register', ip, true, locale);
      return { ...sent, code: 'OTP_SENT' as const };
    },
    otpVerify: async ({ body }) => {
      await otp.verify(body.otpToken, body.otpCode.trim(), 'register');
      return { code: 'OTP_CODE_VALID' as const };
    },
  };
}
