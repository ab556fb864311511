/**
 * The few API calls the how-to recorder makes to set a scene before the camera rolls (a member,
 * money in the wallet, an open game account, a bonus): the product's own public API and its
 * sandbox routes, over fetch.
 */
export class HowtoApi {
  constructor(
    readonly baseUrl: string,
    private readonly operatorToken: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, options: { body?: unknown; token?: string; operator?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.operator) headers.authorization = `Bearer ${this.operatorToken}`;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** Registers a member through the OTP flow (the code read from the sandbox SMS outbox) and logs in. */
  async register(member: { phone: string; name: string; accountName: string; password: string }): Promise<string> {
    const sent = await this.call<{ otpRef: string; otpToken: string }>('POST', '/api/otp/send', { body: { phoneNumber: member.phone } });
    let code = '';
    for (let attempt = 0; attempt < 50 && code === ''; attempt += 1) {
      const outbox = await this.call<{ messages: Array<{ text: string }> }>('GET', `/api/sandbox/sms?phoneNumber=${member.phone}`);
      const text = outbox.messages.find((message) => message.text.includes(sent.otpRef))?.text ?? '';
      code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
      if (code === '') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (code === '') throw new Error(`no OTP SMS reached ${member.phone}`);
    await this.call('POST', '/api/otp/verify', { body: { otpToken: sent.otpToken, otpCode: code } });
    await this.call('POST', '/api/account', {
      body: {
        otpToken: sent.otpToken,
        name: member.name,
        username: member.phone,
        password: member.password,
        sourceCode: 'FACEBOOK',
        inviteCode: '',
        bankCode: 'KBANK',
        bankAccountName: member.accountName,
        bankAccountNo: `9${member.phone.slice(1)}`,
        birthDate: '1990-01-15',
      },
    });
    const login = await this.call<{ token: string }>('POST', '/api/login', { body: { username: member.phone, password: member.password } });
    return login.token;
  }

  /** A sandbox top-up (counted as a deposit, so a bonus can be received on it). */
  async topUp(token: string, amount: number): Promise<void> {
    await this.call('POST', '/api/wallet/add', { token, body: { amount } });
  }

  async openGameAccount(token: string, code: string): Promise<string> {
    await this.call('GET', `/api/wallet/activate/${code}`, { token });
    const login = await this.call<{ username: string }>('GET', `/api/wallet/account/${code}`, { token });
    return login.username;
  }

  async transfer(token: string, from: string, to: string, amount: number): Promise<void> {
    await this.call('POST', '/api/wallet/transfer', { token, body: { from, to, amount } });
  }

  /** Rounds at the sandbox game with a chosen outcome (operator sandbox route); `stake` in satang. */
  async playRounds(code: string, username: string, stake: number, multiplier: number, rounds: number): Promise<void> {
    await this.call('POST', `/api/operator/sandbox/games/${code}/rounds`, { operator: true, body: { username, stake, multiplier, rounds } });
  }

  async activateBonus(token: string, code: string): Promise<void> {
    await this.call('GET', `/api/bonus/activate/${code}`, { token });
  }

  /** The sandbox gateway's customer pays an open QR; its signed webhook credits the wallet. */
  async payQr(qrcodeId: string): Promise<void> {
    await this.call('POST', `/api/sandbox/payments/${encodeURIComponent(qrcodeId)}/pay`, { body: {} });
  }
}
