import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';
import { operatorLogin, useTestClock } from './operator-helpers';

let seq = 0;
const key = () => `four-eyes-${Date.now()}-${++seq}`;

/**
 * Four eyes with the default settings (issue 32 and 37): thresholds under the largest withdrawal,
 * sums per member over 24 hours, the automation key approving nothing, thresholds as the owner's
 * audited settings.
 */
describe.each(dbKinds)('four eyes at the defaults on %s', (kind) => {
  let t: TestApp;
  let finance = '';
  let owner = '';
  const as = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440', PAYOUT_SETTLE_INTERVAL_MS: '0' });
    useTestClock(t);
    finance = await operatorLogin(t, 'finance');
    owner = await operatorLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  const credit = (token: string, memberId: string, amount: number) =>
    call<{ status?: string; approvalId?: string }>(t.app, 'POST', '/api/operator/deposits', { headers: as(token, { 'idempotency-key': key() }), body: { memberId, amount, currency: 'BAHT', note: 'cash at the counter' } });

  it('ten ฿10,000 manual credits to one member in a day need a second approver from the sum above ฿20,000 on', async () => {
    const { id: memberId } = await registerMember(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await credit(finance, memberId, 10_000)).status);
    expect(statuses).toEqual([200, 200, 202, 202, 202, 202, 202, 202, 202, 202]);
    const pending = await call<{ approvals: Array<{ memberId: string; amount: number; currency: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as(owner) });
    expect(pending.body.approvals.filter((a) => a.memberId === memberId)).toHaveLength(8);
    expect(pending.body.approvals.find((a) => a.memberId === memberId)).toMatchObject({ amount: 10_000, currency: 'THB' });
  });

  it('a refused manual credit does not count toward the member\'s sum (nothing moved)', async () => {
    const { id: memberId } = await registerMember(t.app);
    expect((await call(t.app, 'POST', `/api/operator/members/${memberId}/lock`, { headers: as(owner), body: { locked: true } })).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect(await credit(finance, memberId, 10_000)).toMatchObject({ status: 403, body: { message: 'INACTIVE_USER' } });
    expect((await call(t.app, 'POST', `/api/operator/members/${memberId}/lock`, { headers: as(owner), body: { locked: false } })).status).toBe(200);
    // The two refused ฿10,000 are not in the 24 h sum: ฿15,000 now is under ฿20,000, alone.
    expect((await credit(finance, memberId, 15_000)).status).toBe(200);
    expect((await credit(finance, memberId, 10_000)).status).toBe(202);
  });

  it('a ฿30,000 withdrawal needs a second approver; the automation key approves nothing', async () => {
    const { id: memberId, phone, password } = await registerMember(t.app);
    const funded = await credit(finance, memberId, 30_000);
    expect(funded.status).toBe(202);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${funded.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    const token = await login(t.app, phone, password);
    const asked = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 30_000 } });
    expect(asked.status).toBe(200);
    const approve = await call<{ status: string; approvalId: string }>(t.app, 'POST', `/api/operator/withdrawals/${asked.body.reference}/approve`, { headers: as(finance) });
    expect(approve).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
    for (const name of ['owner', 'bob']) {
      const byKey = await call(t.app, 'POST', `/api/operator/approvals/${approve.body.approvalId}/approve`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': name } });
      expect(byKey).toMatchObject({ status: 403, body: { message: 'API_KEY_NOT_A_PERSON' } });
    }
    const done = await call<{ result: { status: number; body: { payout: string } } }>(t.app, 'POST', `/api/operator/approvals/${approve.body.approvalId}/approve`, { headers: as(owner) });
    expect(done.body.result).toMatchObject({ status: 200, body: { payout: 'paid' } });
    // The key is not a person: it asks no second person either (whoever holds it would check its
    // requests), whatever X-Operator says. Refused, nothing written; under the threshold it acts alone.
    const { id: other } = await registerMember(t.app);
    const byKey = { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': 'finance' };
    const keyMade = await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...byKey, 'idempotency-key': key() }, body: { memberId: other, amount: 25_000, currency: 'BAHT', note: 'script' } });
    expect(keyMade).toMatchObject({ status: 403, body: { message: 'API_KEY_NOT_A_PERSON' } });
    const all = await call<{ approvals: Array<{ memberId: string | null }> }>(t.app, 'GET', '/api/operator/approvals', { headers: as(owner) });
    expect(all.body.approvals.filter((a) => a.memberId === other)).toEqual([]);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...byKey, 'idempotency-key': key() }, body: { memberId: other, amount: 5_000, currency: 'BAHT', note: 'script' } })).status).toBe(200);
    // A withdrawal above the threshold approved with the key: refused, the withdrawal still pending and claimable by a person.
    const { id: payee, phone: payeePhone, password: payeePassword } = await registerMember(t.app);
    const fundPayee = await credit(finance, payee, 30_001);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${fundPayee.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    const out = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token: await login(t.app, payeePhone, payeePassword), body: { amount: 30_001 } });
    expect(out.status).toBe(200);
    for (const step of ['approve', 'complete']) {
      expect(await call(t.app, 'POST', `/api/operator/withdrawals/${out.body.reference}/${step}`, { headers: byKey })).toMatchObject({ status: 403, body: { message: 'API_KEY_NOT_A_PERSON' } });
    }
    expect((await call<{ status: string }>(t.app, 'GET', `/api/operator/withdrawals/${out.body.reference}`, { headers: as(owner) })).body).toMatchObject({ status: 'PENDING' });
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${out.body.reference}/approve`, { headers: as(finance) })).status).toBe(202);
  });

  it('a finance change of a deposit account waits for a second approver; the audit shows the old and new numbers', async () => {
    type Channel = { id: string; kind: string; bank_code: string; bank_type: string; mode: string; account_name: string; account_no: string; currency: string; sort: number; active: boolean };
    const channels = async () => (await call<{ channels: Channel[] }>(t.app, 'GET', '/api/operator/deposit-channels', { headers: as(finance) })).body.channels;
    const kbank = (await channels()).find((c) => c.bank_code === 'KBANK' && c.mode === 'AUTO');
    if (!kbank) throw new Error('no KBANK AUTO channel');
    const body = (c: Channel, patch: Partial<Channel>) => {
      const n = { ...c, ...patch };
      return { kind: n.kind, bankCode: n.bank_code, bankType: n.bank_type, mode: n.mode, accountName: n.account_name, accountNo: n.account_no, currency: n.currency === 'LAK' ? 'LAK' : 'BAHT', sort: n.sort, active: n.active };
    };
    const lookup = async () => (await call<{ banks: Array<{ accountNo?: string; bankAccountNo?: string }> } & Record<string, unknown>>(t.app, 'GET', '/api/lookup/deposit', { token: await login(t.app, member.phone, member.password) })).body;
    const member = await registerMember(t.app);
    const oldNo = kbank.account_no;
    const asked = await call<{ status: string; approvalId: string }>(t.app, 'PUT', `/api/operator/deposit-channels/${kbank.id}`, { headers: as(finance), body: body(kbank, { account_no: '9990001112' }) });
    expect(asked).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
    // Nothing changed yet: members still see the old account.
    expect((await channels()).find((c) => c.id === kbank.id)?.account_no).toBe(oldNo);
    expect(JSON.stringify(await lookup())).not.toContain('9990001112');
    // The request names the change, before and after; the maker cannot approve it, nor can the key.
    const pending = await call<{ approvals: Array<{ id: string; action: string; payload: { changes: Array<{ field: string; before: unknown; after: unknown }> } }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as(owner) });
    const request = pending.body.approvals.find((a) => a.id === asked.body.approvalId);
    expect(request).toMatchObject({ action: 'deposit.channel', payload: { changes: [{ field: 'account_no', before: oldNo, after: '9990001112' }] } });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: as(finance) })).body).toEqual({ message: 'SAME_OPERATOR' });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).status).toBe(403);
    const approved = await call<{ result: { status: number; body: { account_no: string } } }>(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: as(owner) });
    expect(approved.body.result).toMatchObject({ status: 200, body: { account_no: '9990001112' } });
    expect((await channels()).find((c) => c.id === kbank.id)?.account_no).toBe('9990001112');
    expect(JSON.stringify(await lookup())).toContain('9990001112');
    // The audit: the request (maker finance) and the change applied (checker owner), old and new numbers.
    const audit = await call<{ rows: Array<{ operator: string; entity: string; target: string; before: { account_no?: string } | null; after: { account_no?: string; payload?: { changes: unknown[] } } }> }>(t.app, 'GET', `/api/operator/audit?action=deposit-channel.change&target=${kbank.id}`, { headers: as(owner) });
    expect(audit.body.rows[0]).toMatchObject({ operator: 'owner', entity: 'deposit-channel', target: kbank.id, before: { account_no: oldNo }, after: { account_no: '9990001112' } });
    // A stale request (the channel changed since) applies nothing: 422 CHANGED_SINCE_REQUEST kept as its answer.
    const a = await call<{ approvalId: string }>(t.app, 'PUT', `/api/operator/deposit-channels/${kbank.id}`, { headers: as(finance), body: body({ ...kbank, account_no: '9990001112' }, { account_name: 'FIRST' }) });
    const b = await call<{ approvalId: string }>(t.app, 'PUT', `/api/operator/deposit-channels/${kbank.id}`, { headers: as(finance), body: body({ ...kbank, account_no: '9990001112' }, { account_name: 'SECOND' }) });
    expect((await call<{ result: { status: number } }>(t.app, 'POST', `/api/operator/approvals/${a.body.approvalId}/approve`, { headers: as(owner) })).body.result.status).toBe(200);
    expect((await call<{ result: unknown }>(t.app, 'POST', `/api/operator/approvals/${b.body.approvalId}/approve`, { headers: as(owner) })).body.result).toEqual({ status: 422, body: { message: 'CHANGED_SINCE_REQUEST' } });
    expect((await channels()).find((c) => c.id === kbank.id)?.account_name).toBe('FIRST');
    // Switching a channel off applies at once (it only lowers risk); switching it back on waits.
    expect((await call(t.app, 'PUT', `/api/operator/deposit-channels/${kbank.id}`, { headers: as(finance), body: body({ ...kbank, account_no: '9990001112', account_name: 'FIRST' }, { active: false }) })).status).toBe(200);
    const on = await call<{ approvalId: string }>(t.app, 'PUT', `/api/operator/deposit-channels/${kbank.id}`, { headers: as(finance), body: body({ ...kbank, account_no: '9990001112', account_name: 'FIRST' }, { active: true }) });
    expect(on.status).toBe(202);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${on.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    // Restore the demo account for the other tests (through a second person too).
    const back = await call<{ approvalId: string }>(t.app, 'PUT', `/api/operator/deposit-channels/${kbank.id}`, { headers: as(finance), body: body(kbank, {}) });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${back.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
  });

  it('the slip rules and the manual-deposit switch wait for a second approver (closing uploads does not)', async () => {
    const rules = (await call<{ uploadEnabled: boolean; closedFrom: string; closedTo: string; maxAgeMinutes: number }>(t.app, 'GET', '/api/operator/slip-settings', { headers: as(finance) })).body;
    const longer = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/slip-settings', { headers: as(finance), body: { ...rules, maxAgeMinutes: rules.maxAgeMinutes + 60 } });
    expect(longer.status).toBe(202);
    expect((await call(t.app, 'GET', '/api/operator/slip-settings', { headers: as(finance) })).body).toEqual(rules);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${longer.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/operator/slip-settings', { headers: as(finance) })).body).toMatchObject({ maxAgeMinutes: rules.maxAgeMinutes + 60 });
    const closed = await call(t.app, 'PUT', '/api/operator/slip-settings', { headers: as(finance), body: { ...rules, maxAgeMinutes: rules.maxAgeMinutes + 60, uploadEnabled: false } });
    expect(closed).toMatchObject({ status: 200, body: { uploadEnabled: false } });
    const reopened = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/slip-settings', { headers: as(finance), body: rules });
    expect(reopened.status).toBe(202);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${reopened.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/operator/slip-settings', { headers: as(finance) })).body).toEqual(rules);

    // The same Idempotency-Key answers the same request; the same value again answers at once.
    const headers = as(finance, { 'idempotency-key': key() });
    const one = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/deposit-manual', { headers, body: { value: true } });
    const two = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/deposit-manual', { headers, body: { value: true } });
    expect(one.status).toBe(202);
    expect(two.body.approvalId).toBe(one.body.approvalId);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${one.body.approvalId}/approve`, { headers: as(owner) })).body).toMatchObject({ result: { status: 200, body: { isManual: true } } });
    expect(await call(t.app, 'PUT', '/api/operator/deposit-manual', { headers: as(finance), body: { value: true } })).toMatchObject({ status: 200, body: { isManual: true } });
    const audit = await call<{ rows: Array<{ operator: string; before: unknown; after: unknown }> }>(t.app, 'GET', '/api/operator/audit?action=setting.change&target=depositManual', { headers: as(owner) });
    expect(audit.body.rows[0]).toMatchObject({ operator: 'owner', before: { value: false }, after: { value: true } });
    const off = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/deposit-manual', { headers: as(finance), body: { value: false } });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${off.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
  });

  it('marketing cannot make a ฿100,000 withdrawable credit code alone; ten coin grants with one key give the coins once', async () => {
    const marketing = await operatorLogin(t, 'marketing');
    const description = { th: 'โค้ด', la: 'ລະຫັດ', en: 'Code' };
    const code = `MINT${++seq}`;
    const asked = await call<{ status: string; approvalId: string }>(t.app, 'PUT', `/api/operator/promotions/${code}`, { headers: as(marketing), body: { kind: 'credit', amounts: { THB: 10_000_000 }, maxPerMember: 1, description } });
    expect(asked).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
    const list = async () => (await call<{ promotions: Array<{ code: string }> }>(t.app, 'GET', '/api/operator/promotions', { headers: as(marketing) })).body.promotions;
    expect((await list()).some((p) => p.code === code)).toBe(false);
    // Marketing cannot approve (no money role), nor can the key; finance can.
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: as(marketing) })).status).toBe(403);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).status).toBe(403);
    const pending = await call<{ approvals: Array<{ id: string; action: string; amount: number; currency: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as(finance) });
    expect(pending.body.approvals.find((a) => a.id === asked.body.approvalId)).toMatchObject({ action: 'promotion.credit', amount: 100_000, currency: 'THB' });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/reject`, { headers: as(finance), body: { note: 'no free money' } })).status).toBe(200);
    expect((await list()).some((p) => p.code === code)).toBe(false);
    // A bonus-kind code (turnover applies) is marketing's own; so is a bonus under the cap; above it, a request.
    expect((await call(t.app, 'PUT', `/api/operator/promotions/${code}B`, { headers: as(marketing), body: { kind: 'bonus', bonusCode: 'NOSUCH', description } })).body).toMatchObject({ message: 'KEY_INVALID' });
    expect((await call(t.app, 'PUT', `/api/operator/promotions/${code}B`, { headers: as(marketing), body: { kind: 'bonus', bonusCode: 'WELCOME20', description } })).status).toBe(200);
    const bonus = (maxBonus: number) => ({ type: 'day', maxReceived: 1, maxTotal: 1, percentFail: 0, banners: [], percent: 10, amounts: { THB: { minDeposit: 10_000, maxBonus } }, turnoverMultiple: 1, categories: ['slot'] });
    expect((await call(t.app, 'PUT', `/api/operator/bonuses/${code}C`, { headers: as(marketing), body: bonus(50_000) })).status).toBe(200);
    expect((await call(t.app, 'PUT', `/api/operator/bonuses/${code}C`, { headers: as(marketing), body: bonus(5_000_000) })).status).toBe(202);

    // Coins: one key grants once, whatever the number of requests at once; the key is required.
    const { id: memberId, phone, password } = await registerMember(t.app);
    const grant = (coins: number, k?: string) => call<{ coin?: number; approvalId?: string }>(t.app, 'POST', `/api/operator/members/${memberId}/coins`, { headers: as(marketing, k ? { 'idempotency-key': k } : {}), body: { coins } });
    expect((await grant(5)).body).toMatchObject({ message: 'KEY_MISSING' });
    const once = key();
    const burst = await Promise.all(Array.from({ length: 10 }, () => grant(5, once)));
    expect(burst.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(burst.every((r) => r.status === 200 || (r.status === 409 && JSON.stringify(r.body).includes('REQUEST_IN_PROGRESS')))).toBe(true);
    expect((await grant(5, once)).body).toEqual({ coin: 5 });
    const coins = async () => (await call<{ coin: number }>(t.app, 'GET', '/api/spinwheel/setup', { token: await login(t.app, phone, password) })).body;
    expect(JSON.stringify(await coins())).toContain('"userCoin":5');
    // Above 100 a call, or 300 a day to one member: a finance or owner approval grants them, once.
    const big = await grant(150, key());
    expect(big.status).toBe(202);
    const approved = await call<{ result: { status: number; body: { coin: number } } }>(t.app, 'POST', `/api/operator/approvals/${big.body.approvalId}/approve`, { headers: as(finance) });
    expect(approved.body.result).toEqual({ status: 200, body: { coin: 155 } });
    expect((await call<{ result: unknown }>(t.app, 'POST', `/api/operator/approvals/${big.body.approvalId}/approve`, { headers: as(owner) })).body.result).toEqual({ status: 200, body: { coin: 155 } });
    expect((await grant(100, key())).status).toBe(200);
    expect((await grant(100, key())).status).toBe(202);
  });

  it('the thresholds are the owner\'s settings in major units, audited with before and after', async () => {
    const got = await call<{ THB: { manual: number; payout: number; operatorDay: number }; LAK: { payout: number } }>(t.app, 'GET', '/api/operator/four-eyes', { headers: as(finance) });
    expect(got.body).toMatchObject({ THB: { manual: 20_000, payout: 20_000, operatorDay: 200_000 }, LAK: { payout: 12_000_000 } });
    const changed = { ...got.body, THB: { ...got.body.THB, manual: 5_000 } };
    expect((await call(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(finance), body: changed })).body).toEqual({ message: 'FORBIDDEN_ROLE' });
    expect((await call(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(owner), body: { ...changed, THB: { ...changed.THB, manual: -1 } } })).status).toBe(400);
    expect((await call(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(owner), body: changed })).body).toMatchObject({ THB: { manual: 5_000 } });
    const audit = await call<{ rows: Array<{ before: unknown; after: unknown; target: string }> }>(t.app, 'GET', '/api/operator/audit?action=setting.change', { headers: as(owner) });
    expect(audit.body.rows.find((r) => r.target === 'fourEyes')).toMatchObject({ before: { THB: { manual: 20_000 } }, after: { THB: { manual: 5_000 } } });
    const { id: memberId } = await registerMember(t.app);
    expect((await credit(finance, memberId, 6_000)).status).toBe(202);
    // Raising a threshold loosens the control itself: a second person applies it, over the
    // thresholds as they were when asked (the owner alone had raised the payout one to ฿1,000,000,000).
    const raised = { ...changed, THB: { ...changed.THB, payout: 1_000_000_000 } };
    const asked = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(owner), body: raised });
    expect(asked.status).toBe(202);
    expect((await call(t.app, 'GET', '/api/operator/four-eyes', { headers: as(finance) })).body).toMatchObject({ THB: { payout: 20_000 } });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: as(owner) })).body).toMatchObject({ message: 'SAME_OPERATOR' });
    // Meanwhile the owner lowers another threshold (at once): the old request no longer applies.
    expect((await call(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(owner), body: { ...changed, THB: { ...changed.THB, assign: 10_000 } } })).status).toBe(200);
    expect((await call<{ result: unknown }>(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: as(finance) })).body.result).toMatchObject({ status: 422, body: { message: 'CHANGED_SINCE_REQUEST' } });
    const again = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(owner), body: changed });
    expect(again.status).toBe(202);
    expect((await call<{ result: unknown }>(t.app, 'POST', `/api/operator/approvals/${again.body.approvalId}/approve`, { headers: as(finance) })).body.result).toMatchObject({ status: 200, body: { THB: { assign: 20_000, manual: 5_000 } } });
  });
});
