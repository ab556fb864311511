import { Breaker, BreakerOpen } from '../../platform/breaker';
import { neverSent, signedPost, type SignedAnswer } from '../signed-post';
import { PAYOUT_FAILURES, PayoutUnavailable, PayoutUnknown, type PayoutAnswer, type PayoutProvider, type PayoutRequest } from './payout';

export interface HttpPayoutsOptions {
  /** The payout API's base (PAYOUT_API_URL; the sandbox service). */
  url: string;
  /** The HMAC-SHA256 secret of its signed calls (PAYOUT_API_SECRET). */
  secret: string;
  /** Deadline of one call (PROVIDER_TIMEOUT_MS); a report gets at least 30 s. */
  timeoutMs: number;
  /** Its name in records and reports. */
  name?: string;
}

/** A 5xx answer, carried through the breaker as a failure of the bank. */
class ServerAnswer extends Error {
  constructor(readonly answer: SignedAnswer) {
    super(`answered ${answer.httpStatus}`);
  }
}

/** A payout as the bank's API sends it, checked (null: not one). */
function payoutOf(p: Record<string, unknown>): PayoutAnswer | null {
  const at = new Date(String(p.at));
  const status = p.state === 'accepted' || p.state === 'completed' || p.state === 'failed' ? p.state : null;
  if (typeof p.reference !== 'string' || !status || !Number.isSafeInteger(p.amount) || typeof p.bankCode !== 'string' || typeof p.accountNo !== 'string' || !Number.isFinite(at.getTime())) return null;
  if (p.currency !== 'THB' && p.currency !== 'LAK') return null;
  const failure = PAYOUT_FAILURES.find((f) => f === p.failure);
  if (status === 'failed' && !failure) return null;
  return {
    reference: p.reference,
    status,
    ...(failure ? { failure } : {}),
    ...(typeof p.reason === 'string' ? { reason: p.reason } : {}),
    ...(typeof p.bankRef === 'string' ? { bankRef: p.bankRef } : {}),
    amount: p.amount as number,
    currency: p.currency,
    bankCode: p.bankCode,
    accountNo: p.accountNo,
    at,
  };
}

/**
 * Payouts through the bank's API over HTTP (docs/sandbox.md, "Bank"): outgoing transfers sent
 * with the withdrawal's id as the reference (the bank pays a reference once), asked about by
 * reference. Errors map onto what the payout flow needs to stay exact: refused before anything
 * (no connection, 503) is `PayoutUnavailable` — safe to send again; no answer (the deadline, a
 * reset connection, another 5xx, an answer we cannot read) is `PayoutUnknown` — only asking by
 * reference tells. Nothing is retried here. A breaker (5 failures in a row open it for 10 s)
 * answers "unavailable" at once while the bank is down: nothing is sent then.
 */
export class HttpPayouts implements PayoutProvider {
  readonly name: string;
  protected readonly base: string;
  /** Sending and asking share one breaker (the bank is down or not); the report has its own. */
  private readonly breaker: Breaker;
  private readonly reportBreaker: Breaker;

  constructor(protected readonly options: HttpPayoutsOptions) {
    this.name = options.name ?? 'bank';
    this.base = options.url.replace(/\/+$/, '');
    // Only failures are thrown inside (a 5xx, no connection, the deadline): every one counts.
    const isFailure = () => true;
    this.breaker = new Breaker({ failures: 5, openMs: 10_000, timeoutMs: options.timeoutMs, isFailure });
    this.reportBreaker = new Breaker({ failures: 5, openMs: 10_000, timeoutMs: Math.max(options.timeoutMs, 30_000), isFailure });
  }

  /**
   * One call under the bank's breaker and deadline. Nothing sent (no connection, an open breaker,
   * 503) is PayoutUnavailable; sent without an answer (the deadline, a reset, another 5xx) PayoutUnknown.
   */
  private async call(action: string, body: Record<string, unknown>, report = false): Promise<SignedAnswer> {
    let sent = false;
    try {
      return await (report ? this.reportBreaker : this.breaker).run(async (signal) => {
        sent = true;
        const answer = await signedPost(`${this.base}/bank/${action}`, this.options.secret, body, signal);
        if (answer.httpStatus >= 500) throw new ServerAnswer(answer);
        return answer;
      });
    } catch (error) {
      if (error instanceof BreakerOpen || !sent) throw new PayoutUnavailable(`${action}: the bank's breaker is open`);
      if (error instanceof ServerAnswer) {
        if (error.answer.httpStatus === 503) throw new PayoutUnavailable(`${action}: ${String(error.answer.body.status ?? 503)}`);
        throw new PayoutUnknown(`${action}: answered ${error.answer.httpStatus}`);
      }
      if (neverSent(error)) throw new PayoutUnavailable(`${action}: not reached`);
      throw new PayoutUnknown(`${action}: no answer (${String(error)})`);
    }
  }

  private answerOf(action: string, answer: SignedAnswer): PayoutAnswer {
    const payout = answer.httpStatus === 200 && typeof answer.body.payout === 'object' && answer.body.payout !== null ? payoutOf(answer.body.payout as Record<string, unknown>) : null;
    if (!payout) throw new PayoutUnknown(`${action}: answered ${answer.httpStatus} ${String(answer.body.status ?? '')}`);
    return payout;
  }

  async send(request: PayoutRequest): Promise<PayoutAnswer> {
    return this.answerOf('payouts', await this.call('payouts', { ...request }));
  }

  async status(reference: string): Promise<PayoutAnswer | null> {
    const answer = await this.call('payouts/status', { reference });
    return answer.httpStatus === 404 ? null : this.answerOf('payouts/status', answer);
  }

  async payouts(from: Date, to: Date): Promise<PayoutAnswer[]> {
    const answer = await this.call('payouts/report', { from: from.toISOString(), to: to.toISOString() }, true);
    const list = answer.body.payouts;
    if (answer.httpStatus !== 200 || !Array.isArray(list)) throw new PayoutUnknown(`payouts/report: answered ${answer.httpStatus}`);
    return list.map((p: Record<string, unknown>) => {
      const payout = payoutOf(p);
      if (!payout) throw new PayoutUnknown(`payouts/report: a malformed payout ${JSON.stringify(p).slice(0, 200)}`);
      return payout;
    });
  }
}
