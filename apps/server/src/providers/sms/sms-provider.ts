/** An SMS gateway: sends one text to one phone number. */
export interface SmsProvider {
  readonly name: string;
  send(phoneNumber: string, text: string): Promise<void>;
}

/** Raised by a provider that could not hand the message over (answered as OTP_SEND_FAIL). */
export class SmsSendError extends Error {}
