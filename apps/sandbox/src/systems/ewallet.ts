/**
 * An e-wallet (TrueMoney Wallet style): gift vouchers ("angpao" links) a merchant verifies and
 * redeems into its wallet, transfers between wallets, and — for a merchant that registered a
 * webhook — each transfer into its wallets reported by a signed POST. Protocol: docs/sandbox.md.
 *
 * Merchant calls (signed: X-Timestamp, X-Signature = hex HMAC-SHA256 of `${timestamp}.${body}`
 * with the e-wallet's API secret; else `401 {status: "INVALID_SIGNATURE"}`):
 * - `POST /ewallet/vouchers/verify {hash, mobile}` → `200 {status: "SUCCESS", voucher}` or `404 {status: "VOUCHER_NOT_FOUND"}`.
 * - `POST /ewallet/vouchers/redeem {hash, mobile}` → `200 {status: "SUCCESS", amount}`, whole and
 *   once; or `400 {status}` with VOUCHER_EXPIRED, VOUCHER_OUT_OF_STOCK, CANNOT_GET_OWN_VOUCHER,
 *   TARGET_USER_REDEEMED (the same wallet again), `404 VOUCHER_NOT_FOUND`.
 * - `POST /ewallet/report/vouchers {from, to}` / `POST /ewallet/report/transfers {from, to}`: what
 *   was redeemed / sent in [from, to) (ISO times), for reconciliation.
 * Webhook: `POST {webhookUrl}` `{transferId, fromPhone, toPhone, amount: "75.00", currency, at}`,
 * signed with the merchant's webhook secret; sent once per transfer (the control API sends it again).
 *
 * Control (unsigned, sandbox only): `PUT /control/ewallet/merchant {webhookUrl, secret}`;
 * `POST /control/ewallet/vouchers {amount, expiresInSeconds, ownerPhone}` (a customer makes a
 * voucher); `POST /control/ewallet/transfers {fromPhone, toPhone, amount, currency?, report?,
 * transferId?, at?}` (a customer sends money; reported unless `report` is false);
 * `POST /control/ewallet/transfers/{id}/redeliver {times}`.
 */
import { randomBytes } from 'node:crypto';
import { defineSystem, json, minor, redeliver, registerMerchant, str, verify, type Answer, type SandboxRequest, type SystemContext } from '../kit';

interface Voucher {
  hash: string;
  amount: number;
  ownerPhone: string;
  expiresAt: number;
  redeemedBy: string | null;
  redeemedAt: string | null;
}

interface Transfer {
  transferId: string;
  fromPhone: string;
  toPhone: string;
  amount: number;
  currency: 'THB' | 'LAK';
  at: string;
}

export interface EwalletState {
  vouchers: Map<string, Voucher>;
  transfers: Map<string, Transfer>;
  merchant: { webhookUrl: string; secret: string } | null;
}

export type EwalletEvent =
  | { type: 'voucher'; voucher: Voucher }
  | { type: 'redeemed'; hash: string; mobile: string; at: string }
  | { type: 'transfer'; transfer: Transfer }
  | { type: 'merchant'; webhookUrl: string; secret: string };

type Ctx = SystemContext<EwalletEvent>;

const HASH_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const newHash = () => Array.from(randomBytes(32), (b) => HASH_ALPHABET[b % HASH_ALPHABET.length]).join('');
const phone = (value: unknown): string | null => (typeof value === 'string' && /^\d{9,15}$/.test(value) ? value : null);
const time = (value: unknown): number | null => {
  if (typeof value !== 'string' || value.length > 40) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
};

function voucherView(v: Voucher, mobile: string, now: number) {
  return {
    hash: v.hash,
    amount: v.amount,
    status: v.redeemedBy ? 'REDEEMED' : v.expiresAt <= now ? 'EXPIRED' : 'AVAILABLE',
    redeemedBy: v.redeemedBy,
    ownVoucher: v.ownerPhone === mobile,
    expiresAt: new Date(v.expiresAt).toISOString(),
  };
}

/** Why `mobile` cannot redeem `v` now, or null. */
function refusal(v: Voucher, mobile: string, now: number): string | null {
  if (v.ownerPhone === mobile) return 'CANNOT_GET_OWN_VOUCHER';
  if (v.redeemedBy === mobile) return 'TARGET_USER_REDEEMED';
  if (v.redeemedBy) return 'VOUCHER_OUT_OF_STOCK';
  if (v.expiresAt <= now) return 'VOUCHER_EXPIRED';
  return null;
}

