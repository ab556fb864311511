import { constants, publicEncrypt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activeBonusSchema, bonusItemSchema, bonusProgressSchema, promotionCurrentSchema } from '@mw/contract/bonus';
import { endpointList, type EndpointName } from '@mw/contract/endpoints';
import { inviteListResponseSchema } from '@mw/contract/invite';
import { refundCheckSchema, refundListResponseSchema } from '@mw/contract/refund';
import { couponSchema, spinFairnessSchema, spinSetupSchema } from '@mw/contract/spin';
import { slipListResponseSchema, statementListResponseSchema } from '@mw/contract/statement';
import { gameLoginSchema, refreshSlotsResponseSchema, walletResponseSchema } from '@mw/contract/wallet';
import { sql } from 'kysely';
import type { z } from 'zod';
import { checkInvariants } from '../src/money/ledger';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

/**
 * The contract walk of issue 20 ("every money call exact on retry, by construction"): every call
 * the contract marks `movesMoney` is called with one Idempotency-Key twice in sequence and ten
 * times at once, and the member's whole position (wallet, each game, coins, coupons, spins, bonus
 * state, promotion, refunds, invites, statement and slip rows) is compared. Each call has a recipe
 * below: a setup through the public and operator API only (no SQL on domain tables) that brings a
 * fresh member to a state where the call really moves value, and the request. A `movesMoney` call
 * without a recipe fails the walk.
 */

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const CONCURRENT = 10;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Value = number | string | boolean | null;
type Snapshot = Record<string, Value>;
/** Per snapshot key: the numeric change, or `before -> after` for other values ('=' when unchanged). */
type Delta = Record<string, number | string>;

interface Member {
  id: string;
  token: string;
}

interface MoneyRequest {
  method: Method;
  url: string;
  /** JSON body. */
  body?: unknown;
  /** multipart/form-data with one file (the slip upload). */
  file?: { field: string; bytes: Buffer };
}

interface Prepared {
  member: Member;
  request: MoneyRequest;
  /** The same call with another body or path parameters; absent when the call has neither. */
  other?: MoneyRequest;
  /** Exact changes one call makes to keys whose change is random across members (a coupon's prize). */
  exact?: Record<string, number>;
}

interface Recipe {
  /** The first answer: 200 where the call moves value; otherwise the definite refusal and why. */
  status: number;
  prepare(): Promise<Prepared>;
  /** Snapshot keys whose change is random (a spin's prize): left out of the comparison between members. */
  random?: readonly string[];
  /** Checks of one call's change on each member (also of the random keys). */
  check?(delta: Delta, prepared: Prepared): void;
}

interface Answer {
  status: number;
  body: unknown;
}

