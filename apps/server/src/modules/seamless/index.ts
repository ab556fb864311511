import { z } from 'zod';
import { seamlessCalls, seamlessRequestSchema, type SeamlessAnswer } from '@mw/contract/operator/seamless';
import { contractRoute } from '../../http/contract-route';
import { ledgerCurrency } from '../../money';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { verifyWebhook } from '../../providers/payments/signing';
import { listeningBase, sandboxUrlOf } from '../../platform/sandbox-process';
import type { ProviderTransfer } from '../../providers/games/game-provider';
import { signedPost } from '../../providers/signed-post';

/** The demo's seamless aggregator (not in production): its game code and secret, as the README gives them. */
export const DEMO_SEAMLESS = { code: 'CIRCUS', secret: 'circus-seamless-demo-secret' } as const;

const seamlessEnv = z.object({
  /**
   * Which games are seamless and their shared secrets: `CODE:secret,CODE2:secret2` (secrets of 16
   * characters or more). Unset outside production: the demo's one, CIRCUS; in production: none.
   */
  SEAMLESS_SECRETS: z.string().max(4000).optional(),
  /**
   * The aggregator's report API (its transactions, for the game reconciliation): `POST
   * {SEAMLESS_REPORT_URL}/{code}/report`, signed with the game's secret. Unset outside production:
   * the sandbox service's aggregator; in production unset: the seamless games are named unreachable there.
   */
  SEAMLESS_REPORT_URL: z.string().regex(/^https?:\/\//, 'must be an http(s):// URL').optional(),
});

/** The aggregator's report of one seamless game over HTTP (docs/seamless-wallet.md): its transactions answered OK, in the transfer report's shape; null when it does not answer or answers what we cannot read. */
export function seamlessReport(base: string, secrets: ReadonlyMap<string, string>): (code: string, from: Date, to: Date) => Promise<ProviderTransfer[] | null> {
  return async (code, from, to) => {
    const secret = secrets.get(code);
    if (!secret) return null;
    try {
      const answer = await signedPost(`${base.replace(/\/+$/, '')}/${code}/report`, secret, { from: from.toISOString(), to: to.toISOString() }, AbortSignal.timeout(30_000));
      const list = answer.body.transfers;
      if (answer.httpStatus !== 200 || !Array.isArray(list)) return null;
      const transfers: ProviderTransfer[] = [];
      for (const t of list as Array<Record<string, unknown>>) {
        const at = new Date(String(t.at));
        if (typeof t.requestId !== 'string' || typeof t.username !== 'string' || (t.direction !== 'in' && t.direction !== 'out') || !Number.isSafeInteger(t.amount) || !Number.isFinite(at.getTime())) return null;
        transfers.push({ reference: t.requestId, username: t.username, direction: t.direction, amount: t.amount as number, at });
      }
      return transfers;
    } catch {
      return null;
    }
  };
}

/** `CODE:secret,…` as a map; a malformed entry stops the start (naming it, never the secret). */
export function parseSeamlessSecrets(text: string): Map<string, string> {
  const secrets = new Map<string, string>();
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const at = entry.indexOf(':');
    const code = at > 0 ? entry.slice(0, at).trim().toUpperCase() : '';
    const secret = at > 0 ? entry.slice(at + 1).trim() : '';
    if (!/^[A-Z0-9_]{1,16}$/.test(code) || secret.length < 16) throw new Error(`SEAMLESS_SECRETS: "${code || entry.slice(0, 16)}" needs CODE:secret with a secret of at least 16 characters`);
    secrets.set(code, secret);
  }
  return secrets;
}

/**
 * The seamless-wallet API (issue 36), for aggregators whose games call us (docs/seamless-wallet.md):
 *   POST /api/seamless/{code}/{balance|bet|win|rollback}
 * Every call is checked at the edge: the provider must be seamless (404 PROVIDER_NOT_FOUND), the
 * signature over the raw bytes and the timestamp within 300 s (401 INVALID_SIGNATURE), the body its
 * shape (400 INVALID_REQUEST), the player one of ours at that game (PLAYER_NOT_FOUND) in that
 * currency (400 CURRENCY_MISMATCH). The money core applies each transaction once (money/seamless.ts);
 * rounds are recorded as the activity module counts imported ones (turnover, refunds, invites).
 */
