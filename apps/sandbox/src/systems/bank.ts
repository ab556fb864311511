/**
 * The banks behind the deposit accounts and the payouts, as one bank API (KBANK-style open
 * banking): transfers between any accounts with what a slip carries, looked up by the sending
 * bank and its reference (slip verification); a feed reporting each transfer into a merchant's
 * subscribed account by a signed webhook; and outgoing transfers (payouts) paid once per
 * reference, asked about by reference. Protocol: docs/sandbox.md.
 *
 * Merchant calls, `POST /bank/{action}`, signed (X-Timestamp, X-Signature = hex HMAC-SHA256 of
 * `${timestamp}.${body}` with the bank API's secret; else `401 INVALID_SIGNATURE`):
 * - `lookup {fromBankCode, transRef}` → `200 {status: "SUCCESS", transfer}`; `404 NOT_FOUND`;
 *   `429 CAPTCHA` (the bank's captcha wall) or `500 ERROR` while told so.
 * - `transfers/report {from, to}` → `200 {status: "SUCCESS", transfers}`.
 * - `payouts {reference, bankCode, accountNo, accountName, amount, currency}` → `200 {status:
 *   "SUCCESS", payout}` (`payout.state` accepted, completed or failed with `failure`); the same
 *   reference again answers the first payout and pays nothing more.
 * - `payouts/status {reference}` → `200 {status: "SUCCESS", payout}`; `404 NOT_FOUND`.
 * - `payouts/report {from, to}` → `200 {status: "SUCCESS", payouts}`.
 * Webhook (feed): `POST {webhookUrl with {bankCode} replaced}` `{transRef, fromBankCode,
 * fromAccountNo, fromName, toBankCode, toAccountNo, toName, amount: "100.00", currency, at}`.
 *
 * Control (unsigned): `PUT /control/bank/merchant {webhookUrl, secret}`; `POST
 * /control/bank/transfers {…, report?}`; `GET /control/bank/transfers/{transRef}`; `POST
 * /control/bank/transfers/{fromBankCode}/{transRef}/redeliver {times}`; `PUT|GET
 * /control/bank/lookup-fault {mode: none|captcha|error}`; `PUT|GET /control/bank/payout-fault
 * {mode: none|down|timeout|lost|reject|accept, failure?}`; `GET /control/bank/payouts/{reference}`;
 * `POST /control/bank/payouts/{reference}/complete-at {at}`; `POST /control/bank/payouts/forge {…}`.
 */
import { randomBytes } from 'node:crypto';
import { defineSystem, json, minor, redeliver, registerMerchant, str, verify, type Answer, type SandboxRequest, type SystemContext } from '../kit';

type Currency = 'THB' | 'LAK';

interface Transfer {
  transRef: string;
  fromBankCode: string;
  fromAccountNo: string;
  fromName: string;
  toBankCode: string;
  toAccountNo: string;
  toName: string;
  amount: number;
  currency: Currency;
  at: string;
}

const FAILURES = ['ACCOUNT_INVALID', 'NAME_MISMATCH', 'REFUSED'] as const;
type Failure = (typeof FAILURES)[number];
const FAILURE_TEXT: Record<Failure, string> = {
  ACCOUNT_INVALID: 'beneficiary account does not exist or is closed',
  NAME_MISMATCH: 'beneficiary name does not match the account',
  REFUSED: 'transfer refused by the bank',
};
const PAYOUT_MODES = ['none', 'down', 'timeout', 'lost', 'reject', 'accept'] as const;
type PayoutMode = (typeof PAYOUT_MODES)[number];
/** How long an accepted payout (the `accept` fault) takes to complete. */
const ACCEPT_MS = 1_000;

interface Payout {
  reference: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: number;
  currency: Currency;
  state: 'accepted' | 'completed' | 'failed';
  failure: Failure | null;
  reason: string | null;
  bankRef: string;
  completeAt: number | null;
  at: string;
}

export interface BankState {
  transfers: Map<string, Transfer>;
  payouts: Map<string, Payout>;
  merchant: { webhookUrl: string; secret: string } | null;
  lookupFault: 'none' | 'captcha' | 'error';
  payoutFault: { mode: PayoutMode; failure?: Failure };
}

