import { inflateRawSync } from 'node:zlib';
import type { DomainCode } from '../src/money/codes';
import { BONUS_CODE } from '../src/modules/bonus/bonus-service';
import { INVITE_CODE } from '../src/modules/invite/invite-service';
import { REFUND_CODE } from '../src/modules/refund/refund-service';
import { SPIN_PRIZE_CODE } from '../src/modules/spin/spin-service';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { dateOf, periodsOf } from '../src/modules/reports/periods';
import { neutralise } from '../src/modules/reports/export';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';
import { operatorLogin, useTestClock, withoutTurnoverSignal } from './operator-helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const DAY = 86_400_000;
/** Today in Asia/Bangkok (and Vientiane): both UTC+7. */
const todayDay = () => Math.floor((Date.now() + 7 * 3_600_000) / DAY);
let keys = 0;
const key = () => `reports-${Date.now()}-${++keys}`;

type Row = Record<string, unknown> & { period?: string };
interface Report { report: string; from: string; to: string; granularity: string; currency: string; timeZone: string; tag: string | null; columns: Array<{ key: string }>; rows: Row[]; totals: Record<string, unknown> }

/** The files of a zip (an .xlsx) by name. */
function unzip(data: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  const end = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = data.readUInt16LE(end + 10);
  let at = data.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = data.readUInt16LE(at + 10);
    const size = data.readUInt32LE(at + 20);
    const nameLength = data.readUInt16LE(at + 28);
    const extra = data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    const name = data.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = data.readUInt32LE(at + 42);
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    const raw = data.subarray(start, start + size);
    files.set(name, (method === 8 ? inflateRawSync(raw) : raw).toString('utf8'));
    at += 46 + nameLength + extra;
  }
  return files;
}

/** The cells of the sheet as rows of text (inline strings unescaped, numbers as written). */
function sheetCells(xml: string): string[][] {
  return [...xml.matchAll(/<row [^>]*>(.*?)<\/row>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<c ([^>]*)>(.*?)<\/c>/g)].map((c) => {
      const inline = /<t[^>]*>(.*?)<\/t>/.exec(c[2] ?? '')?.[1];
      const text = inline ?? /<v>(.*?)<\/v>/.exec(c[2] ?? '')?.[1] ?? '';
      return text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    }),
  );
}

function csvCells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; } else if (ch === '\r') continue;
    else if (ch === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; } else cell += ch;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

