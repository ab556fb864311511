import type { RawBuilder } from 'kysely';
import {
  REPORT_FORMATS, REPORT_GRANULARITIES, REPORT_MAX_DAYS, REPORT_NAMES, TOP_DEPOSITORS,
  type ReportColumn, type ReportFormat, type ReportGranularity, type ReportName, type ReportQuery,
} from '@mw/contract/operator/reports';
import { memberTagSchema } from '@mw/contract/operator/backoffice';
import { AppError } from '../../lib/errors';
import type { ReportSpan } from '../../lib/report-span';
import type { LedgerReports } from '../../money';
import type { Currency } from '../../money';
import type { MemberDirectory } from '../account/member-directory';
import type { GameActivity } from '../activity';
import { dateOf, dayOf, dayStartAt, periodStart, periodsOf, type Period } from './periods';

/** A report's request once checked. */
export interface ReportRequest {
  name: ReportName;
  firstDay: number;
  lastDay: number;
  granularity: ReportGranularity;
  currency: Currency;
  format: ReportFormat;
  /** Only the members with this tag (null: every member). */
  tag: string | null;
}

/** A built report: minor units inside (the route converts), one figure map per period and the totals. */
export interface ReportTable {
  request: ReportRequest;
  timeZone: string;
  columns: ReportColumn[];
  /** Per period: the period and its figures by column key (amounts in minor units); text columns hold strings. */
  rows: Array<{ period: Period | null; figures: Map<string, number | string> }>;
  totals: Map<string, number | string>;
}

/** What the reports read, each through its owner's service. */
export interface ReportSources {
  ledger: LedgerReports;
  activity: GameActivity;
  members: MemberDirectory;
  /** The deposit module's subquery of credited slips' transfer keys. */
  slipTransfers: () => RawBuilder<unknown>;
}

const BASE_CHANNELS = ['bank', 'slip', 'ewallet', 'voucher', 'manual'];

/** Checks a report's query: each wrong part is a 400 with its own code (report-errors.ts). */
export function checkRequest(name: string, query: ReportQuery, siteCurrency: Currency): ReportRequest {
  if (!(REPORT_NAMES as readonly string[]).includes(name)) throw new AppError(400, 'REPORT_UNKNOWN', { names: REPORT_NAMES });
  const firstDay = dayOf(query.from);
  const lastDay = dayOf(query.to);
  if (firstDay === null || lastDay === null) throw new AppError(400, 'REPORT_DATE_INVALID', { field: firstDay === null ? 'from' : 'to' });
  if (firstDay > lastDay) throw new AppError(400, 'REPORT_RANGE_INVALID');
  const granularity = query.granularity ?? 'day';
  if (!(REPORT_GRANULARITIES as readonly string[]).includes(granularity)) throw new AppError(400, 'REPORT_GRANULARITY_INVALID', { granularities: REPORT_GRANULARITIES });
  const unit = granularity as ReportGranularity;
  if (lastDay - firstDay + 1 > REPORT_MAX_DAYS[unit]) throw new AppError(400, 'REPORT_RANGE_TOO_LARGE', { maxDays: REPORT_MAX_DAYS[unit] });
  const currency = query.currency ?? siteCurrency;
  if (currency !== 'THB' && currency !== 'LAK') throw new AppError(400, 'REPORT_CURRENCY_INVALID', { currencies: ['THB', 'LAK'] });
  const format = query.format ?? 'json';
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new AppError(400, 'REPORT_FORMAT_INVALID', { formats: REPORT_FORMATS });
  const tag = query.tag === undefined || query.tag === '' ? null : query.tag.trim().toLowerCase();
  if (tag !== null && !memberTagSchema.safeParse(tag).success) throw new AppError(400, 'REPORT_TAG_INVALID');
  return { name: name as ReportName, firstDay, lastDay, granularity: unit, currency, format: format as ReportFormat, tag };
}

const amount = (key: string, group?: string): ReportColumn => ({ key, kind: 'amount', ...(group ? { group } : {}) });
const count = (key: string): ReportColumn => ({ key, kind: 'count' });