export type BankEvent =
  | { type: 'transfer'; transfer: Transfer }
  | { type: 'payout'; payout: Payout }
  | { type: 'completed'; reference: string }
  | { type: 'complete-at'; reference: string; at: number }
  | { type: 'merchant'; webhookUrl: string; secret: string }
  | { type: 'lookup-fault'; mode: BankState['lookupFault'] }
  | { type: 'payout-fault'; fault: BankState['payoutFault'] };

type Ctx = SystemContext<BankEvent>;

const key = (fromBankCode: string, transRef: string) => `${fromBankCode}:${transRef}`;
const bankCode = (value: unknown): string | null => (typeof value === 'string' && /^[A-Z0-9]{2,16}$/.test(value) ? value : null);
const accountNo = (value: unknown): string | null => (typeof value === 'string' && /^[A-Za-z0-9-]{1,32}$/.test(value) ? value : null);
const currencyOf = (value: unknown): Currency | null => (value === undefined || value === 'THB' ? 'THB' : value === 'LAK' ? 'LAK' : null);
const time = (value: unknown): number | null => {
  if (typeof value !== 'string' || value.length > 40) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
};
/** A reference as the bank issues them: the date, then 14 letters and digits. */
const newRef = (at: number, tag = '') => `${new Date(at).toISOString().slice(2, 10).replace(/-/g, '')}${tag}${randomBytes(7).toString('hex').toUpperCase()}`;

function payoutView(p: Payout) {
  const { completeAt: _completeAt, ...view } = p;
  return view;
}

/** An accepted payout whose time has come is completed (as the bank's own batch run would). */
function due(state: BankState, ctx: Ctx, payout: Payout | undefined): Payout | undefined {
  if (payout && payout.state === 'accepted' && payout.completeAt !== null && payout.completeAt <= ctx.now()) ctx.commit({ type: 'completed', reference: payout.reference });
  return payout;
}

function period(body: Record<string, unknown>): { from: number; to: number } | null {
  const from = time(body.from);
  const to = time(body.to);
  return from === null || to === null || from >= to ? null : { from, to };
}

function handle(req: SandboxRequest, state: BankState, ctx: Ctx, secret: string): Answer {
  if (req.method !== 'POST') return json(404, { status: 'NOT_FOUND' });
  if (!verify(req.headers, req.raw, secret, ctx.now())) return json(401, { status: 'INVALID_SIGNATURE' });
  const body = req.body ?? {};
  const path = req.parts.join('/');
  if (path === 'lookup') {
    const from = bankCode(body.fromBankCode);
    const ref = str(body.transRef, 40);
    if (!from || !ref) return json(400, { status: 'BAD_REQUEST' });
    if (state.lookupFault === 'captcha') return json(429, { status: 'CAPTCHA' });
    if (state.lookupFault === 'error') return json(500, { status: 'ERROR' });
    const transfer = state.transfers.get(key(from, ref));
    return transfer ? json(200, { status: 'SUCCESS', transfer }) : json(404, { status: 'NOT_FOUND' });
  }
  if (path === 'transfers/report' || path === 'payouts/report') {
    const range = period(body);
    if (!range) return json(400, { status: 'BAD_REQUEST' });
    const within = (at: string) => Date.parse(at) >= range.from && Date.parse(at) < range.to;
    if (path === 'transfers/report') return json(200, { status: 'SUCCESS', transfers: [...state.transfers.values()].filter((t) => within(t.at)) });
    const payouts = [...state.payouts.values()].filter((p) => within(p.at)).map((p) => payoutView(due(state, ctx, p) ?? p));
    return json(200, { status: 'SUCCESS', payouts });
  }
  if (path === 'payouts' || path === 'payouts/status') {
    const fault = state.payoutFault;
    if (fault.mode === 'down') return json(503, { status: 'UNAVAILABLE' });
    if (path === 'payouts/status') {
      const payout = due(state, ctx, state.payouts.get(str(body.reference, 64) ?? ''));
      return payout ? json(200, { status: 'SUCCESS', payout: payoutView(payout) }) : json(404, { status: 'NOT_FOUND' });
    }
    // Hangs past any caller's deadline and records nothing.
    if (fault.mode === 'timeout') return { status: 503, body: { status: 'UNAVAILABLE' }, fail: 'hang' };
    const reference = str(body.reference, 64);
    const to = bankCode(body.bankCode);
    const account = accountNo(body.accountNo);
    const name = str(body.accountName, 100);
    const amount = minor(body.amount);
    const currency = currencyOf(body.currency);
    if (!reference || !to || !account || !name || !amount || !currency) return json(400, { status: 'BAD_REQUEST' });
    // One transfer per reference: a second send answers the first and pays nothing more.
    let payout = state.payouts.get(reference);
    if (!payout) {
      const failure = fault.mode === 'reject' ? (fault.failure ?? 'REFUSED') : null;
      payout = {
        reference,
        bankCode: to,
        accountNo: account,
        accountName: name,
        amount,
        currency,
        state: failure ? 'failed' : fault.mode === 'accept' ? 'accepted' : 'completed',
        failure,
        reason: failure ? FAILURE_TEXT[failure] : null,
        bankRef: newRef(ctx.now(), 'P'),
        completeAt: fault.mode === 'accept' ? ctx.now() + ACCEPT_MS : null,
        at: new Date(ctx.now()).toISOString(),
      };
      ctx.commit({ type: 'payout', payout });
    }
    const answer = json(200, { status: 'SUCCESS', payout: payoutView(due(state, ctx, payout) ?? payout) });
    // Executed, and the answer lost on the way back.
    return fault.mode === 'lost' ? { ...answer, fail: 'drop' } : answer;
  }
  return json(404, { status: 'NOT_FOUND' });
}