describe('report periods', () => {
  it('cuts a range into days, Monday weeks and months, the ends clipped to the range', () => {
    const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
    expect(periodsOf(day('2026-01-30'), day('2026-02-02'), 'day').map((p) => p.period)).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
    expect(periodsOf(day('2026-01-01'), day('2026-01-12'), 'week')).toEqual([
      { period: '2025-12-29', from: '2026-01-01', to: '2026-01-04' },
      { period: '2026-01-05', from: '2026-01-05', to: '2026-01-11' },
      { period: '2026-01-12', from: '2026-01-12', to: '2026-01-12' },
    ]);
    expect(periodsOf(day('2025-12-15'), day('2026-02-10'), 'month')).toEqual([
      { period: '2025-12-01', from: '2025-12-15', to: '2025-12-31' },
      { period: '2026-01-01', from: '2026-01-01', to: '2026-01-31' },
      { period: '2026-02-01', from: '2026-02-01', to: '2026-02-10' },
    ]);
    expect(periodsOf(day('2024-02-28'), day('2024-03-01'), 'day')).toHaveLength(3);
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    for (const text of ['=1+1', '+1', '-x', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(text)).toBe(`'${text}`);
    expect(neutralise('Somchai')).toBe('Somchai');
  });
});

describe.each(dbKinds)('reports on %s', (kind) => {
  let t: TestApp;
  const today = todayDay();
  const from = dateOf(today - 20);
  const to = dateOf(today);
  // Rounds of the month at two providers: [days before today, provider, stake, win] in satang.
  const rounds: Array<[number, string, number, number]> = [
    [15, 'PG', 100_00, 30_00],
    [15, 'JOKER', 50_00, 0],
    [8, 'PG', 20_00, 45_50],
    [1, 'JOKER', 70_25, 10_00],
    [0, 'PG', 33_33, 0],
  ];
  // The days (before today) each thing of the month happened on. The sandbox top-up, the withdrawals and the refund are today's.
  const DAYS = {
    registeredA: 19, registeredB: 13, registeredC: 4,
    bank: 18, slip: 12, qr: 8, ewallet: 5, manual: 3,
    bonus: 15, promotion: 10, wheel: 6, invite: 2, refund: 0,
  };
  const get = async <T = Report>(name: string, query: string, token?: string) =>
    call<T>(t.app, 'GET', `/api/operator/reports/${name}?${query}`, token ? { token } : { headers: operator });

  beforeAll(async () => {
    t = await startApp(kind, { SLIP_RECHECK_INTERVAL_MS: '0', PAYOUT_SETTLE_INTERVAL_MS: '0', ROUND_IMPORT_INTERVAL_MS: '0', OPERATOR_IDLE_MINUTES: '1440' });
    await t.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
    // The month's withdrawals are paid on one approval (the risk signals are risk.test.ts's subject;
    // this month's members include one named =HYPERLINK("x"), unlike their bank account's name).
    await withoutTurnoverSignal(t);
    await t.services.risk.rules.set({ ...(await t.services.risk.rules.get()), nameMismatch: false, sameBankAccount: false, sharedBonus: false });
    useTestClock(t);
    /**
     * A month, spread over its days: the calls run now, and what each wrote to the ledger is then
     * moved `daysAgo` days back (the ledger is append-only: its trigger is set aside for that one
     * UPDATE, in this test's own database), as if the call had been made that day.
     */
    const db = t.services.database.db;
    const onDay = async (daysAgo: number, act: () => Promise<unknown>) => {
      const since = (await sql<{ at: Date }>`SELECT clock_timestamp() AS at`.execute(db)).rows[0]?.at;
      await act();
      if (daysAgo === 0) return;
      await sql`ALTER TABLE ledger_transactions DISABLE TRIGGER ledger_transactions_append_only`.execute(db);
      await sql`UPDATE ledger_transactions SET created_at = created_at - make_interval(days => ${daysAgo}) WHERE created_at >= ${since}`.execute(db);
      await sql`ALTER TABLE ledger_transactions ENABLE TRIGGER ledger_transactions_append_only`.execute(db);
    };
    const registeredAgo = async (memberId: string, daysAgo: number) => {
      await sql`UPDATE members SET created_at = created_at - make_interval(days => ${daysAgo}) WHERE id = ${memberId}`.execute(db);
    };

    // A month of activity through the real calls: members, deposits on every channel, withdrawals.
    const a = await registerMember(t.app, { name: '=HYPERLINK("x")' });
    const b = await registerMember(t.app);
    const c = await registerMember(t.app);
    await registeredAgo(a.id, DAYS.registeredA);
    await registeredAgo(b.id, DAYS.registeredB);
    await registeredAgo(c.id, DAYS.registeredC);
    const tokenA = await login(t.app, a.phone, a.password);
    const tokenB = await login(t.app, b.phone, b.password);
    const profileA = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token: tokenA })).body;
    const profileB = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token: tokenB })).body;
    // bank feed ฿1,234.56 (A)
    await onDay(DAYS.bank, async () => {
      const fed = await call<{ feed: { status: number } }>(t.app, 'POST', '/api/sandbox/bank/transfers', { body: { fromBankCode: profileA.bankCode, fromAccountNo: profileA.bankAccountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 1234.56 } });
      expect(fed.body.feed).toEqual({ status: 200 });
    });
    // slip ฿456.78 (B): a transfer into the manual GSB account, then its slip uploaded
    const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', { body: { fromBankCode: profileB.bankCode, fromAccountNo: profileB.bankAccountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount: 456.78 } });
    const png = (await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${sent.body.transRef}/slip.png` })).rawPayload;
    const boundary = `----reports${Date.now()}`;
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slip.png"\r\nContent-Type: image/png\r\n\r\n`), png, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    await onDay(DAYS.slip, async () => {
      const slip = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${tokenB}`, 'x-requested-with': 'XMLHttpRequest' }, payload });
      expect(slip.json()).toMatchObject({ status: 'SUCCESS', amount: 456.78 });
    });
    // QR at two gateways: WW ฿150.25 (A), PAYTIMZ ฿10 (B)
    for (const [token, provider, amount] of [[tokenA, 'WW', 150.25], [tokenB, 'PAYTIMZ', 10]] as const) {
      await onDay(DAYS.qr, async () => {
        const qr = await call<{ qrcodeId: string }>(t.app, 'POST', `/api/qrcode/${provider}`, { token, body: { amount } });
        expect((await call(t.app, 'POST', `/api/sandbox/payments/${qr.body.qrcodeId}/pay`)).status).toBe(200);
      });
    }
    // e-wallet transfer ฿75 (A)
    await onDay(DAYS.ewallet, async () => {
      expect((await call<{ feed: { status: number } }>(t.app, 'POST', '/api/sandbox/ewallet/transfers', { body: { fromPhone: a.phone, amount: 75 } })).body.feed).toEqual({ status: 200 });
    });
    // manual ฿80 (C), by an operator
    await onDay(DAYS.manual, async () => {
      expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key() }, body: { memberId: c.id, amount: 80, currency: 'BAHT', note: 'counter' } })).status).toBe(200);
    });
    // sandbox top-up ฿500 (B)
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: tokenB, body: { amount: 500 } })).status).toBe(200);
    // withdrawals: A asks ฿300 (paid) and ฿100 (rejected: returned); B asks ฿200 (left pending)
    for (const [token, amount] of [[tokenA, 300], [tokenA, 100], [tokenB, 200]] as const) {
      expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount } })).status).toBe(200);
    }
    const pending = await call<{ withdrawals: Array<{ id: string; amount: number }> }>(t.app, 'GET', `/api/operator/withdrawals?q=${a.phone}`, { headers: operator });
    const w300 = pending.body.withdrawals.find((w) => w.amount === 300);
    const w100 = pending.body.withdrawals.find((w) => w.amount === 100);
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w300?.id}/approve`, { headers: operator })).body).toMatchObject({ payout: 'paid' });
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w100?.id}/reject`, { headers: operator, body: { note: 'no' } })).status).toBe(200);
    // promotions paid by the money core under each kind's key: bonus ฿50 (less ฿0), promotion code ฿20, wheel ฿5, invite ฿12.34, refund ฿7.66
    const credit = (daysAgo: number, source: string, kind: DomainCode, memberId: string, amount: number) =>
      onDay(daysAgo, () => t.services.money.credits.credit({ source, ref: key(), memberId, amount, currency: 'THB', kind, from: source.toUpperCase(), note: null }));
    await credit(DAYS.bonus, 'bonus', BONUS_CODE, a.id, 50_00);
    await credit(DAYS.promotion, 'promotion', BONUS_CODE, b.id, 20_00);
    await credit(DAYS.wheel, 'spin', SPIN_PRIZE_CODE, c.id, 5_00);
    await credit(DAYS.invite, 'invite', INVITE_CODE, a.id, 12_34);
    await credit(DAYS.refund, 'refund', REFUND_CODE, b.id, 7_66);
    // rounds at two providers on days of the month (seamless rounds are recorded where imported rounds are)
    // A is tagged vip (the tag filter's test).
    expect((await call(t.app, 'PUT', `/api/operator/members/${a.id}/tags`, { headers: operator, body: { tags: ['vip'] } })).status).toBe(200);
    for (const [n, [daysAgo, provider, stake, win]] of rounds.entries()) {
      await t.services.activity.recordSeamless(t.services.database.db, { provider, roundId: `r-${n}`, memberId: n % 2 ? b.id : a.id, category: 'slot', stake, win, at: new Date((today - daysAgo) * DAY - 7 * 3_600_000 + 12 * 3_600_000) });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('cash: deposits per channel, withdrawals requested, paid and returned, net — every cell, to the satang', async () => {
    const res = await get('cash', `from=${from}&to=${to}&granularity=day&currency=THB`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ report: 'cash', from, to, granularity: 'day', currency: 'THB', timeZone: 'Asia/Bangkok' });
    expect(res.body.rows.map((r) => r.period)).toEqual(Array.from({ length: 21 }, (_, i) => dateOf(today - 20 + i)));
    const figures = {
      deposits: 2506.59, depositCount: 7,
      channels: { bank: 1234.56, slip: 456.78, ewallet: 75, voucher: 0, manual: 80, 'qr:PAYTIMZ': 10, 'qr:WW': 150.25, sandbox: 500 },
      withdrawalsRequested: 600, withdrawalsPaid: 300, withdrawalsReturned: 100, net: 2206.59,
    };
    // Each day's figures: the deposits on the days they were made, the withdrawals today.
    const cents = (n: number) => Math.round(n * 100) / 100;
    const zero = () => ({ deposits: 0, depositCount: 0, channels: Object.fromEntries(Object.keys(figures.channels).map((k) => [k, 0])) as Record<string, number>, withdrawalsRequested: 0, withdrawalsPaid: 0, withdrawalsReturned: 0, net: 0 });
    const days = new Map<string, ReturnType<typeof zero>>();
    const on = (daysAgo: number) => days.get(dateOf(today - daysAgo)) ?? days.set(dateOf(today - daysAgo), zero()).get(dateOf(today - daysAgo)) ?? zero();
    const deposit = (daysAgo: number, channel: string, value: number) => {
      const day = on(daysAgo);
      day.deposits = cents(day.deposits + value);
      day.depositCount += 1;
      day.channels[channel] = cents((day.channels[channel] ?? 0) + value);
    };
    deposit(DAYS.bank, 'bank', 1234.56);
    deposit(DAYS.slip, 'slip', 456.78);
    deposit(DAYS.qr, 'qr:WW', 150.25);
    deposit(DAYS.qr, 'qr:PAYTIMZ', 10);
    deposit(DAYS.ewallet, 'ewallet', 75);
    deposit(DAYS.manual, 'manual', 80);
    deposit(0, 'sandbox', 500);
    Object.assign(on(0), { withdrawalsRequested: 600, withdrawalsPaid: 300, withdrawalsReturned: 100 });
    for (const day of days.values()) day.net = cents(day.deposits - day.withdrawalsPaid);
    expect(days.size).toBe(6);
    for (const row of res.body.rows) {
      const { period, from: f, to: t2, ...rest } = row;
      expect({ period, ...rest }).toEqual({ period, ...(days.get(period ?? '') ?? zero()) });
      expect([f, t2]).toEqual([period, period]);
    }
    expect(res.body.totals).toEqual(figures);
    expect(res.body.columns.map((c) => c.key)).toEqual(['deposits', 'depositCount', 'channels.bank', 'channels.slip', 'channels.ewallet', 'channels.voucher', 'channels.manual', 'channels.qr:PAYTIMZ', 'channels.qr:WW', 'channels.sandbox', 'withdrawalsRequested', 'withdrawalsPaid', 'withdrawalsReturned', 'net']);
    // The same money in weeks and in months; the dashboard's day agrees.
    for (const granularity of ['week', 'month']) expect((await get('cash', `from=${from}&to=${to}&granularity=${granularity}&currency=THB`)).body.totals).toEqual(figures);
    const dashboard = await call<{ totals: Array<{ currency: string; deposits: number; withdrawals: number }> }>(t.app, 'GET', '/api/operator/dashboard', { headers: operator });
    // The dashboard's today: the sandbox top-up and the payout.
    expect(dashboard.body.totals.find((x) => x.currency === 'THB')).toMatchObject({ deposits: 500_00, withdrawals: 300_00 });
    // Nothing of it is kip.
    const lak = await get('cash', `from=${from}&to=${to}&currency=LAK`);
    expect(lak.body.totals).toMatchObject({ deposits: 0, withdrawalsPaid: 0, net: 0 });
  });

  it('bonus-cost: every kind of promotion and the total', async () => {
    const res = await get('bonus-cost', `from=${from}&to=${to}&granularity=day&currency=THB`);
    const figures = { bonus: 50, promotion: 20, wheel: 5, invite: 12.34, refund: 7.66, total: 95 };
    const paidOn = new Map([[DAYS.bonus, 'bonus'], [DAYS.promotion, 'promotion'], [DAYS.wheel, 'wheel'], [DAYS.invite, 'invite'], [DAYS.refund, 'refund']].map(([daysAgo, kind]) => [dateOf(today - (daysAgo as number)), kind as keyof typeof figures]));
    for (const row of res.body.rows) {
      const { period, from: _f, to: _t, ...rest } = row;
      const kind = paidOn.get(period ?? '');
      const none = { bonus: 0, promotion: 0, wheel: 0, invite: 0, refund: 0, total: 0 };
      expect(rest, period).toEqual(kind ? { ...none, [kind]: figures[kind], total: figures[kind] } : none);
    }
    expect(res.body.totals).toEqual(figures);
  });

  it('ggr: stakes, wins and GGR per day and per provider, and in weeks', async () => {
    const res = await get('ggr', `from=${from}&to=${to}&granularity=day&currency=THB`);
    for (const row of res.body.rows) {
      const daysAgo = today - Date.parse(`${row.period}T00:00:00Z`) / DAY;
      const mine = rounds.filter((r) => r[0] === daysAgo);
      const sum = (rows: typeof rounds, i: 2 | 3) => rows.reduce((s, r) => s + r[i], 0);
      const provider = (p: string) => {
        const of = mine.filter((r) => r[1] === p);
        return { stakes: sum(of, 2) / 100, wins: sum(of, 3) / 100, ggr: (sum(of, 2) - sum(of, 3)) / 100 };
      };
      expect(row).toMatchObject({ stakes: sum(mine, 2) / 100, wins: sum(mine, 3) / 100, ggr: (sum(mine, 2) - sum(mine, 3)) / 100, rounds: mine.length, providers: { JOKER: provider('JOKER'), PG: provider('PG') } });
    }
    const totals = { stakes: 273.58, wins: 85.5, ggr: 188.08, rounds: 5, providers: { JOKER: { stakes: 120.25, wins: 10, ggr: 110.25 }, PG: { stakes: 153.33, wins: 75.5, ggr: 77.83 } } };
    expect(res.body.totals).toEqual(totals);
    const weeks = await get('ggr', `from=${from}&to=${to}&granularity=week&currency=THB`);
    expect(weeks.body.totals).toEqual(totals);
    expect(weeks.body.rows.reduce((s, r) => s + Math.round((r.ggr as number) * 100), 0)).toBe(188_08);
    expect((await get('ggr', `from=${from}&to=${to}&currency=LAK`)).body.totals).toMatchObject({ stakes: 0, wins: 0, ggr: 0, rounds: 0 });
  });

  it('members: new members, first depositors and their share, active, average deposit', async () => {
    const res = await get('members', `from=${from}&to=${to}&granularity=month&currency=THB`);
    // 4 registered (the demo member, seeded at start, and the suite's 3); the 3 deposited for the first time; 3 members' accounts moved; 7 deposits.
    expect(res.body.totals).toEqual({ newMembers: 4, firstDepositors: 3, firstDepositorsPercent: 75, active: 3, deposits: 2506.59, depositCount: 7, averageDeposit: 358.08 });
    // Day by day: each member on the day they registered and on the day of their first deposit.
    const days = await get('members', `from=${from}&to=${to}&granularity=day&currency=THB`);
    const day = (daysAgo: number) => days.body.rows.find((r) => r.period === dateOf(today - daysAgo));
    expect(day(DAYS.registeredA)).toMatchObject({ newMembers: 1, firstDepositors: 0, firstDepositorsPercent: 0, active: 0 });
    expect(day(DAYS.bank)).toMatchObject({ newMembers: 0, firstDepositors: 1, firstDepositorsPercent: 0, active: 1, deposits: 1234.56, depositCount: 1 });
    expect(day(DAYS.slip)).toMatchObject({ newMembers: 0, firstDepositors: 1, active: 1, deposits: 456.78 });
    expect(day(DAYS.registeredC)).toMatchObject({ newMembers: 1, firstDepositors: 0 });
    expect(day(DAYS.manual)).toMatchObject({ newMembers: 0, firstDepositors: 1, active: 1, deposits: 80 });
    // Today: the demo member (seeded at start) is new; A and B moved money (withdrawals, the top-up, the refund).
    expect(day(0)).toMatchObject({ newMembers: 1, firstDepositors: 0, firstDepositorsPercent: 0, active: 2, deposits: 500, depositCount: 1 });
    expect(days.body.rows.reduce((n, r) => n + (r.newMembers as number), 0)).toBe(4);
    expect(days.body.rows.reduce((n, r) => n + (r.firstDepositors as number), 0)).toBe(3);
  });

  it('top-depositors, CSV and XLSX: a member named =HYPERLINK("x") stays text', async () => {
    const res = await get('top-depositors', `from=${from}&to=${to}&currency=THB`);
    expect(res.body.rows.map((r) => [r.name, r.deposits])).toEqual([
      ['=HYPERLINK("x")', 1459.81],
      ['Somchai', 966.78],
      ['Somchai', 80],
    ]);
    const csv = await t.app.inject({ method: 'GET', url: `/api/operator/reports/top-depositors?from=${from}&to=${to}&currency=THB&format=csv`, headers: operator });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="report-top-depositors-THB-${from}-${to}.csv"`);
    expect(csv.body).toContain('"\'=HYPERLINK(""x"")"');
    const cells = csvCells(csv.body);
    expect(cells[1]?.slice(3)).toEqual(['\'=HYPERLINK("x")', '1459.81', '3', '300.00', '1159.81']);
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/operator/reports/top-depositors?from=${from}&to=${to}&currency=THB&format=xlsx`, headers: operator });
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers['content-disposition']).toContain('.xlsx"');
    const files = unzip(xlsx.rawPayload);
    expect([...files.keys()].sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    const sheet = files.get('xl/worksheets/sheet1.xml') ?? '';
    // Text cells are inline strings (never a formula: no <f>), marked quote-prefixed.
    expect(sheet).not.toContain('<f>');
    expect(sheetCells(sheet)[1]?.slice(3)).toEqual(['=HYPERLINK("x")', '1459.81', '3', '300.00', '1159.81']);
    expect(sheet).toMatch(/<c r="D2" t="inlineStr" s="3">/);
  });

  it('exports every report with the same figures as the JSON answer', async () => {
    for (const name of ['cash', 'bonus-cost', 'ggr', 'members']) {
      const json = await get(name, `from=${from}&to=${to}&granularity=week&currency=THB`);
      const csv = await t.app.inject({ method: 'GET', url: `/api/operator/reports/${name}?from=${from}&to=${to}&granularity=week&currency=THB&format=csv`, headers: operator });
      const xlsx = await t.app.inject({ method: 'GET', url: `/api/operator/reports/${name}?from=${from}&to=${to}&granularity=week&currency=THB&format=xlsx`, headers: operator });
      const fromCsv = csvCells(csv.body);
      const fromXlsx = sheetCells(unzip(xlsx.rawPayload).get('xl/worksheets/sheet1.xml') ?? '');
      expect(fromCsv[0]).toEqual(['period', 'from', 'to', ...json.body.columns.map((c) => c.key)]);
      expect(fromXlsx).toEqual(fromCsv);
      const value = (row: Record<string, unknown>, path: string) => path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], row);
      for (const [i, row] of [...json.body.rows, { period: 'total', ...json.body.totals }].entries()) {
        expect(fromCsv[i + 1]?.[0]).toBe(row.period);
        json.body.columns.forEach((c, j) => expect(Number(fromCsv[i + 1]?.[j + 3]), `${name} ${row.period} ${c.key}`).toBe(value(row, c.key)));
      }
    }
  });

  it('a tag narrows every report to its members: their deposits, withdrawals, promotions, rounds and registrations', async () => {
    const query = `from=${from}&to=${to}&granularity=month&currency=THB&tag=vip`;
    const cash = await get('cash', query);
    expect(cash.body.tag).toBe('vip');
    expect(cash.body.totals).toEqual({
      deposits: 1459.81, depositCount: 3,
      channels: { bank: 1234.56, slip: 0, ewallet: 75, voucher: 0, manual: 0, 'qr:WW': 150.25 },
      withdrawalsRequested: 400, withdrawalsPaid: 300, withdrawalsReturned: 100, net: 1159.81,
    });
    expect((await get('bonus-cost', query)).body.totals).toEqual({ bonus: 50, promotion: 0, wheel: 0, invite: 12.34, refund: 0, total: 62.34 });
    expect((await get('ggr', query)).body.totals).toEqual({ stakes: 153.33, wins: 75.5, ggr: 77.83, rounds: 3, providers: { PG: { stakes: 153.33, wins: 75.5, ggr: 77.83 } } });
    expect((await get('members', query)).body.totals).toEqual({ newMembers: 1, firstDepositors: 1, firstDepositorsPercent: 100, active: 1, deposits: 1459.81, depositCount: 3, averageDeposit: 486.6 });
    expect((await get('top-depositors', query)).body.rows.map((r) => r.name)).toEqual(['=HYPERLINK("x")']);
    // The export says which members it is about.
    const csv = await t.app.inject({ method: 'GET', url: `/api/operator/reports/cash?${query}&format=csv`, headers: operator });
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="report-cash-THB-vip-${from}-${to}.csv"`);
    // A tag nobody has: nothing; a tag that cannot be one: 400.
    expect((await get('cash', `from=${from}&to=${to}&currency=THB&tag=nobody`)).body.totals).toMatchObject({ deposits: 0, withdrawalsRequested: 0 });
    expect(await get('cash', `from=${from}&to=${to}&tag=${encodeURIComponent('VIP!')}`)).toMatchObject({ status: 400, body: { message: 'REPORT_TAG_INVALID' } });
  });

  it('refuses bad input with a clear 400, and each role sees what the matrix says', async () => {
    const cases: Array<[string, string, string]> = [
      ['nope', `from=${from}&to=${to}`, 'REPORT_UNKNOWN'],
      ['cash', `from=2026-02-30&to=${to}`, 'REPORT_DATE_INVALID'],
      ['cash', `to=${to}`, 'REPORT_DATE_INVALID'],
      ['cash', `from=${to}&to=${from}`, 'REPORT_RANGE_INVALID'],
      ['cash', `from=2024-01-01&to=2025-12-31&granularity=day`, 'REPORT_RANGE_TOO_LARGE'],
      ['cash', `from=${from}&to=${to}&granularity=hour`, 'REPORT_GRANULARITY_INVALID'],
      ['cash', `from=${from}&to=${to}&currency=USD`, 'REPORT_CURRENCY_INVALID'],
      ['cash', `from=${from}&to=${to}&format=pdf`, 'REPORT_FORMAT_INVALID'],
    ];
    for (const [name, query, code] of cases) expect(await get(name, query), `${name}?${query}`).toMatchObject({ status: 400, body: { message: code } });
    expect((await get('cash', 'from=2024-01-01&to=2025-12-31&granularity=week')).status).toBe(200);
    const marketing = await operatorLogin(t, 'marketing');
    const support = await operatorLogin(t, 'support');
    const finance = await operatorLogin(t, 'finance');
    expect((await get('bonus-cost', `from=${from}&to=${to}`, marketing)).status).toBe(200);
    expect((await get('cash', `from=${from}&to=${to}`, marketing)).body).toMatchObject({ message: 'FORBIDDEN_ROLE' });
    expect((await get('bonus-cost', `from=${from}&to=${to}`, support)).body).toMatchObject({ message: 'FORBIDDEN_ROLE' });
    for (const name of ['cash', 'bonus-cost', 'ggr', 'members', 'top-depositors']) expect((await get(name, `from=${from}&to=${to}`, finance)).status).toBe(200);
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });
});

