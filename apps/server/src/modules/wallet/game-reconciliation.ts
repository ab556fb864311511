import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import { toBaht } from '@mw/contract/money';
import type { gameReconciliationSchema, gameReconDaySchema, gameReconItemSchema } from '@mw/contract/operator/deposit';
import { siteDay } from '../../lib/periods';
import type { ProviderTransfer } from '../../providers/games/game-provider';
import type { SeamlessWallet } from '../../money';
import { WALLET_CODE } from '@mw/contract/constants';
import type { WalletDb } from './tables';

type Report = z.infer<typeof gameReconciliationSchema>;
type Day = z.infer<typeof gameReconDaySchema>;
type Item = z.infer<typeof gameReconItemSchema>;

/** What asks the providers: their codes with a report call, and the report of one. */
export interface GameReports {
  codes(): Promise<string[]>;
  report(code: string, from: Date, to: Date): Promise<ProviderTransfer[] | null>;
}

/** The game of a wallet ↔ game transfer. */
const codeOf = (op: { source: string; target: string }): string => (op.source === WALLET_CODE ? op.target : op.source);

/** How far around the period the provider's report is read: its clock and ours differ a little, and an in-doubt transfer is applied a moment after we recorded it. */
const MARGIN_MS = 3_600_000;

interface Ours {
  id: string;
  member_id: string;
  status: string;
  source: string;
  target: string;
  amount: number;
  created_at: Date;
  currency: string;
  username: string | null;
}

/**
 * Transfers between wallets and game providers against each provider's own report of the
 * transfers it applied (its `report` call), one to one by our reference (the provider's request
 * id): every transfer we booked as done must be one the provider applied, to the same player, in
 * the same direction, for the same amount; every transfer the provider applied must be one we
 * booked as done; one we booked as failed (money given back) must be one it never applied. A
 * transfer still in doubt is listed as PENDING (the transfer reconciler settles it by asking),
 * not as a breach. A provider whose report does not come back is named as unreachable and its
 * transfers are left unchecked (never counted as matched). Days are the site's (UTC+7), by the
 * time we recorded the transfer (the provider's time for one we never booked). A seamless game's
 * transactions (bets, wins, rollbacks we applied) are checked the same way against its
 * aggregator's report, by transaction id.
 */
export class GameReconciliation {
  constructor(
    private readonly db: Kysely<WalletDb>,
    private readonly reports: GameReports,
    private readonly timeZone: string,
    /** The money core's seamless transactions (the money core owns their table). */
    private readonly seamless: Pick<SeamlessWallet, 'applied'>,
  ) {}

  async run(period: { from: Date; to: Date }): Promise<Report> {
    const { from, to } = period;
    const ours = [...(await this.ours({ from, to })), ...(await this.seamlessOurs({ from, to }))];
    // Every provider of the catalogue (active or not) and every one our transfers went to: one we cannot ask is named, never skipped.
    const codes = [...new Set([...(await this.reports.codes()), ...ours.map(codeOf)])];
    const checked: string[] = [];
    const unreachable: string[] = [];
    /** The provider's transfers by provider and reference; a reference it lists twice is a breach of its own. */
    const theirs = new Map<string, ProviderTransfer & { code: string }>();
    const twice: Array<ProviderTransfer & { code: string }> = [];
    await Promise.all(
      codes.map(async (code) => {
        const list = await this.reports.report(code, new Date(from.getTime() - MARGIN_MS), new Date(to.getTime() + MARGIN_MS));
        if (!list) return void unreachable.push(code);
        checked.push(code);
        for (const t of list) {
          const key = `${code}|${t.reference}`;
          if (theirs.has(key)) twice.push({ ...t, code });
          else theirs.set(key, { ...t, code });
        }
      }),
    );
    const asked = new Set(checked);
    const items: Item[] = [];
    const days = new Map<string, Day>();
    const count = (day: string, code: string, currency: 'THB' | 'LAK', matched: boolean, amount: number) => {
      const key = `${day}|${code}|${currency}`;
      const d = days.get(key) ?? { day, code, currency, matched: 0, matchedAmount: 0, open: 0, openAmount: 0 };
      if (matched) {
        d.matched += 1;
        d.matchedAmount += amount;
      } else {
        d.open += 1;
        d.openAmount += amount;
      }
      days.set(key, d);
    };
    const seen = new Set<string>();
    for (const op of ours) {
      const code = codeOf(op);
      const direction = op.source === WALLET_CODE ? 'in' : 'out';
      const currency = op.currency === 'LAK' ? 'LAK' : 'THB';
      const day = siteDay(op.created_at);
      const their = theirs.get(`${code}|${op.id}`);
      seen.add(`${code}|${op.id}`);
      const item = (kind: Item['kind']): Item => ({
        kind,
        code,
        reference: op.id,
        amount: toBaht(op.amount),
        currency,
        at: op.created_at.toISOString(),
        memberId: op.member_id,
        theirs: their ? { username: their.username, direction: their.direction, amount: toBaht(their.amount) } : null,
      });
      if (op.status === 'PENDING') {
        items.push(item('PENDING'));
        count(day, code, currency, false, op.amount);
        continue;
      }
      if (!asked.has(code)) continue;
      const kind = this.compare(op, direction, their);
      if (kind) {
        items.push(item(kind));
        count(day, code, currency, false, op.amount);
      } else if (op.status === 'SUCCESS') count(day, code, currency, true, op.amount);
    }
    // What a provider applied in the period that we did not meet above: booked in another period
    // (checked with that period), or never booked at that provider (unknown to us).
    const rest = [...theirs.entries()].filter(([key, t]) => !seen.has(key) && t.at >= from && t.at < to).map(([, t]) => t);
    const ids = { ids: rest.map((t) => t.reference) };
    const elsewhere = new Map([...(await this.ours(ids)), ...(await this.seamlessOurs(ids))].map((r) => [r.id, r]));
    const outside = async (t: ProviderTransfer & { code: string }, kind: Item['kind']) => {
      // Whose game account the provider moved money on (its currency is the member's).
      const player = await this.player(t.code, t.username);
      const currency = player ? (player.currency === 'LAK' ? 'LAK' : 'THB') : null;
      items.push({ kind, code: t.code, reference: t.reference, amount: null, currency, at: t.at.toISOString(), memberId: player?.member_id ?? null, theirs: { username: t.username, direction: t.direction, amount: toBaht(t.amount) } });
      if (currency) count(siteDay(t.at), t.code, currency, false, t.amount);
    };
    for (const t of rest) {
      const op = elsewhere.get(t.reference);
      if (op && codeOf(op) === t.code) continue;
      await outside(t, 'UNKNOWN_TO_US');
    }
    for (const t of twice) if (t.at >= from && t.at < to) await outside(t, 'DUPLICATE_AT_PROVIDER');
    items.sort((a, b) => a.at.localeCompare(b.at));
    const ok = unreachable.length === 0 && items.every((i) => i.kind === 'PENDING');
    return {
      ok,
      from: from.toISOString(),
      to: to.toISOString(),
      timeZone: this.timeZone,
      checked: checked.sort(),
      unreachable: unreachable.sort(),
      days: [...days.values()].map((d) => ({ ...d, matchedAmount: toBaht(d.matchedAmount), openAmount: toBaht(d.openAmount) })).sort((a, b) => a.day.localeCompare(b.day) || a.code.localeCompare(b.code) || a.currency.localeCompare(b.currency)),
      items,
    };
  }