/** The feed's webhook of one transfer: the merchant's answer (`0`: none came), or null when no merchant is registered. */
async function report(state: BankState, ctx: Ctx, t: Transfer): Promise<{ status: number } | null> {
  if (!state.merchant) return null;
  const answer = await ctx.send(state.merchant.webhookUrl.replace('{bankCode}', t.toBankCode), { ...t, amount: (t.amount / 100).toFixed(2) }, state.merchant.secret, t.toBankCode);
  return { status: answer?.status ?? 0 };
}

function newTransfer(body: Record<string, unknown>, now: number): Transfer | null {
  const fromBankCode = bankCode(body.fromBankCode);
  const toBankCode = bankCode(body.toBankCode);
  const fromAccountNo = accountNo(body.fromAccountNo);
  const toAccountNo = accountNo(body.toAccountNo);
  const amount = minor(body.amount);
  const currency = currencyOf(body.currency);
  const at = body.at === undefined ? now : time(body.at);
  const transRef = body.transRef === undefined ? newRef(at ?? now) : str(body.transRef, 40);
  if (!fromBankCode || !toBankCode || !fromAccountNo || !toAccountNo || !amount || !currency || at === null || !transRef || !/^[A-Za-z0-9]{6,40}$/.test(transRef)) return null;
  const name = (value: unknown, fallback: string) => str(value, 100) ?? fallback;
  return { transRef, fromBankCode, fromAccountNo, fromName: name(body.fromName, 'SANDBOX CUSTOMER'), toBankCode, toAccountNo, toName: name(body.toName, 'GOLDEN WALLET CO LTD'), amount, currency, at: new Date(at).toISOString() };
}