describe.each(dbKinds)('reports on the Lao site on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true', ROUND_IMPORT_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers kip by default in Asia/Vientiane, each currency apart', async () => {
    const kip = await registerMember(t.app, { username: `20${String(Date.now()).slice(-8)}`, bankCode: 'BCEL', currency: 'LAK' });
    const baht = await registerMember(t.app, { username: `20${String(Date.now() + 1).slice(-8)}`, currency: 'BAHT' });
    const kipToken = await login(t.app, kip.phone, kip.password);
    const bahtToken = await login(t.app, baht.phone, baht.password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: kipToken, body: { amount: 500_000 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key() }, body: { memberId: kip.id, amount: 120_000, currency: 'LAK', note: 'counter' } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: bahtToken, body: { amount: 100 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: kipToken, body: { amount: 60_000 } })).status).toBe(200);
    await t.services.activity.recordSeamless(t.services.database.db, { provider: 'PG', roundId: 'lak-1', memberId: kip.id, category: 'slot', stake: 10_000_00, win: 2_500_00, at: new Date() });
    await t.services.activity.recordSeamless(t.services.database.db, { provider: 'PG', roundId: 'thb-1', memberId: baht.id, category: 'slot', stake: 40_00, win: 0, at: new Date() });
    const day = dateOf(todayDay());
    const lak = await call<Report>(t.app, 'GET', `/api/operator/reports/cash?from=${day}&to=${day}`, { headers: operator });
    expect(lak.body).toMatchObject({ currency: 'LAK', timeZone: 'Asia/Vientiane', totals: { deposits: 620_000, channels: { sandbox: 500_000, manual: 120_000 }, withdrawalsRequested: 60_000, withdrawalsPaid: 0, net: 620_000 } });
    const thb = await call<Report>(t.app, 'GET', `/api/operator/reports/cash?from=${day}&to=${day}&currency=THB`, { headers: operator });
    expect(thb.body.totals).toMatchObject({ deposits: 100, withdrawalsRequested: 0, net: 100 });
    expect((await call<Report>(t.app, 'GET', `/api/operator/reports/ggr?from=${day}&to=${day}`, { headers: operator })).body.totals).toEqual({ stakes: 10_000, wins: 2_500, ggr: 7_500, rounds: 1, providers: { PG: { stakes: 10_000, wins: 2_500, ggr: 7_500 } } });
    expect((await call<Report>(t.app, 'GET', `/api/operator/reports/ggr?from=${day}&to=${day}&currency=THB`, { headers: operator })).body.totals).toMatchObject({ stakes: 40, ggr: 40 });
    expect((await call<Report>(t.app, 'GET', `/api/operator/reports/members?from=${day}&to=${day}`, { headers: operator })).body.totals).toMatchObject({ newMembers: 1, firstDepositors: 1, active: 1, depositCount: 2, averageDeposit: 310_000 });
  });
});
