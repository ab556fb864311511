import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList, type EndpointName } from '@mw/contract/endpoints';
import { breakRuleOf } from '@mw/contract/http';
import { checkInvariants } from '../src/money/ledger';
import { call, concrete, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

/**
 * The contract walk of responsible play (issue 22): during a self-exclusion (or time-out) every
 * call that moves value or markets answers 403 SELF_EXCLUDED with the end date — except the
 * withdrawals, money coming home from the games (so it can be withdrawn) and cancelling a bonus
 * (which frees the member's own money from its turnover) — and the reads of the restricted view
 * work. The lists below are this test's own: a call added to the contract that moves money is
 * refused unless it is named here, and the marketing and game calls must stay refused.
 */
const ALLOWED_MONEY: ReadonlySet<EndpointName> = new Set<EndpointName>(['walletWithdraw', 'walletWithdrawAll', 'bonusClear']);
const HOMEWARD: ReadonlySet<EndpointName> = new Set<EndpointName>(['walletTransfer', 'walletTransferAll']);
/** Calls that do not move money themselves but launch games or market: refused too. */
const MARKETING_AND_GAMES: ReadonlySet<EndpointName> = new Set<EndpointName>([
  'qrCreate',
  'walletActivate',
  'walletAccount',
  'walletResetPassword',
  'bonusList',
  'promotionCurrent',
  'promotionFind',
  'spinSetup',
  'spinCoupons',
  'spinActive',
  'inviteBanners',
  'refundBanners',
  'refundCheck',
  ...endpointList.filter(([, def]) => def.domain === 'autologin').map(([name]) => name),
]);
/** Reads the restricted view needs. */
const VIEW: ReadonlySet<EndpointName> = new Set<EndpointName>(['wallet', 'profileGet', 'statementList', 'statementSlips', 'lookupWithdraw', 'responsibleGet']);
/** Calls the live walk leaves out: they end the session it walks with. */
const SESSION_ENDING: ReadonlySet<EndpointName> = new Set<EndpointName>(['logout', 'changePassword']);

function bodyFor(name: EndpointName, to = 'PG'): unknown {
  if (name === 'walletTransfer') return { from: to === 'WALLET' ? 'PG' : 'WALLET', to, amount: 1 };
  if (name === 'walletTransferAll') return { to };
  if (name === 'walletWithdraw' || name === 'walletWithdrawAll') return { amount: 100 };
  if (name === 'qrCreate' || name === 'walletAdd') return { amount: 100 };
  if (name === 'spinCouponClaim') return { coupon: 'abc123' };
  if (name === 'walletTruelink') return { link: 'x::y' };
  if (name === 'statementList' || name === 'statementSlips' || name === 'inviteList' || name === 'refundList') return { page: 1, limit: 10 };
  return {};
}

describe('every call has its rule during a break', () => {
  it('refuses every money call but withdrawals and money coming home, and every marketing or game call', () => {
    for (const [name, def] of endpointList) {
      const rule = breakRuleOf(def);
      if (ALLOWED_MONEY.has(name)) expect(rule, name).toBe('allowed');
      else if (HOMEWARD.has(name)) expect(rule, name).toBe('toWalletOnly');
      else if (def.movesMoney || MARKETING_AND_GAMES.has(name)) expect(rule, name).toBe('refused');
      else expect(rule, name).toBe('allowed');
      if (rule !== 'allowed') expect(def.auth, `${name} is refused during a break, so it must know the member`).toBe(true);
    }
  });
});

describe.each(dbKinds)('a self-excluded member on %s', (kind) => {
  let t: TestApp;
  let token = '';
  let until = '';
  beforeAll(async () => {
    t = await startApp(kind, { DEPOSIT_RECONCILE_INTERVAL_MS: '0' });
    const m = await registerMember(t.app);
    const first = await login(t.app, m.phone, m.password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: first, body: { amount: 1000 } })).status).toBe(200);
    const excluded = await call<{ until: string }>(t.app, 'POST', '/api/responsible/self-exclusion', { token: first, body: { months: 12 } });
    expect(excluded.status).toBe(200);
    until = excluded.body.until;
    expect((await call(t.app, 'GET', '/api/wallet', { token: first })).status).toBe(401);
    token = await login(t.app, m.phone, m.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is refused every call that moves value or markets, with the end date, and nothing moves', async () => {
    const before = (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
    for (const [name, def] of endpointList) {
      if (!def.auth || SESSION_ENDING.has(name)) continue;
      const rule = breakRuleOf(def);
      const url = concrete(def.path);
      const send = (body: unknown) =>
        call(t.app, def.method, url, { token, ...(def.method === 'GET' || def.method === 'DELETE' ? {} : { body }), headers: def.movesMoney ? { 'idempotency-key': `walk-${name}-${Date.now()}` } : {} });
      if (rule === 'refused') {
        expect(await send(bodyFor(name)), name).toMatchObject({ status: 403, body: { message: 'SELF_EXCLUDED', until } });
      } else if (rule === 'toWalletOnly') {
        expect(await send(bodyFor(name, 'PG')), name).toMatchObject({ status: 403, body: { message: 'SELF_EXCLUDED', until } });
        const home = await send(bodyFor(name, 'WALLET'));
        expect((home.body as { message?: string } | null)?.message, name).not.toBe('SELF_EXCLUDED');
      } else if (name !== 'walletWithdraw' && name !== 'walletWithdrawAll') {
        const res = await send(bodyFor(name));
        expect((res.body as { message?: string } | null)?.message, name).not.toBe('SELF_EXCLUDED');
        if (VIEW.has(name)) expect(res.status, name).toBe(200);
      }
    }
    expect((await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount).toBe(before);
  });

  it('can withdraw the remaining money', async () => {
    const res = await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 400 }, headers: { 'idempotency-key': `walk-withdraw-${Date.now()}` } });
    expect(res.status).toBe(200);
    const all = await call(t.app, 'POST', '/api/wallet/withdrawAll', { token, body: { amount: 100 }, headers: { 'idempotency-key': `walk-withdraw-all-${Date.now()}` } });
    expect(all.status).toBe(200);
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });
});
