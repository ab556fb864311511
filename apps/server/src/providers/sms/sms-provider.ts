/** An SMS gateway: sends one text to one phone number. */
export interface SmsProvider {
  readonly name: string;
  send(phoneNumber: string, text: string): Promise<void>;
}