  /** What differs between our transfer and the provider's record of it; null when they agree (or both say it never happened). */
  private compare(op: Ours, direction: 'in' | 'out', their: ProviderTransfer | undefined): Item['kind'] | null {
    if (op.status === 'FAILED') return their ? 'FAILED_BUT_APPLIED' : null;
    if (!their) return 'NOT_AT_PROVIDER';
    if (their.direction !== direction) return 'DIRECTION_MISMATCH';
    if (their.amount !== op.amount) return 'AMOUNT_MISMATCH';
    if (op.username !== null && their.username !== op.username) return 'PLAYER_MISMATCH';
    return null;
  }

  /** The member holding a provider's player (username), with their currency. */
  private async player(code: string, username: string): Promise<{ member_id: string; currency: string } | undefined> {
    return this.db
      .selectFrom('member_games')
      .innerJoin('member_view as members', 'members.id', 'member_games.member_id')
      .select(['member_games.member_id', 'members.currency'])
      .where('member_games.game_code', '=', code)
      .where('member_games.username', '=', username)
      .executeTakeFirst();
  }

  /**
   * Our seamless transactions applied (a bet is money into the game, a win or a rollback out of
   * it; a bet its rollback undid is left out, as the aggregator's report leaves it out), in the
   * shape of a transfer done: their aggregator's report lists them by transaction id.
   */
  private async seamlessOurs(which: { from: Date; to: Date } | { ids: string[] }): Promise<Ours[]> {
    const applied = await this.seamless.applied(which);
    if (applied.length === 0) return [];
    const members = await this.db
      .selectFrom('member_view as members')
      .leftJoin('member_games', 'member_games.member_id', 'members.id')
      .select(['members.id', 'members.currency', 'member_games.game_code', 'member_games.username'])
      .where('members.id', 'in', [...new Set(applied.map((a) => a.memberId))])
      .execute();
    const currencyOf = new Map(members.map((m) => [m.id, m.currency]));
    const usernameOf = new Map(members.map((m) => [`${m.id}|${m.game_code ?? ''}`, m.username]));
    return applied.map((a) => ({
      id: a.transactionId,
      member_id: a.memberId,
      status: 'SUCCESS',
      source: a.action === 'bet' ? WALLET_CODE : a.provider,
      target: a.action === 'bet' ? a.provider : WALLET_CODE,
      amount: a.amount,
      created_at: a.createdAt,
      currency: currencyOf.get(a.memberId) ?? 'BAHT',
      username: usernameOf.get(`${a.memberId}|${a.provider}`) ?? null,
    }));
  }

  /** Our wallet ↔ game transfers (with the member's currency and game username): recorded in a period, or by reference. */
  private async ours(which: { from: Date; to: Date } | { ids: string[] }): Promise<Ours[]> {
    if ('ids' in which && which.ids.length === 0) return [];
    let query = this.db
      .selectFrom('operation_view as operations')
      .innerJoin('member_view as members', 'members.id', 'operations.member_id')
      .leftJoin('member_games', (join) =>
        join.onRef('member_games.member_id', '=', 'operations.member_id').on(sql<boolean>`member_games.game_code = CASE WHEN operations.source = ${WALLET_CODE} THEN operations.target ELSE operations.source END`),
      )
      .select(['operations.id', 'operations.member_id', 'operations.status', 'operations.source', 'operations.target', 'operations.amount', 'operations.created_at', 'members.currency', 'member_games.username'])
      .where('operations.type', '=', 'transfer');
    query = 'ids' in which ? query.where('operations.id', 'in', which.ids) : query.where('operations.created_at', '>=', which.from).where('operations.created_at', '<', which.to);
    const rows = await query.execute();
    return rows.map((r) => ({ ...r, amount: Number(r.amount) }));
  }
}