/** Adds `value` to a figure of a period's map. */
function add(map: Map<string, number | string>, key: string, value: number): void {
  map.set(key, ((map.get(key) as number | undefined) ?? 0) + value);
}

/**
 * The reports of the back office: each figure a sum over the ledger's postings or the imported
 * rounds of the span, grouped by period in the site's time zone.
 */
export class ReportService {
  constructor(
    private readonly sources: ReportSources,
    readonly timeZone: string,
  ) {}

  async build(request: ReportRequest): Promise<ReportTable> {
    const span: ReportSpan = { from: dayStartAt(request.firstDay, this.timeZone), to: dayStartAt(request.lastDay + 1, this.timeZone), unit: request.granularity, timeZone: this.timeZone };
    const periods = periodsOf(request.firstDay, request.lastDay, request.granularity);
    const byPeriod = new Map(periods.map((p) => [p.period, new Map<string, number | string>()]));
    // Services answer local days (or periods' first days): each rolls up into its period here.
    const at = (day: number) => byPeriod.get(dateOf(periodStart(day, request.granularity))) ?? new Map<string, number | string>();
    const table = (columns: ReportColumn[], totals: Map<string, number | string>): ReportTable => ({
      request,
      timeZone: this.timeZone,
      columns,
      rows: periods.map((p) => ({ period: p, figures: byPeriod.get(p.period) ?? new Map<string, number | string>() })),
      totals,
    });
    const sumOver = (columns: ReportColumn[]) => {
      const totals = new Map<string, number | string>();
      for (const figures of byPeriod.values()) for (const c of columns) if (c.kind !== 'text') add(totals, c.key, (figures.get(c.key) as number | undefined) ?? 0);
      return totals;
    };
    const fill = (columns: ReportColumn[]) => {
      for (const figures of byPeriod.values()) for (const c of columns) if (!figures.has(c.key)) figures.set(c.key, 0);
    };
    const { ledger } = this.sources;
    const currency = request.currency;
    // A tag narrows every figure to its members (their postings, rounds and registrations).
    const tagged = request.tag === null ? undefined : this.sources.members.idsWithTag(request.tag);

    switch (request.name) {
      case 'cash': {
        const [deposits, withdrawals] = await Promise.all([ledger.deposits(span, currency, this.sources.slipTransfers(), tagged), ledger.withdrawals(span, currency, tagged)]);
        const found = [...new Set(deposits.map((d) => d.channel))].filter((c) => !BASE_CHANNELS.includes(c)).sort();
        const channels = [...BASE_CHANNELS, ...found];
        for (const d of deposits) {
          add(at(d.period), 'deposits', d.amount);
          add(at(d.period), 'depositCount', d.count);
          add(at(d.period), `channels.${d.channel}`, d.amount);
        }
        for (const w of withdrawals) {
          add(at(w.period), 'withdrawalsRequested', w.requested);
          add(at(w.period), 'withdrawalsPaid', w.paid);
          add(at(w.period), 'withdrawalsReturned', w.returned);
        }
        const columns = [amount('deposits'), count('depositCount'), ...channels.map((c) => amount(`channels.${c}`, c)), amount('withdrawalsRequested'), amount('withdrawalsPaid'), amount('withdrawalsReturned'), amount('net')];
        fill(columns);
        for (const figures of byPeriod.values()) figures.set('net', (figures.get('deposits') as number) - (figures.get('withdrawalsPaid') as number));
        return table(columns, sumOver(columns));
      }
      case 'bonus-cost': {
        const paid = await ledger.promotions(span, currency, tagged);
        for (const p of paid) {
          add(at(p.period), p.kind, p.amount);
          add(at(p.period), 'total', p.amount);
        }
        const columns = ['bonus', 'promotion', 'wheel', 'invite', 'refund', 'total'].map((k) => amount(k));
        fill(columns);
        return table(columns, sumOver(columns));
      }
      case 'ggr': {
        const rounds = await this.sources.activity.byPeriod(span, this.sources.members.idsOfCurrency(currency, request.tag));
        const providers = [...new Set(rounds.map((r) => r.provider))].sort();
        for (const r of rounds) {
          const figures = at(r.period);
          add(figures, 'stakes', r.stakes);
          add(figures, 'wins', r.wins);
          add(figures, 'ggr', r.stakes - r.wins);
          add(figures, 'rounds', r.rounds);
          add(figures, `providers.${r.provider}.stakes`, r.stakes);
          add(figures, `providers.${r.provider}.wins`, r.wins);
          add(figures, `providers.${r.provider}.ggr`, r.stakes - r.wins);
        }
        const columns = [amount('stakes'), amount('wins'), amount('ggr'), count('rounds'), ...providers.flatMap((p) => ['stakes', 'wins', 'ggr'].map((f) => amount(`providers.${p}.${f}`, p)))];
        fill(columns);
        return table(columns, sumOver(columns));
      }
      case 'members': {
        const whole: ReportSpan = { ...span, unit: 'all' };
        const [registered, first, money, moneyAll] = await Promise.all([
          this.sources.members.registrations(span, currency, request.tag),
          ledger.firstDepositors(span, currency, tagged),
          ledger.memberMoney(span, currency, tagged),
          ledger.memberMoney(whole, currency, tagged),
        ]);
        for (const r of registered) add(at(r.period), 'newMembers', r.count);
        for (const f of first) add(at(f.period), 'firstDepositors', f.count);
        for (const m of money) {
          add(at(m.period), 'active', m.active);
          add(at(m.period), 'deposits', m.deposits);
          add(at(m.period), 'depositCount', m.depositCount);
        }
        const columns: ReportColumn[] = [count('newMembers'), count('firstDepositors'), { key: 'firstDepositorsPercent', kind: 'percent' }, count('active'), amount('deposits'), count('depositCount'), amount('averageDeposit')];
        fill(columns);
        const totals = sumOver(columns);
        totals.set('active', moneyAll[0]?.active ?? 0);
        for (const figures of [...byPeriod.values(), totals]) {
          const n = figures.get('newMembers') as number;
          const deposits = figures.get('deposits') as number;
          const depositCount = figures.get('depositCount') as number;
          // A percentage to two decimals; the average deposit to the satang (half up).
          figures.set('firstDepositorsPercent', n > 0 ? Math.round(((figures.get('firstDepositors') as number) * 10_000) / n) / 100 : 0);
          figures.set('averageDeposit', depositCount > 0 ? Math.round(deposits / depositCount) : 0);
        }
        return table(columns, totals);
      }
      case 'top-depositors': {
        const top = await ledger.topDepositors(span, currency, TOP_DEPOSITORS, tagged);
        const names = await this.sources.members.names(top.map((t) => t.memberId));
        const columns: ReportColumn[] = [count('rank'), { key: 'memberId', kind: 'text' }, { key: 'username', kind: 'text' }, { key: 'name', kind: 'text' }, amount('deposits'), count('depositCount'), amount('withdrawalsPaid'), amount('net')];
        const rows = top.map((t, i) => ({
          period: null,
          figures: new Map<string, number | string>([
            ['rank', i + 1], ['memberId', t.memberId], ['username', names.get(t.memberId)?.username ?? ''], ['name', names.get(t.memberId)?.name ?? ''],
            ['deposits', t.deposits], ['depositCount', t.depositCount], ['withdrawalsPaid', t.withdrawalsPaid], ['net', t.deposits - t.withdrawalsPaid],
          ]),
        }));
        const totals = new Map<string, number | string>();
        for (const r of rows) for (const key of ['deposits', 'depositCount', 'withdrawalsPaid', 'net']) add(totals, key, r.figures.get(key) as number);
        for (const key of ['deposits', 'depositCount', 'withdrawalsPaid', 'net']) if (!totals.has(key)) totals.set(key, 0);
        return { request, timeZone: this.timeZone, columns, rows, totals };
      }
    }
  }
}

/** The range's first and last day as written. */
export function rangeOf(request: ReportRequest): { from: string; to: string } {
  return { from: dateOf(request.firstDay), to: dateOf(request.lastDay) };
}
