import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, startApp, type TestApp } from './helpers';
import { operatorLogin, useTestClock } from './operator-helpers';

let seq = 0;
const key = () => `promo-caps-${Date.now()}-${++seq}`;

type Slice = { code: string; label: string; bgColor: string; textColor: string; htmlDescription: string; weight: number; prize: { name: string; amount: number } };
type Wheel = { name: string; active: boolean; slices: Slice[]; depositPerCoin: number; couponTtlDays: number };
type Answer = { status?: string; approvalId?: string; message?: string };
type ApprovalResult = { result: { status: number; body: Record<string, unknown> } };

/**
 * Marketing proposes, finance or an owner approves: a prize wheel over the prize caps, an invite or
 * refund rule that pays more (percent above its cap, a maximum above its cap, a looser turnover
 * condition) waits for a second person unless an owner sets it (hostile test a2 / a2d: marketing
 * alone minted withdrawable money through the wheel and the invite rule).
 */
describe.each(dbKinds)('marketing proposes, finance approves: wheel, invite and refund rules on %s', (kind) => {
  let t: TestApp;
  let marketing = '';
  let finance = '';
  let owner = '';
  const as = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440' });
    useTestClock(t);
    marketing = await operatorLogin(t, 'marketing');
    finance = await operatorLogin(t, 'finance');
    owner = await operatorLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });
  const approve = (id: string, token: string) => call<ApprovalResult & { message?: string }>(t.app, 'POST', `/api/operator/approvals/${id}/approve`, { headers: as(token) });

  describe('the prize wheel', () => {
    const wheel = async (currency = 'THB'): Promise<Wheel> => {
      const { name, active, slices, depositPerCoin, couponTtlDays } = (await call<{ wheel: Wheel }>(t.app, 'GET', `/api/operator/spinwheel?currency=${currency}`, { headers: as(marketing) })).body.wheel;
      return { name, active, slices, depositPerCoin, couponTtlDays };
    };
    const put = (token: string, body: Wheel, currency = 'THB', extra: Record<string, string> = {}) => call<Answer & { wheel?: Wheel }>(t.app, 'PUT', `/api/operator/spinwheel?currency=${currency}`, { headers: as(token, extra), body });
    const withTopPrize = (w: Wheel, amount: number): Wheel => ({ ...w, slices: w.slices.map((s, i) => (i === w.slices.length - 1 ? { ...s, prize: { ...s.prize, amount } } : s)) });

    it("marketing's wheel with a ฿10,000,000 prize waits for finance; nothing changes until then; marketing cannot approve it", async () => {
      const before = await wheel();
      const asked = await put(marketing, withTopPrize(before, 1_000_000_000));
      expect(asked).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
      expect(await wheel()).toEqual(before);
      // The same Idempotency-Key answers the same request.
      const k = key();
      const one = await put(marketing, withTopPrize(before, 900_000_000), 'THB', { 'idempotency-key': k });
      const two = await put(marketing, withTopPrize(before, 900_000_000), 'THB', { 'idempotency-key': k });
      expect(one.status).toBe(202);
      expect(two.body.approvalId).toBe(one.body.approvalId);
      const pending = await call<{ approvals: Array<{ id: string; action: string; amount: number; currency: string; maker: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as(finance) });
      expect(pending.body.approvals.find((a) => a.id === asked.body.approvalId)).toMatchObject({ action: 'spin.wheel', amount: 10_000_000, currency: 'THB', maker: 'marketing' }); // the list shows baht
      // The maker approves nothing.
      expect((await approve(asked.body.approvalId ?? '', marketing)).status).toBe(403);
      expect(await wheel()).toEqual(before);
      const done = await approve(asked.body.approvalId ?? '', finance);
      expect(done.status).toBe(200);
      expect(done.body.result.status).toBe(200);
      expect(Math.max(...(await wheel()).slices.map((s) => s.prize.amount))).toBe(1_000_000_000);
      // Approving it again answers the same, changes nothing more.
      expect((await approve(asked.body.approvalId ?? '', owner)).body.result.status).toBe(200);
      // The other request asked over the wheel as it was: the wheel changed since, it is refused.
      const stale = await approve(one.body.approvalId ?? '', finance);
      expect(stale.body.result).toMatchObject({ status: 422, body: { message: 'CHANGED_SINCE_REQUEST' } });
      // Back under the cap: marketing's own.
      expect((await put(marketing, before)).status).toBe(200);
      expect(await wheel()).toMatchObject({ slices: before.slices });
    });

    it("an owner's wheel over the cap applies at once; marketing's under the cap too; a coin worth more than half its deposit waits", async () => {
      const before = await wheel();
      expect((await put(owner, withTopPrize(before, 1_000_000_000))).status).toBe(200);
      expect(Math.max(...(await wheel()).slices.map((s) => s.prize.amount))).toBe(1_000_000_000);
      expect((await put(owner, before)).status).toBe(200);
      expect((await put(marketing, withTopPrize(before, 150_000))).status).toBe(200);
      expect((await put(marketing, { ...before, depositPerCoin: 1 })).status).toBe(202);
      expect((await wheel()).depositPerCoin).toBe(before.depositPerCoin);
      expect((await put(marketing, before)).status).toBe(200);
      // The kip wheel has its own cap (₭1,200,000 by default).
      const lak = await wheel('LAK');
      expect((await put(marketing, withTopPrize(lak, 500_000_000), 'LAK')).status).toBe(202);
      expect(await wheel('LAK')).toEqual(lak);
    });
  });

  describe('the invite rule', () => {
    type Rules = { active: boolean; percent: number; minimum: Record<string, number>; successPercent: number; failPercent: number };
    const rules = async () => (await call<Rules>(t.app, 'GET', '/api/operator/invite-settings', { headers: as(marketing) })).body;
    const put = (token: string, body: Rules) => call<Answer & Partial<Rules>>(t.app, 'PUT', '/api/operator/invite-settings', { headers: as(token), body });

    it("marketing's 100 % with no turnover waits for finance; the maker cannot approve; an owner's applies at once", async () => {
      const before = await rules();
      const asked = await put(marketing, { ...before, percent: 100, successPercent: 0 });
      expect(asked).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
      expect(await rules()).toEqual(before);
      expect((await approve(asked.body.approvalId ?? '', marketing)).status).toBe(403);
      // Each loosening alone waits too; a small percent under the cap is marketing's own.
      expect((await put(marketing, { ...before, successPercent: 0 })).status).toBe(202);
      expect((await put(marketing, { ...before, failPercent: 100 })).status).toBe(202);
      expect((await put(marketing, { ...before, percent: 6 })).status).toBe(202);
      expect(await rules()).toEqual(before);
      expect((await put(marketing, { ...before, percent: 2, successPercent: 200 })).status).toBe(200);
      expect(await rules()).toMatchObject({ percent: 2, successPercent: 200 });
      // The request asked over the rule before that change: refused; asked again, finance applies it.
      expect((await approve(asked.body.approvalId ?? '', finance)).body.result).toMatchObject({ status: 422, body: { message: 'CHANGED_SINCE_REQUEST' } });
      expect(await rules()).toMatchObject({ percent: 2, successPercent: 200 });
      const again = await put(marketing, { ...before, percent: 100, successPercent: 0 });
      expect(again.status).toBe(202);
      expect((await approve(again.body.approvalId ?? '', finance)).body.result).toMatchObject({ status: 200, body: { percent: 100, successPercent: 0 } });
      expect(await rules()).toMatchObject({ percent: 100, successPercent: 0 });
      // Lowering the percent is marketing's own; an owner's loosening applies at once.
      expect((await put(marketing, before)).status).toBe(200);
      expect((await put(owner, { ...before, percent: 50, successPercent: 0 })).status).toBe(200);
      expect(await rules()).toMatchObject({ percent: 50, successPercent: 0 });
      expect((await put(owner, before)).status).toBe(200);
      expect(await rules()).toEqual(before);
    });
  });

  describe('the refund rule', () => {
    type Rules = { active: boolean; period: 'day' | 'week'; percent: number; minimum: Record<string, number>; maximum: Record<string, number>; successPercent: number; failPercent: number; info: unknown };
    const rules = async () => (await call<Rules>(t.app, 'GET', '/api/operator/refund-settings', { headers: as(marketing) })).body;
    const put = (token: string, body: Rules) => call<Answer & Partial<Rules>>(t.app, 'PUT', '/api/operator/refund-settings', { headers: as(token), body });

    it("marketing's 100 % with no maximum cap and no turnover waits for finance; an owner's applies at once", async () => {
      const before = await rules();
      const asked = await put(marketing, { ...before, percent: 100, successPercent: 0 });
      expect(asked).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
      expect((await put(marketing, { ...before, maximum: { ...before.maximum, THB: 10_000_000_000 } })).status).toBe(202);
      expect((await put(marketing, { ...before, percent: 50 })).status).toBe(202);
      expect(await rules()).toEqual(before);
      expect((await approve(asked.body.approvalId ?? '', marketing)).status).toBe(403);
      // A maximum raised up to the cap, a percent up to it: marketing's own.
      expect((await put(marketing, { ...before, percent: 10, maximum: { ...before.maximum, THB: 800_000 } })).status).toBe(200);
      const now = await rules();
      expect(now).toMatchObject({ percent: 10, maximum: { THB: 800_000 } });
      const big = await put(marketing, { ...now, maximum: { ...now.maximum, THB: 5_000_000 } });
      expect(big.status).toBe(202);
      const pending = await call<{ approvals: Array<{ id: string; action: string; amount: number; currency: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as(finance) });
      expect(pending.body.approvals.find((a) => a.id === big.body.approvalId)).toMatchObject({ action: 'refund.settings', amount: 50_000, currency: 'THB' }); // the list shows baht
      expect((await approve(big.body.approvalId ?? '', finance)).body.result).toMatchObject({ status: 200, body: { maximum: { THB: 5_000_000 } } });
      expect(await rules()).toMatchObject({ maximum: { THB: 5_000_000 } });
      // The first request asked over the rule as it was: refused.
      expect((await approve(asked.body.approvalId ?? '', finance)).body.result).toMatchObject({ status: 422, body: { message: 'CHANGED_SINCE_REQUEST' } });
      expect((await put(owner, { ...before, percent: 100, successPercent: 0 })).status).toBe(200);
      expect(await rules()).toMatchObject({ percent: 100, successPercent: 0 });
      expect((await put(owner, before)).status).toBe(200);
      expect(await rules()).toEqual(before);
    });
  });

  describe('a credit code and a bonus asked of a second person', () => {
    const description = { th: 'โค้ด', la: 'ລະຫັດ', en: 'Code' };
    it('an approval does not apply an old request over a later edit (422 CHANGED_SINCE_REQUEST); one over the version asked about applies', async () => {
      const code = `STALE${Date.now().toString(36).toUpperCase().slice(-5)}`;
      const credit = (amount: number, maxUses: number, active: boolean) => ({ kind: 'credit', amounts: { THB: amount }, description, maxUses, maxPerMember: 1, percentFail: 0, active });
      const asked = await call<Answer>(t.app, 'PUT', `/api/operator/promotions/${code}`, { headers: as(marketing), body: credit(10_000, 10, true) });
      expect(asked.status).toBe(202);
      // The owner sets the code to ฿1, one use, off: at once.
      expect((await call(t.app, 'PUT', `/api/operator/promotions/${code}`, { headers: as(owner), body: credit(100, 1, false) })).status).toBe(200);
      expect((await approve(asked.body.approvalId ?? '', finance)).body.result).toMatchObject({ status: 422, body: { message: 'CHANGED_SINCE_REQUEST' } });
      const stored = (await call<{ promotions: Array<{ code: string; active: boolean; max_uses: number | null }> }>(t.app, 'GET', '/api/operator/promotions', { headers: as(owner) })).body.promotions.find((p) => p.code === code);
      expect(stored).toMatchObject({ active: false, max_uses: 1 });
      // Asked again over the owner's version, it applies.
      const again = await call<Answer>(t.app, 'PUT', `/api/operator/promotions/${code}`, { headers: as(marketing), body: credit(500, 2, true) });
      expect((await approve(again.body.approvalId ?? '', finance)).body.result).toMatchObject({ status: 200 });
      // A bonus above the cap: the same rule.
      const bonusCode = `${code}B`;
      const bonus = (maxBonus: number, active: boolean) => ({ type: 'day', maxReceived: 1, maxTotal: 1, percentFail: 0, banners: [], percent: 10, amounts: { THB: { minDeposit: 10_000, maxBonus } }, turnoverMultiple: 1, categories: ['slot'], active });
      const big = await call<Answer>(t.app, 'PUT', `/api/operator/bonuses/${bonusCode}`, { headers: as(marketing), body: bonus(10_000_000, true) });
      expect(big.status).toBe(202);
      expect((await call(t.app, 'PUT', `/api/operator/bonuses/${bonusCode}`, { headers: as(owner), body: bonus(10_000, false) })).status).toBe(200);
      expect((await approve(big.body.approvalId ?? '', finance)).body.result).toMatchObject({ status: 422, body: { message: 'CHANGED_SINCE_REQUEST' } });
    });
  });
});
