import { HttpSmsProvider, internationalNumber } from './http-sms';
import type { SmsProvider } from './sms-provider';

export interface SandboxSmsMessage {
  phoneNumber: string;
  text: string;
  createdAt: Date;
}

export interface SandboxSmsOptions {
  /** The sandbox service (apps/sandbox): SANDBOX_URL, or the one on SANDBOX_PORT. */
  url: string;
  /** Its SMS gateway's bearer token (SANDBOX_SMS_TOKEN). */
  token: string;
  sender: string;
  countryCode: string;
  timeoutMs: number;
}

/**
 * The sandbox service's SMS gateway, over HTTP: messages go out through the same generic HTTP
 * adapter a real gateway is reached with (POST /sms/send, bearer token, sent only on a 2xx answer
 * saying SENT); the gateway keeps them, and its control API lists a phone's messages for
 * GET /api/sandbox/sms (the demo and the tests read one-time codes there). Nothing is kept in
 * our database.
 */
export class SandboxSmsProvider implements SmsProvider {
  readonly name = 'sandbox';
  private readonly http: HttpSmsProvider;

  constructor(private readonly options: SandboxSmsOptions) {
    this.http = new HttpSmsProvider({
      url: `${options.url}/sms/send`,
      method: 'POST',
      body: '{"to":"{{phoneIntl}}","from":"{{sender}}","text":"{{text}}"}',
      contentType: 'application/json',
      headers: {},
      bearerToken: options.token,
      sender: options.sender,
      countryCode: options.countryCode,
      timeoutMs: options.timeoutMs,
      successMatch: /"status":"SENT"/,
    });
  }

  send(phoneNumber: string, text: string): Promise<void> {
    return this.http.send(phoneNumber, text);
  }

  /** The phone's messages, newest first; none when the sandbox does not answer. */
  async outbox(phoneNumber: string, limit = 20): Promise<SandboxSmsMessage[]> {
    const to = internationalNumber(phoneNumber, this.options.countryCode);
    try {
      const res = await fetch(`${this.options.url}/control/sms/messages?to=${encodeURIComponent(to)}&limit=${limit}`, { signal: AbortSignal.timeout(this.options.timeoutMs) });
      if (!res.ok) return [];
      const body = (await res.json()) as { messages?: Array<{ text?: unknown; at?: unknown }> };
      return (body.messages ?? []).flatMap((m) => (typeof m.text === 'string' && typeof m.at === 'string' ? [{ phoneNumber, text: m.text, createdAt: new Date(m.at) }] : []));
    } catch {
      return [];
    }
  }
}