let keySeq = 0;
const newKey = (label: string) => `idem-${label}-${Date.now()}-${++keySeq}`;
/** Letters only (a bank account holder's name allows no digits), different each time. */
const nameTail = () => Array.from({ length: 8 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');

function multipart(field: string, bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  // A fresh boundary each time, as a client retrying the upload would send.
  const boundary = `----idem${Date.now()}${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="slip.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function parseBody(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
}

function delta(before: Snapshot, after: Snapshot): Delta {
  const out: Delta = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key] ?? null;
    const b = after[key] ?? null;
    if (typeof a === 'number' && typeof b === 'number') out[key] = Math.round((b - a) * 100) / 100;
    else out[key] = a === b ? '=' : `${String(a)} -> ${String(b)}`;
  }
  return out;
}

function without(d: Delta, keys: readonly string[]): Delta {
  return Object.fromEntries(Object.entries(d).filter(([key]) => !keys.includes(key)));
}

/** What the request asked for, for messages. */
const describeRequest = (r: MoneyRequest) => `${r.method} ${r.url}`;

describe.each(dbKinds)('every movesMoney call once per Idempotency-Key on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // No background round import (a recipe's rounds are imported when the refund is computed).
    t = await startApp(kind, { SLIP_MAX_BYTES: '2000000', ROUND_IMPORT_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0', DEPOSIT_RECONCILE_INTERVAL_MS: '0', RECONCILE_INTERVAL_MS: '0' });
    // Slip uploads open all day (the window is slips.test.ts's subject; through the API it takes a second person, four-eyes.test.ts).
    await t.services.deposits.slips.setRules({ uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });

  // ---- the public and operator API the setups use ----

  async function ok<T extends z.ZodType>(schema: T, method: Method, url: string, token: string, body?: unknown): Promise<z.output<T>> {
    const res = await call(t.app, method, url, { token, ...(body !== undefined ? { body } : {}) });
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return schema.parse(res.body);
  }
  async function member(overrides: Record<string, unknown> = {}): Promise<Member> {
    const m = await registerMember(t.app, overrides);
    return { id: m.id, token: await login(t.app, m.phone, m.password) };
  }
  async function topUp(m: Member, amount: number): Promise<void> {
    const res = await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount } });
    if (res.status !== 200) throw new Error(`top-up ${res.status} ${JSON.stringify(res.body)}`);
  }
  async function openGame(m: Member, code: string): Promise<void> {
    const res = await call(t.app, 'GET', `/api/wallet/activate/${code}`, { token: m.token });
    if (res.status !== 200) throw new Error(`activate ${code}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  async function transfer(m: Member, from: string, to: string, amount: number): Promise<void> {
    const res = await call(t.app, 'POST', '/api/wallet/transfer', { token: m.token, body: { from, to, amount } });
    if (res.status !== 200) throw new Error(`transfer ${res.status} ${JSON.stringify(res.body)}`);
  }
  /** A sandbox bank transfer from the member's own account to the GSB deposit account, and its slip image. */
  async function bankSlip(m: Member, amount: number): Promise<Buffer> {
    const profile = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token: m.token })).body;
    const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: profile.bankCode, fromAccountNo: profile.bankAccountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount },
    });
    if (sent.status !== 200) throw new Error(`bank transfer ${sent.status} ${JSON.stringify(sent.body)}`);
    const slip = await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${sent.body.transRef}/slip.png` });
    if (slip.statusCode !== 200) throw new Error(`slip image ${slip.statusCode}`);
    return slip.rawPayload;
  }
  /** A sandbox gift voucher's link, sealed for our e-wallet as the web app does (RSA-OAEP-SHA256 + '::' + account name). */
  async function giftLink(m: Member, amount: number): Promise<string> {
    const lookup = await call<{ wallets: Array<{ walletAccountName: string; mode: string; publicKey?: string }> }>(t.app, 'GET', '/api/lookup/deposit', { token: m.token });
    const gift = lookup.body.wallets.find((w) => w.mode !== 'AUTO');
    if (!gift?.publicKey) throw new Error('no gift wallet with a public key');
    const voucher = await call<{ link: string }>(t.app, 'POST', '/api/sandbox/ewallet/vouchers', { body: { amount } });
    if (voucher.status !== 200) throw new Error(`voucher ${voucher.status} ${JSON.stringify(voucher.body)}`);
    const cipher = publicEncrypt({ key: gift.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(voucher.body.link, 'utf8'));
    return `${cipher.toString('base64')}::${gift.walletAccountName}`;
  }
  /** A member whose coin earnings are in: the wheel's setup call accrues them. */
  async function coins(m: Member): Promise<number> {
    return (await ok(spinSetupSchema, 'GET', '/api/spinwheel/setup', m.token)).result.userCoin;
  }
  /** Last week's net loss of `loss` baht in PG (sandbox rounds settled seven days ago, through the operator API). */
  async function lastWeekLoser(loss: number): Promise<Member> {
    const m = await member();
    await topUp(m, loss);
    await openGame(m, 'PG');
    await transfer(m, 'WALLET', 'PG', loss);
    const { username } = await ok(gameLoginSchema, 'GET', '/api/wallet/account/PG', m.token);
    const at = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const rounds = await t.app.inject({ method: 'POST', url: '/api/operator/sandbox/games/PG/rounds', headers: operator, payload: { username, stake: 10_000, multiplier: 0, rounds: loss / 100, at } });
    if (rounds.statusCode !== 200) throw new Error(`rounds ${rounds.statusCode} ${rounds.body}`);
    // The game's balance after the losses, booked now (not by some later call between two snapshots).
    await ok(refreshSlotsResponseSchema, 'GET', '/api/wallet/refresh/slot', m.token);
    return m;
  }

  // ---- one recipe per movesMoney call ----

  const recipes: Record<string, Recipe> = {
    walletAdd: {
      status: 200,
      prepare: async () => ({
        member: await member(),
        request: { method: 'POST', url: '/api/wallet/add', body: { amount: 100 } },
        other: { method: 'POST', url: '/api/wallet/add', body: { amount: 101 } },
      }),
    },
    walletTransfer: {
      status: 200,
      prepare: async () => {
        const m = await member();
        await topUp(m, 300);
        await openGame(m, 'PG');
        return {
          member: m,
          request: { method: 'POST', url: '/api/wallet/transfer', body: { from: 'WALLET', to: 'PG', amount: 50 } },
          other: { method: 'POST', url: '/api/wallet/transfer', body: { from: 'WALLET', to: 'PG', amount: 60 } },
        };
      },
    },
    walletTransferAll: {
      status: 200,
      prepare: async () => {
        const m = await member();
        await topUp(m, 80);
        await openGame(m, 'PG');
        return {
          member: m,
          request: { method: 'POST', url: '/api/wallet/transferAll', body: { to: 'PG' } },
          other: { method: 'POST', url: '/api/wallet/transferAll', body: { to: 'WALLET' } },
        };
      },
    },
    walletWithdraw: {
      status: 200,
      prepare: async () => {
        const m = await member();
        await topUp(m, 300);
        return {
          member: m,
          request: { method: 'POST', url: '/api/wallet/withdraw', body: { amount: 100 } },
          other: { method: 'POST', url: '/api/wallet/withdraw', body: { amount: 150 } },
        };
      },
    },
    walletWithdrawAll: {
      status: 200,
      prepare: async () => {
        // Money in a game: withdrawAll brings it home first (a composite call).
        const m = await member();
        await topUp(m, 500);
        await openGame(m, 'PG');
        await transfer(m, 'WALLET', 'PG', 450);
        return {
          member: m,
          request: { method: 'POST', url: '/api/wallet/withdrawAll', body: { amount: 480 } },
          other: { method: 'POST', url: '/api/wallet/withdrawAll', body: { amount: 490 } },
        };
      },
    },
    walletSlip: {
      status: 200,
      prepare: async () => {
        const m = await member();
        const slip = await bankSlip(m, 123.45);
        const another = await bankSlip(m, 67.89);
        return {
          member: m,
          request: { method: 'POST', url: '/api/wallet/slip', file: { field: 'file', bytes: slip } },
          other: { method: 'POST', url: '/api/wallet/slip', file: { field: 'file', bytes: another } },
        };
      },
    },
    walletTruelink: {
      status: 200,
      prepare: async () => {
        const m = await member();
        return {
          member: m,
          request: { method: 'POST', url: '/api/wallet/truelink', body: { link: await giftLink(m, 99) } },
          other: { method: 'POST', url: '/api/wallet/truelink', body: { link: await giftLink(m, 42) } },
        };
      },
    },
    spin: {
      status: 200,
      prepare: async () => {
        // 100 baht deposited earns one coin (spin.test.ts).
        const m = await member();
        await topUp(m, 100);
        expect(await coins(m)).toBe(1);
        return { member: m, request: { method: 'POST', url: '/api/spinwheel/spin' } };
      },
      // The prize is random: a slice without a prize gives no coupon. One coin, one spin, at most one coupon.
      random: ['coupons'],
      check: (d) => {
        expect(d).toMatchObject({ coins: -1, profileCoin: -1, spinNonce: 1 });
        expect([0, 1]).toContain(d.coupons);
      },
    },
    spinCouponClaim: {
      status: 200,
      prepare: async () => {
        // Spins until a coupon is won (a slice may have no prize); a second coupon for the other body.
        const m = await member();
        let won: Array<z.output<typeof couponSchema>> = [];
        for (let i = 0; i < 20 && won.length < 2; i++) {
          await topUp(m, 100);
          expect(await coins(m)).toBe(1);
          const spun = await call(t.app, 'POST', '/api/spinwheel/spin', { token: m.token });
          if (spun.status !== 200) throw new Error(`spin ${spun.status} ${JSON.stringify(spun.body)}`);
          won = await ok(couponSchema.array(), 'GET', '/api/spinwheel/coupon', m.token);
        }
        const [coupon, second] = won;
        if (!coupon || !second) throw new Error('no two coupons in 20 spins');
        return {
          member: m,
          request: { method: 'POST', url: '/api/spinwheel/coupon/claim', body: { coupon: coupon._id } },
          other: { method: 'POST', url: '/api/spinwheel/coupon/claim', body: { coupon: second._id } },
          exact: { wallet: coupon.amount },
        };
      },
      // The prize claimed differs between members (each won their own).
      random: ['wallet'],
      check: (d, p) => {
        expect(d.wallet).toBe(p.exact?.wallet);
        expect(d.coupons).toBe(-1);
      },
    },
    bonusActivate: {
      status: 200,
      prepare: async () => {
        const m = await member();
        await topUp(m, 1000);
        return {
          member: m,
          request: { method: 'GET', url: '/api/bonus/activate/WELCOME20' },
          other: { method: 'GET', url: '/api/bonus/activate/DAILY10' },
        };
      },
      check: (d) => expect(d.wallet).toBe(200),
    },
    bonusClear: {
      // Cancelling takes the bonus back: 1000 deposited, WELCOME20 gives 200, the cancel leaves the 1000.
      status: 200,
      prepare: async () => {
        const m = await member();
        await topUp(m, 1000);
        const activated = await call(t.app, 'GET', '/api/bonus/activate/WELCOME20', { token: m.token });
        expect(activated.status).toBe(200);
        return { member: m, request: { method: 'GET', url: '/api/bonus/clear' } };
      },
      check: (d) => expect(d.wallet).toBe(-200),
    },
    promotionActivate: {
      status: 200,
      prepare: async () => ({
        member: await member(),
        request: { method: 'GET', url: '/api/promotion/activate/FREE50' },
        other: { method: 'GET', url: '/api/promotion/activate/BOOST30' },
      }),
      check: (d) => expect(d.wallet).toBe(50),
    },
    inviteBonus: {
      status: 200,
      prepare: async () => {
        // A friend invited by the member deposits 1000 baht: 1 % of it is the member's to receive.
        const inviter = await member({ bankAccountName: `INVITER ${nameTail()}` });
        const friend = await member({ bankAccountName: `FRIEND ${nameTail()}`, inviteCode: `PR${inviter.id}` });
        await topUp(friend, 1000);
        return { member: inviter, request: { method: 'GET', url: '/api/invite/bonus' } };
      },
      check: (d) => expect(d).toMatchObject({ wallet: 10, inviteReady: -10 }),
    },
    refundReceive: {
      status: 200,
      prepare: async () => ({ member: await lastWeekLoser(600), request: { method: 'GET', url: '/api/refund/receive' } }),
      check: (d) => expect(d).toMatchObject({ refundAvailable: -30, refundReceived: 30 }),
    },
    refundAddWallet: {
      status: 200,
      prepare: async () => {
        const m = await lastWeekLoser(600);
        const received = await call(t.app, 'GET', '/api/refund/receive', { token: m.token });
        if (received.status !== 200) throw new Error(`refund receive ${received.status} ${JSON.stringify(received.body)}`);
        return { member: m, request: { method: 'GET', url: '/api/refund/addWallet' } };
      },
      check: (d) => expect(d).toMatchObject({ wallet: 30, refundReceived: -30 }),
    },
  };

  // ---- the member's position, read through the contract's read calls ----

  async function snapshot(m: Member): Promise<Snapshot> {
    const s: Snapshot = {};
    // The wheel's setup first: it accrues coins earned by deposits, which the others then show.
    const setup = await ok(spinSetupSchema, 'GET', '/api/spinwheel/setup', m.token);
    s.coins = setup.result.userCoin;
    const wallet = await ok(walletResponseSchema, 'GET', '/api/wallet', m.token);
    s.wallet = wallet.wallet.amount;
    s.profileCoin = wallet.profile.coin;
    s.inviteReady = wallet.invite.amount;
    for (const slot of wallet.slots) {
      s[`game:${slot.code}`] = slot.amount;
      s[`gameActive:${slot.code}`] = slot.isActive;
    }
    s.coupons = (await ok(couponSchema.array(), 'GET', '/api/spinwheel/coupon', m.token)).length;
    s.spinNonce = (await ok(spinFairnessSchema, 'GET', '/api/spinwheel/fairness', m.token)).nonce;
    const active = await ok(activeBonusSchema, 'GET', '/api/bonus/check/active', m.token);
    s.bonusActive = active.status;
    s.bonusType = active.type;
    const { progress } = await ok(bonusProgressSchema, 'GET', '/api/bonus/progress', m.token);
    s.bonusCode = progress?.code ?? null;
    for (const field of ['turnover', 'target', 'bonus', 'deposit', 'bust'] as const) s[`bonus.${field}`] = progress?.[field] ?? 0;
    for (const item of await ok(bonusItemSchema.array(), 'GET', '/api/bonus', m.token)) {
      s[`bonusReceived:${item.code}`] = item.userBonus?.received.length ?? 0;
      s[`bonusTaken:${item.code}`] = item.userBonus?.isActive ?? false;
    }
    s.promotion = (await ok(promotionCurrentSchema, 'GET', '/api/promotion/current', m.token)).promotion?.code ?? null;
    const page = { page: 1, limit: 100 };
    s.statementRows = (await ok(statementListResponseSchema, 'POST', '/api/statement', m.token, page)).total;
    s.slips = (await ok(slipListResponseSchema, 'POST', '/api/statement/slip', m.token, page)).total;
    const refund = await ok(refundCheckSchema, 'GET', '/api/refund/check', m.token);
    s.refundAvailable = refund.refundAmount;
    s.refundReceived = refund.received;
    s.refunds = (await ok(refundListResponseSchema, 'POST', '/api/refund', m.token, page)).total;
    s.invites = (await ok(inviteListResponseSchema, 'POST', '/api/invite', m.token, page)).total;
    return s;
  }

  async function send(r: MoneyRequest, token: string, key: string): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest', 'idempotency-key': key };
    let payload: string | Buffer | undefined;
    if (r.file) {
      const form = multipart(r.file.field, r.file.bytes);
      Object.assign(headers, form.headers);
      payload = form.payload;
    } else if (r.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(r.body);
    }
    const res = await t.app.inject({ method: r.method, url: r.url, headers, ...(payload !== undefined ? { payload } : {}) });
    return { status: res.statusCode, body: parseBody(res.body) };
  }

  it('one key sent at once to different money calls: one of them runs, the others are refused before they move anything', async () => {
    for (let round = 0; round < 4; round++) {
      const m = await member();
      await topUp(m, 300);
      const before = await snapshot(m);
      const key = newKey(`cross-${round}`);
      const calls: MoneyRequest[] = [
        { method: 'POST', url: '/api/wallet/add', body: { amount: 7 } },
        { method: 'GET', url: '/api/promotion/activate/FREE50' },
        // A withdrawal that can run (the minimum is 100): whichever call wins the key, it runs.
        { method: 'POST', url: '/api/wallet/withdraw', body: { amount: 150 } },
        { method: 'POST', url: '/api/wallet/add', body: { amount: 17 } },
      ];
      const answers = await Promise.all(calls.map((c) => send(c, m.token, key)));
      const ran = answers.filter((a) => a.status === 200);
      expect(ran, JSON.stringify(answers)).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 200)) expect(a.status, JSON.stringify(a)).toBe(409);
      const moved = delta(before, await snapshot(m));
      const winner = calls[answers.findIndex((a) => a.status === 200)];
      // Exactly the winner's money moved (a withdrawal holds its amount out of the wallet).
      const expected = winner?.url === '/api/promotion/activate/FREE50' ? 50 : winner?.url === '/api/wallet/withdraw' ? -150 : Number((winner?.body as { amount: number }).amount);
      expect(moved.wallet, `${describeRequest(winner as MoneyRequest)} won: ${JSON.stringify(answers)}`).toBe(expected);
      // Every loser stays refused on retry; the winner answers its answer.
      for (const [i, c] of calls.entries()) {
        const again = await send(c, m.token, key);
        if (answers[i]?.status === 200) expect(again).toEqual(answers[i]);
        else expect(again).toMatchObject({ status: 409, body: { message: 'IDEMPOTENCY_KEY_REUSED' } });
      }
    }
  });

  it('a client key that spells a composite call\'s step key is another request, not the step\'s old answer', async () => {
    const m = await member();
    await topUp(m, 300);
    await openGame(m, 'PG');
    await transfer(m, 'WALLET', 'PG', 200);
    const key = newKey('steps');
    const home: MoneyRequest = { method: 'POST', url: '/api/wallet/transferAll', body: { to: 'WALLET' } };
    expect((await send(home, m.token, key)).status).toBe(200);
    await transfer(m, 'WALLET', 'PG', 100);
    expect(await send(home, m.token, `${key}:PG`)).toMatchObject({ status: 409, body: { message: 'IDEMPOTENCY_KEY_REUSED' } });
  });

  const moneyCalls = endpointList.filter(([, def]) => def.movesMoney === true);

  it('has a recipe for every movesMoney call of the contract (a new money call cannot skip the walk)', () => {
    expect(moneyCalls.length).toBeGreaterThan(0);
    const missing = moneyCalls.map(([name]) => name).filter((name) => !(name in recipes));
    expect(missing, 'movesMoney calls without a recipe in idempotency.contract.test.ts').toEqual([]);
    // Every recipe's request is the call it is named after.
    const stale = Object.keys(recipes).filter((name) => !moneyCalls.some(([n]) => n === name));
    expect(stale, 'recipes of calls that are not movesMoney').toEqual([]);
  });

  it('reads a slip upload with a key as without one (the route layer reads the file for the key\'s hash)', async () => {
    const m = await member();
    const slip = (bytes: Buffer, key?: string) => send({ method: 'POST', url: '/api/wallet/slip', file: { field: 'file', bytes } }, m.token, key ?? newKey('slip-edge'));
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2_100_000)]);
    const key = newKey('slip-big');
    expect(await slip(big, key)).toEqual({ status: 400, body: { message: 'IMG_SIZE_UNABLE_TO_PROCESS' } });
    expect(await slip(big, key)).toEqual({ status: 400, body: { message: 'IMG_SIZE_UNABLE_TO_PROCESS' } });
    expect(await slip(Buffer.from('\x7fELF\x02\x01\x01\x00binary program'))).toEqual({ status: 400, body: { message: 'SLIP_INVALID_FILE' } });
    const none = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { authorization: `Bearer ${m.token}`, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json', 'idempotency-key': newKey('slip-none') }, payload: '{}' });
    expect([none.statusCode, parseBody(none.body)]).toEqual([400, { message: 'SLIP_NO_FILE' }]);
    expect((await snapshot(m)).slips).toBe(0);
  });

  it.each(moneyCalls.map(([name, def]) => [name, def] as const))('%s: one key, twice in sequence and ten times at once, moves value once', async (name: EndpointName, def) => {
    const recipe = recipes[name];
    if (!recipe) throw new Error(`no recipe for the movesMoney call ${name}`);
    const pattern = new RegExp(`^${def.path.replace(/:\w+/g, '[^/]+')}$`);

    // (a) In sequence on a first member.
    const a = await recipe.prepare();
    expect(a.request.method).toBe(def.method);
    expect(a.request.url).toMatch(pattern);
    const k1 = newKey(`${name}-seq`);
    const beforeA = await snapshot(a.member);
    const first = await send(a.request, a.member.token, k1);
    expect(first, `${describeRequest(a.request)} first answer`).toMatchObject({ status: recipe.status });
    const afterFirst = await snapshot(a.member);
    const again = await send(a.request, a.member.token, k1);
    expect(again, 'the same key again answers the first answer').toEqual(first);
    expect(await snapshot(a.member), 'the same key again changes nothing').toEqual(afterFirst);
    if (a.other) {
      expect(a.other.url).toMatch(pattern);
      expect(await send(a.other, a.member.token, k1), 'the same key with another request').toMatchObject({ status: 409, body: { message: 'IDEMPOTENCY_KEY_REUSED' } });
      expect(await snapshot(a.member), 'a refused reuse changes nothing').toEqual(afterFirst);
      expect(await send(a.request, a.member.token, k1), 'the first request still answers its answer').toEqual(first);
    }
    const one = delta(beforeA, afterFirst);
    if (recipe.status === 200) expect(Object.values(one).some((v) => v !== 0 && v !== '='), `${name} moved nothing`).toBe(true);
    recipe.check?.(one, a);

    // (b) Ten at once on a second member prepared the same way.
    const b = await recipe.prepare();
    const k2 = newKey(`${name}-par`);
    const beforeB = await snapshot(b.member);
    const burst = await Promise.all(Array.from({ length: CONCURRENT }, () => send(b.request, b.member.token, k2)));
    const inProgress = (x: Answer) => x.status === 409 && (x.body as { message?: unknown } | null)?.message === 'REQUEST_IN_PROGRESS';
    const definite = burst.filter((x) => !inProgress(x));
    expect(definite.length, 'at least one definite answer').toBeGreaterThan(0);
    const distinct = [...new Set(definite.map((x) => JSON.stringify(x)))];
    expect(distinct, 'every definite answer of the burst is the one answer').toEqual(distinct.slice(0, 1));
    const [answer] = definite;
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: recipe.status });
    const retry = await send(b.request, b.member.token, k2);
    expect(retry, 'a retry after the burst answers the one answer').toEqual(answer);
    const many = delta(beforeB, await snapshot(b.member));
    recipe.check?.(many, b);
    expect(without(many, recipe.random ?? []), 'ten requests with one key change what one call changes').toEqual(without(one, recipe.random ?? []));

    // (c) Its answer lost to a crash: the call ran and moved value, its process died before the
    // route layer kept the answer, and a retry takes the stale claim over (IDEMPOTENCY_CLAIM_STALE_MS)
    // and runs the call again. The call's own first write recorded the key: the re-run finds it,
    // answers the first answer again (rebuilt from that record) and moves nothing more.
    const c = await recipe.prepare();
    const k3 = newKey(`${name}-lost`);
    const ran = await send(c.request, c.member.token, k3);
    expect(ran, 'the call before its answer is lost').toMatchObject({ status: recipe.status });
    const afterRun = await snapshot(c.member);
    const lost = await sql`UPDATE idempotency_keys SET answer = NULL, answer_status = NULL, plan = '{"claim":true}'::jsonb, created_at = now() - interval '1 hour'
      WHERE member_id = ${c.member.id} AND key = ${`#${k3}`}`.execute(t.services.database.db);
    // A wallet call keeps no answer of its own (its operation is the record): nothing to lose.
    expect(Number(lost.numAffectedRows ?? 0n), 'the kept answer made a stale claim').toBe(def.keyedInside === true ? 0 : 1);
    const rerun = await send(c.request, c.member.token, k3);
    // A slip's image link is a private link minted per answer (SLIP_LINK_TTL_SECONDS): the re-run's
    // is a fresh one to the same image (its expiry and signature differ when a second has passed).
    const unlinked = (a: Answer) => JSON.parse(JSON.stringify(a).replace(/(\/api\/slips\/[^"?]+\/image)\?exp=\d+&sig=[0-9a-f]+/g, '$1')) as Answer;
    expect(unlinked(rerun), 'a re-run after a lost answer answers the first answer').toEqual(unlinked(ran));
    expect(await snapshot(c.member), 'a re-run after a lost answer changes nothing').toEqual(afterRun);
  });
});