export const seamlessModule = defineModule({
  name: 'seamless',
  setup(services) {
    const env = moduleConfig(services.config, seamlessEnv);
    const configured = env.SEAMLESS_SECRETS ?? (services.config.NODE_ENV === 'production' ? '' : `${DEMO_SEAMLESS.code}:${DEMO_SEAMLESS.secret}`);
    // The member's screens show these games without a balance of their own, and transfers to them are refused;
    // the game reconciliation asks their aggregator's report.
    const secrets = parseSeamlessSecrets(configured);
    const sandboxUrl = sandboxUrlOf(services.config);
    const reportUrl = env.SEAMLESS_REPORT_URL ?? (services.config.NODE_ENV !== 'production' && sandboxUrl ? `${sandboxUrl}/aggregator` : null);
    services.games.markSeamless(secrets.keys(), reportUrl ? seamlessReport(reportUrl, secrets) : null);
  },
  async routes(root, services) {
    const env = moduleConfig(services.config, seamlessEnv);
    const configured = env.SEAMLESS_SECRETS ?? (services.config.NODE_ENV === 'production' ? '' : `${DEMO_SEAMLESS.code}:${DEMO_SEAMLESS.secret}`);
    const secrets = parseSeamlessSecrets(configured);
    const { money, games, memberDirectory, activity } = services;
    // Outside production the sandbox service's aggregator plays the seamless games: as an aggregator's
    // back office is told, it learns where our seamless API listens and the games' secrets.
    const sandboxUrl = sandboxUrlOf(services.config);
    if (sandboxUrl && services.config.NODE_ENV !== 'production' && secrets.size > 0) {
      root.addHook('onListen', async () => {
        const base = listeningBase(root.server);
        if (!base) return;
        const res = await fetch(`${sandboxUrl}/control/aggregator/merchant`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${base}/api/seamless`, secrets: Object.fromEntries(secrets) }),
          signal: AbortSignal.timeout(5_000),
        }).catch(() => null);
        if (res?.status !== 200) root.log.warn('the sandbox aggregator did not take our seamless API address (its games cannot call us)');
      });
    }

    // The signature is over the bytes as they came: this scope keeps JSON bodies as text (64 KB at most).
    await root.register(async (app) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      done(null, typeof body === 'string' ? body : body.toString('utf8'));
    });
    contractRoute(app, seamlessCalls.seamlessWallet, async ({ params: { code, action }, raw, request, reply }) => {
      const secret = secrets.get(code);
      if (!secret) return reply.status(404).send({ status: 'PROVIDER_NOT_FOUND' });
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const check = verifyWebhook(secret, { timestamp: header('x-timestamp'), signature: header('x-signature') }, raw);
      if (!check.ok) return reply.status(401).send({ status: 'INVALID_SIGNATURE' });
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return reply.status(400).send({ status: 'INVALID_REQUEST' });
      }
      const parsed = seamlessRequestSchema.safeParse(json);
      const body = parsed.success ? parsed.data : null;
      const needs = action === 'balance' ? [] : action === 'rollback' ? ['transactionId', 'referenceTransactionId'] : ['transactionId', 'amount'];
      if (!body || needs.some((field) => body[field as keyof typeof body] === undefined)) return reply.status(400).send({ status: 'INVALID_REQUEST' });

      const memberId = await games.memberByUsername(code, body.playerId);
      const member = memberId ? await memberDirectory.get(memberId).catch(() => null) : null;
      if (!memberId || !member) return { status: 'PLAYER_NOT_FOUND', balance: 0, currency: body.currency, transactionId: body.transactionId ?? null } satisfies SeamlessAnswer;
      const currency = ledgerCurrency(member.currency);
      if (currency !== body.currency) return reply.status(400).send({ status: 'CURRENCY_MISMATCH' });
      if (action === 'balance') return { status: 'OK', balance: await money.seamless.balance(memberId), currency, transactionId: null } satisfies SeamlessAnswer;

      const category = (await games.game(code).catch(() => null))?.category ?? 'slot';
      return money.seamless.apply(
        {
          provider: code,
          action,
          memberId,
          currency,
          transactionId: body.transactionId ?? '',
          amount: body.amount ?? 0,
          roundId: body.roundId ?? null,
          referenceTransactionId: body.referenceTransactionId ?? null,
        },
        (trx, change) => activity.recordSeamless(trx, { provider: code, roundId: change.roundId, memberId, category, stake: change.stake, win: change.win, at: new Date() }),
      );
    });
    });
  },
});
