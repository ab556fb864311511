import type { SmsProvider } from './sms-provider';

export interface HttpSmsOptions {
  url: string;
  method: 'POST' | 'PUT' | 'GET';
  /** Body template (or, for GET, a query string template): {{phone}}, {{phoneIntl}}, {{text}}, {{sender}}. */
  body: string;
  contentType: 'application/json' | 'application/x-www-form-urlencoded';
  headers: Record<string, string>;
  basicAuth?: string;
  bearerToken?: string;
  sender: string;
  /** Country calling code for {{phoneIntl}}: 66 (Thailand) or 856 (Laos) by default. */
  countryCode: string;
  timeoutMs: number;
  /** When set, a 2xx answer counts as sent only if its body matches. */
  successMatch?: RegExp;
}

export class SmsSendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmsSendError';
  }
}

/** 0812345678 → 66812345678 (the national trunk 0 replaced by the country code). */
export function internationalNumber(phone: string, countryCode: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.startsWith(countryCode) && digits.length > 10) return digits;
  return countryCode + digits.replace(/^0/, '');
}

/**
 * A generic HTTP SMS gateway, as most Thai and Lao gateways are: one request per message, with
 * the number, the text and a sender name in a JSON or form body (or the query string for GET),
 * credentials in a header. Sent means a 2xx answer within the timeout (and, when configured, a
 * body matching SMS_HTTP_SUCCESS_MATCH); anything else throws, which the OTP service answers
 * 502 OTP_SEND_FAIL. Nothing is retried here: the member asks again, within the send limits.
 */
export class HttpSmsProvider implements SmsProvider {
  readonly name = 'http';

  constructor(
    private readonly options: HttpSmsOptions,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async send(phoneNumber: string, text: string): Promise<void> {
    const values: Record<string, string> = {
      phone: phoneNumber,
      phoneIntl: internationalNumber(phoneNumber, this.options.countryCode),
      text,
      sender: this.options.sender,
    };
    const headers: Record<string, string> = { ...this.options.headers };
    if (this.options.basicAuth) headers.authorization = `Basic ${Buffer.from(this.options.basicAuth).toString('base64')}`;
    if (this.options.bearerToken) headers.authorization = `Bearer ${this.options.bearerToken}`;
    let url = this.options.url;
    let body: string | undefined;
    if (this.options.method === 'GET') {
      const query = fill(this.options.body, values, encodeURIComponent);
      url += (url.includes('?') ? '&' : '?') + query;
    } else {
      body = fill(this.options.body, values, this.options.contentType === 'application/json' ? jsonEscape : encodeURIComponent);
      headers['content-type'] = this.options.contentType;
    }
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: this.options.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new SmsSendError(`SMS gateway unreachable: ${error instanceof Error ? error.name : 'error'}`);
    }
    let answer = '';
    try {
      answer = await response.text();
    } catch {
      throw new SmsSendError('SMS gateway answer broken off');
    }
    if (response.status < 200 || response.status > 299) throw new SmsSendError(`SMS gateway answered ${response.status}`);
    if (this.options.successMatch && !this.options.successMatch.test(answer)) throw new SmsSendError('SMS gateway answer does not say sent');
  }
}

function fill(template: string, values: Record<string, string>, escape: (value: string) => string): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? escape(values[name] ?? '') : whole));
}

/** The inside of a JSON string literal. */
function jsonEscape(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}