async function control(req: SandboxRequest, state: BankState, ctx: Ctx): Promise<Answer> {
  const body = req.body ?? {};
  const [area, a, b, c] = req.parts;
  if (area === 'merchant' && req.method === 'PUT' && req.parts.length === 1) {
    return registerMerchant(body, state.merchant, (merchant) => ctx.commit({ type: 'merchant', ...merchant }));
  }
  if (area === 'lookup-fault' && req.parts.length === 1) {
    if (req.method === 'PUT') {
      const mode = body.mode === 'none' || body.mode === 'captcha' || body.mode === 'error' ? body.mode : null;
      if (!mode) return json(400, { status: 'BAD_REQUEST' });
      ctx.commit({ type: 'lookup-fault', mode });
    }
    return json(200, { mode: state.lookupFault });
  }
  if (area === 'payout-fault' && req.parts.length === 1) {
    if (req.method === 'PUT') {
      const mode = PAYOUT_MODES.find((m) => m === body.mode);
      const failure = FAILURES.find((f) => f === body.failure);
      if (!mode || (body.failure !== undefined && !failure)) return json(400, { status: 'BAD_REQUEST' });
      ctx.commit({ type: 'payout-fault', fault: mode === 'reject' ? { mode, failure: failure ?? 'REFUSED' } : { mode } });
    }
    return json(200, state.payoutFault);
  }
  if (area === 'transfers') {
    if (req.method === 'POST' && req.parts.length === 1) {
      const transfer = newTransfer(body, ctx.now());
      if (!transfer) return json(400, { status: 'BAD_REQUEST' });
      const known = state.transfers.get(key(transfer.fromBankCode, transfer.transRef));
      if (known) return json(200, { transfer: known, feed: null });
      ctx.commit({ type: 'transfer', transfer });
      return json(200, { transfer, feed: body.report === false ? null : await report(state, ctx, transfer) });
    }
    if (req.method === 'GET' && a && req.parts.length === 2) {
      const transfer = [...state.transfers.values()].find((t) => t.transRef === a);
      return transfer ? json(200, { transfer }) : json(404, { status: 'NOT_FOUND' });
    }
    if (req.method === 'POST' && a && b && c === 'redeliver' && req.parts.length === 4) {
      const transfer = state.transfers.get(key(a, b));
      if (!transfer) return json(200, { deliveries: [] });
      return redeliver(body, () => report(state, ctx, transfer));
    }
  }
  if (area === 'payouts') {
    if (req.method === 'POST' && a === 'forge' && req.parts.length === 2) {
      const reference = str(body.reference, 64);
      const amount = minor(body.amount);
      const to = bankCode(body.bankCode);
      const account = accountNo(body.accountNo);
      const currency = currencyOf(body.currency);
      if (!reference || !amount || !to || !account || !currency || state.payouts.has(reference)) return json(400, { status: 'BAD_REQUEST' });
      const payout: Payout = { reference, bankCode: to, accountNo: account, accountName: str(body.accountName, 100) ?? 'UNKNOWN', amount, currency, state: 'completed', failure: null, reason: null, bankRef: `FORGED${randomBytes(6).toString('hex').toUpperCase()}`, completeAt: null, at: new Date(ctx.now()).toISOString() };
      ctx.commit({ type: 'payout', payout });
      return json(200, { payout: payoutView(payout) });
    }
    const payout = state.payouts.get(a ?? '');
    if (!payout) return json(404, { status: 'NOT_FOUND' });
    if (req.method === 'GET' && req.parts.length === 2) return json(200, { payout: payoutView(payout), completeAt: payout.completeAt });
    if (req.method === 'POST' && b === 'complete-at' && req.parts.length === 3) {
      const at = time(body.at);
      if (at === null) return json(400, { status: 'BAD_REQUEST' });
      ctx.commit({ type: 'complete-at', reference: payout.reference, at });
      return json(200, { payout: payoutView(payout) });
    }
  }
  return json(404, { status: 'NOT_FOUND' });
}

export function bankSystem(secret: string) {
  return defineSystem<BankState, BankEvent>({
    name: 'bank',
    initial: () => ({ transfers: new Map(), payouts: new Map(), merchant: null, lookupFault: 'none', payoutFault: { mode: 'none' } }),
    apply(state, event) {
      if (event.type === 'transfer') state.transfers.set(key(event.transfer.fromBankCode, event.transfer.transRef), event.transfer);
      else if (event.type === 'payout') state.payouts.set(event.payout.reference, event.payout);
      else if (event.type === 'merchant') state.merchant = { webhookUrl: event.webhookUrl, secret: event.secret };
      else if (event.type === 'lookup-fault') state.lookupFault = event.mode;
      else if (event.type === 'payout-fault') state.payoutFault = event.fault;
      else {
        const payout = state.payouts.get(event.reference);
        if (payout && payout.state === 'accepted') {
          if (event.type === 'completed') payout.state = 'completed';
          else payout.completeAt = event.at;
        }
      }
    },
    handle: (req, state, ctx) => handle(req, state, ctx, secret),
    control: (req, state, ctx) => control(req, state, ctx),
    summary: (state) => ({ transfers: state.transfers.size, payouts: state.payouts.size }),
  });
}