function handle(req: SandboxRequest, state: EwalletState, ctx: Ctx, secret: string): Answer {
  if (req.method !== 'POST') return json(404, { status: 'NOT_FOUND' });
  if (!verify(req.headers, req.raw, secret, ctx.now())) return json(401, { status: 'INVALID_SIGNATURE' });
  const body = req.body ?? {};
  const [area, action] = req.parts;
  if (area === 'vouchers' && (action === 'verify' || action === 'redeem') && req.parts.length === 2) {
    const hash = str(body.hash, 64);
    const mobile = phone(body.mobile);
    if (!hash || !mobile) return json(400, { status: 'BAD_REQUEST' });
    const voucher = state.vouchers.get(hash);
    if (!voucher) return json(404, { status: 'VOUCHER_NOT_FOUND' });
    if (action === 'verify') return json(200, { status: 'SUCCESS', voucher: voucherView(voucher, mobile, ctx.now()) });
    const refused = refusal(voucher, mobile, ctx.now());
    if (refused) return json(400, { status: refused });
    ctx.commit({ type: 'redeemed', hash, mobile, at: new Date(ctx.now()).toISOString() });
    return json(200, { status: 'SUCCESS', amount: voucher.amount });
  }
  if (area === 'report' && req.parts.length === 2) {
    const from = time(body.from);
    const to = time(body.to);
    if (from === null || to === null || from >= to) return json(400, { status: 'BAD_REQUEST' });
    const within = (at: string | null) => at !== null && Date.parse(at) >= from && Date.parse(at) < to;
    if (action === 'vouchers') {
      const vouchers = [...state.vouchers.values()].filter((v) => within(v.redeemedAt)).map((v) => ({ hash: v.hash, amount: v.amount, redeemedBy: v.redeemedBy, redeemedAt: v.redeemedAt }));
      return json(200, { status: 'SUCCESS', vouchers });
    }
    if (action === 'transfers') return json(200, { status: 'SUCCESS', transfers: [...state.transfers.values()].filter((t) => within(t.at)) });
  }
  return json(404, { status: 'NOT_FOUND' });
}

/** The signed webhook of one transfer to the merchant; the merchant's answer, or null (none registered, or no answer). */
async function report(state: EwalletState, ctx: Ctx, t: Transfer): Promise<{ status: number } | null> {
  if (!state.merchant) return null;
  // Amounts travel in major units with two decimals (kip too: minor units are 1/100 kip, as ours).
  const body = { transferId: t.transferId, fromPhone: t.fromPhone, toPhone: t.toPhone, amount: (t.amount / 100).toFixed(2), currency: t.currency, at: t.at };
  const answer = await ctx.send(state.merchant.webhookUrl, body, state.merchant.secret);
  return { status: answer?.status ?? 0 };
}

async function control(req: SandboxRequest, state: EwalletState, ctx: Ctx): Promise<Answer> {
  const body = req.body ?? {};
  const [area, id, action] = req.parts;
  if (req.method === 'PUT' && area === 'merchant' && req.parts.length === 1) {
    return registerMerchant(body, state.merchant, (merchant) => ctx.commit({ type: 'merchant', ...merchant }));
  }
  if (req.method === 'POST' && area === 'vouchers' && req.parts.length === 1) {
    const amount = minor(body.amount);
    const ownerPhone = phone(body.ownerPhone);
    const seconds = body.expiresInSeconds;
    if (!amount || !ownerPhone || typeof seconds !== 'number' || !Number.isInteger(seconds) || Math.abs(seconds) > 366 * 86_400) return json(400, { status: 'BAD_REQUEST' });
    const voucher: Voucher = { hash: newHash(), amount, ownerPhone, expiresAt: ctx.now() + seconds * 1000, redeemedBy: null, redeemedAt: null };
    ctx.commit({ type: 'voucher', voucher });
    return json(200, { link: `https://gift.truemoney.com/campaign/?v=${voucher.hash}`, hash: voucher.hash, expiresAt: new Date(voucher.expiresAt).toISOString() });
  }
  if (req.method === 'POST' && area === 'transfers' && req.parts.length === 1) {
    const fromPhone = phone(body.fromPhone);
    const toPhone = phone(body.toPhone);
    const amount = minor(body.amount);
    const currency = body.currency === undefined ? 'THB' : body.currency === 'THB' || body.currency === 'LAK' ? body.currency : null;
    const transferId = body.transferId === undefined ? `TW${ctx.now().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}` : str(body.transferId, 64);
    const at = body.at === undefined ? ctx.now() : time(body.at);
    if (!fromPhone || !toPhone || !amount || !currency || !transferId || !/^[A-Za-z0-9_-]{6,64}$/.test(transferId) || at === null) return json(400, { status: 'BAD_REQUEST' });
    const known = state.transfers.get(transferId);
    if (known) return json(200, { ...known, feed: null });
    const transfer: Transfer = { transferId, fromPhone, toPhone, amount, currency, at: new Date(at).toISOString() };
    ctx.commit({ type: 'transfer', transfer });
    const feed = body.report === false ? null : await report(state, ctx, transfer);
    return json(200, { ...transfer, feed });
  }
  if (req.method === 'POST' && area === 'transfers' && id && action === 'redeliver' && req.parts.length === 3) {
    const transfer = state.transfers.get(id);
    if (!transfer) return json(404, { status: 'NOT_FOUND' });
    return redeliver(body, () => report(state, ctx, transfer));
  }
  return json(404, { status: 'NOT_FOUND' });
}

export function ewalletSystem(secret: string) {
  return defineSystem<EwalletState, EwalletEvent>({
    name: 'ewallet',
    initial: () => ({ vouchers: new Map(), transfers: new Map(), merchant: null }),
    apply(state, event) {
      if (event.type === 'voucher') state.vouchers.set(event.voucher.hash, event.voucher);
      else if (event.type === 'redeemed') {
        const voucher = state.vouchers.get(event.hash);
        if (voucher && !voucher.redeemedBy) Object.assign(voucher, { redeemedBy: event.mobile, redeemedAt: event.at });
      } else if (event.type === 'transfer') state.transfers.set(event.transfer.transferId, event.transfer);
      else state.merchant = { webhookUrl: event.webhookUrl, secret: event.secret };
    },
    handle: (req, state, ctx) => handle(req, state, ctx, secret),
    control: (req, state, ctx) => control(req, state, ctx),
    summary: (state) => ({ vouchers: state.vouchers.size, transfers: state.transfers.size }),
  });
}
