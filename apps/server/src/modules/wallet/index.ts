import { DEFAULT_WITHDRAW_LIMITS } from '../../lib/withdraw-limits';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, type Config } from '../../config';
import { defineModule } from '../../platform/module';
import { payoutOperatorCalls } from '@mw/contract/operator/payout';
import { depositOperatorCalls } from '@mw/contract/operator/deposit';
import { MIN_TRANSFER } from '@mw/contract/currency-figures';
import { contractRoute } from '../../http/contract-route';
import { operatorGuard } from '../../platform/operator';
import { moduleConfig } from '../../platform/module-config';
import { badRequest } from '../../lib/errors';
import { SecretBox } from '../../lib/secret-box';
import { payoutWithDeadline, type PayoutProvider } from '../../providers/bank/payout';
import { SandboxPayouts } from '../../providers/bank/sandbox-payouts';
import { HttpPayouts } from '../../providers/bank/http-payouts';
import { dropSandboxPayoutMigrations, sandboxPayoutMigrations } from '../../providers/bank/sandbox-tables';
import { sandboxUrlOf } from '../../platform/sandbox-process';
import { withDeadline, type GameProvider } from '../../providers/games/game-provider';
import { SandboxGames, type FaultMode } from '../../providers/games/sandbox-games';
import { sandboxGameMigrations } from '../../providers/games/sandbox-tables';
import { unconfiguredGameProvider } from '../../providers/games/unconfigured-games';
import { httpGameProvider } from '../../providers/games/http-games';
import type { SettingsService } from '../settings/settings-service';
import { autologinHandlers } from './autologin-routes';
import { GameService } from './game-service';
import { registerGameArt } from './game-art';
import { GameReconciliation } from './game-reconciliation';
import { PayoutReconciliation } from './payout-reconciliation';
import { payoutRoutes } from './payout-routes';
import { PayoutService } from './payout-service';
import { TransferService } from './transfer-service';
import { walletHandlers } from './wallet-routes';
import { WalletService } from './wallet-service';
import './tables';
import type { WalletDb } from './tables';
import { moduleDb, type Database } from '../../db/database';

declare module '../../platform/services' {
  interface Services {
    /** Set while the sandbox game providers are selected (the sandbox service's games): faults, rounds, players. */
    sandboxGames: SandboxGames | null;
    /** SANDBOX_GAME_FAULTS / SANDBOX_GAME_LATENCY_MS not set yet (the sandbox did not answer at setup): the module's start retries. */
    sandboxStartFaultsPending: boolean;
    /** PAYMENTS=sandbox: the demo top-up (POST /api/wallet/add) exists. */
    sandboxPayments: boolean;
    games: GameService;
    transfers: TransferService;
    wallet: WalletService;
    /** Withdrawals paid out through the bank (or by hand) and their reconciliation. */
    payouts: PayoutService;
    payoutReconciliation: PayoutReconciliation;
    gameReconciliation: GameReconciliation;
    /** Set while PAYOUT_PROVIDER=sandbox: the sandbox bank's payout API (faults, forged payouts). */
    sandboxPayouts: SandboxPayouts | null;
    payoutSettle: { intervalMs: number; graceMs: number };
  }
}

const payoutEnv = z.object({
  NODE_ENV: z.string().optional(),
  /**
   * How withdrawals are paid: `sandbox` (the sandbox service's payout API, SANDBOX_BANK_SECRET),
   * `http` (a bank's payout API at PAYOUT_API_URL signed with PAYOUT_API_SECRET) or `manual` (no
   * payout API: operators pay by hand and complete them). Default: sandbox, except with NODE_ENV=production.
   */
  PAYOUT_PROVIDER: z.enum(['sandbox', 'http', 'manual']).optional(),
  /** PAYOUT_PROVIDER=http: the bank's payout API (docs/sandbox.md, "Bank") and the secret of its signed calls. */
  PAYOUT_API_URL: z.string().regex(/^https?:\/\//, 'must be an http(s):// URL').optional(),
  PAYOUT_API_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  /** How often payouts left processing (no answer, accepted, bank down) are asked of the bank (0: never), and how old they must be. */
  PAYOUT_SETTLE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  PAYOUT_SETTLE_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** The smallest transfer between the wallet and a game: in baht for baht members (default 1), in kip for kip members (default 1,000). */
  TRANSFER_MIN_BAHT: z.coerce.number().min(0.01).max(100_000).default(MIN_TRANSFER.BAHT),
  TRANSFER_MIN_LAK: z.coerce.number().int().min(1).max(10_000_000).default(MIN_TRANSFER.LAK),
});

/** The payout adapter the configuration names (null: manual), with the provider deadline. */
export function payoutProviderFor(config: Config): { provider: PayoutProvider | null; sandbox: SandboxPayouts | null } {
  const env = moduleConfig(config, payoutEnv);
  const chosen = env.PAYOUT_PROVIDER ?? (config.NODE_ENV === 'production' ? 'manual' : 'sandbox');
  if (chosen === 'manual') return { provider: null, sandbox: null };
  if (chosen === 'http') {
    const missing = [env.PAYOUT_API_URL ? null : "PAYOUT_API_URL (the payout API's base URL)", env.PAYOUT_API_SECRET ? null : 'PAYOUT_API_SECRET (the secret of its signed calls)'].filter((m) => m !== null);
    if (!env.PAYOUT_API_URL || !env.PAYOUT_API_SECRET) throw new ConfigError(`Invalid configuration:\n${missing.map((m) => `  ${m}: must be set when PAYOUT_PROVIDER=http`).join('\n')}`);
    return { provider: payoutWithDeadline(new HttpPayouts({ url: env.PAYOUT_API_URL, secret: env.PAYOUT_API_SECRET, timeoutMs: config.PROVIDER_TIMEOUT_MS }), config.PROVIDER_TIMEOUT_MS), sandbox: null };
  }
  const url = sandboxUrlOf(config);
  if (!url) throw new ConfigError("Invalid configuration:\n  SANDBOX_URL: must not be off when PAYOUT_PROVIDER=sandbox (its payout API is the sandbox service's; name PAYOUT_PROVIDER=http or manual instead)");
  const sandbox = new SandboxPayouts({ url, secret: config.SANDBOX_BANK_SECRET, timeoutMs: config.PROVIDER_TIMEOUT_MS, name: 'sandbox' });
  return { provider: payoutWithDeadline(sandbox, config.PROVIDER_TIMEOUT_MS), sandbox };
}

/** The payouts' reconciliation over a database without a running server (npm run reconcile). */
export function payoutReconciliationFor(database: Pick<Database, 'db'>, config: Config): PayoutReconciliation {
  return new PayoutReconciliation(moduleDb<WalletDb>(database), payoutProviderFor(config).provider);
}

/** The key of stored game passwords: configured, or generated once and kept in the database. */
async function credentialsKey(config: Config, settings: SettingsService): Promise<Buffer> {
  if (config.CREDENTIALS_KEY) return Buffer.from(config.CREDENTIALS_KEY, 'base64');
  await settings.setIfMissing('credentialsKey', randomBytes(32).toString('base64'));
  return Buffer.from(await settings.get<string>('credentialsKey', ''), 'base64');
}

/**
 * The wallet and the game accounts: balance, top-up (sandbox), transfers to and from games,
 * withdrawals, game accounts and their auto-login links, the sandbox of the 16 game providers
 * with its demo game pages, and the reconciler of transfers left pending. Operator calls:
 *   GET  /api/operator/withdrawals                       — withdrawals not ended, oldest first (payout: pending | processing)
 *   GET  /api/operator/withdrawals/:id                   — one withdrawal's payout
 *   POST /api/operator/withdrawals/:id/approve           — pay it through the payout provider, once (see PayoutService)
 *   POST /api/operator/withdrawals/:id/complete          — paid by hand (PAYOUT_PROVIDER=manual; otherwise the owner's override)
 *   POST /api/operator/withdrawals/:id/reject { note }   — refused: the money returns to the wallet
 *   PUT  /api/operator/sandbox/bank/payout-fault { mode, failure? } — sandbox payout API failure injection
 *   PUT  /api/operator/sandbox/games/:code/fault { mode, latencyMs } — sandbox game failure injection
 *   POST /api/operator/sandbox/games/:code/rounds { username, stake, multiplier, rounds } — sandbox
 *        play with a chosen outcome (demos and tests: a losing week, a turnover met); each round is
 *        a real round of the sandbox game (its balance moves, the round feed records it)
 */
export const walletModule = defineModule({
  name: 'wallet',
  migrations: [
    {
      id: 'wallet/001_games',
      appliedWith: '005_money_core',
      sql: `
CREATE TABLE games (
  code text PRIMARY KEY,
  name text NOT NULL,
  logo text NOT NULL,
  background text NOT NULL,
  category text NOT NULL CHECK (category IN ('slot', 'sport', 'lotto')),
  ft_wallet_slot numeric(10, 4) NOT NULL DEFAULT 1,
  web text,
  android text,
  ios text,
  sort integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true
);
CREATE TABLE member_games (
  member_id text NOT NULL REFERENCES members(id),
  game_code text NOT NULL REFERENCES games(code),
  username text NOT NULL,
  password_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, game_code),
  CONSTRAINT member_games_username UNIQUE (game_code, username)
);`,
    },
    ...sandboxGameMigrations,
    ...sandboxPayoutMigrations,
    {
      id: 'wallet/003_withdrawal_payouts',
      sql: `
-- How each withdrawal ends: paid through the bank, paid by hand, or refused; claimed once (the key).
CREATE TABLE withdrawal_payouts (
  withdrawal_id text PRIMARY KEY REFERENCES operations(id),
  member_id text NOT NULL,
  method text NOT NULL CHECK (method IN ('bank', 'manual', 'reject')),
  state text NOT NULL CHECK (state IN ('processing', 'paid', 'returned')),
  provider text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  bank_code text NOT NULL,
  account_no text NOT NULL,
  account_name text NOT NULL,
  failure text,
  reason text,
  bank_ref text,
  bank_status text,
  attempts integer NOT NULL DEFAULT 0,
  by_operator text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz
);
CREATE INDEX withdrawal_payouts_processing ON withdrawal_payouts (updated_at) WHERE state = 'processing';`,
    },
    ...dropSandboxPayoutMigrations,
  ],
  async setup(services) {
    const { config, database, settings, accounts, money } = services;
    const db = moduleDb<WalletDb>(database);
    const sandboxGames = config.GAME_PROVIDER === 'sandbox' ? sandboxGamesOf(config) : null;
    // The start's faults: now if the sandbox answers; otherwise the module's start retries (below).
    const startFaults = sandboxGames ? await applyStartFaults(sandboxGames, config) : true;
    const providers = new Map<string, GameProvider>();
    const provider = (code: string): GameProvider => {
      let found = providers.get(code);
      if (!found) {
        const chosen =
          config.GAME_PROVIDER === 'http' && config.GAME_API_URL && config.GAME_API_SECRET
            ? httpGameProvider(code, { url: config.GAME_API_URL, secret: config.GAME_API_SECRET, timeoutMs: config.PROVIDER_TIMEOUT_MS })
            : sandboxGames
              ? sandboxGames.provider(code)
              : unconfiguredGameProvider(code);
        found = withDeadline(chosen, config.PROVIDER_TIMEOUT_MS);
        providers.set(code, found);
      }
      return found;
    };
    services.sandboxGames = sandboxGames;
    services.sandboxStartFaultsPending = !startFaults;
    services.sandboxPayments = config.PAYMENTS === 'sandbox';
    const payoutEnvOf = moduleConfig(config, payoutEnv);
    services.games = new GameService(db, provider, new SecretBox(await credentialsKey(config, settings)), money);
    services.transfers = new TransferService(db, services.games, money, {
      THB: Math.round(payoutEnvOf.TRANSFER_MIN_BAHT * 100),
      LAK: payoutEnvOf.TRANSFER_MIN_LAK * 100,
    });
    services.wallet = new WalletService(db, accounts, services.games, services.transfers, settings, money, services.sandboxPayments);
    const payout = payoutProviderFor(config);
    const payouts = new PayoutService(db, accounts, services.approvals, payout.provider, money);
    services.payouts = payouts;
    services.sandboxPayouts = payout.sandbox;
    services.payoutReconciliation = new PayoutReconciliation(db, payout.provider);
    const games = services.games;
    services.gameReconciliation = new GameReconciliation(
      db,
      {
        // Every game of the catalogue, active or not, whose provider has a report call (the
        // reconciliation adds the games our transfers went to: one that cannot report is named).
        codes: async () => (await db.selectFrom('games').select('code').execute()).map((g) => g.code).filter((code) => games.provider(code).report !== undefined),
        report: async (code, from, to) => {
          try {
            // A seamless game's transactions are its aggregator's (its report of what it was answered OK for).
            if (games.isSeamless(code)) return await games.seamlessReport(code, from, to);
            return (await games.provider(code).report?.(from, to)) ?? null;
          } catch {
            return null;
          }
        },
      },
      config.LAOS_MODE ? 'Asia/Vientiane' : 'Asia/Bangkok',
      services.money.seamless,
    );
    services.payoutSettle = { intervalMs: payoutEnvOf.PAYOUT_SETTLE_INTERVAL_MS, graceMs: payoutEnvOf.PAYOUT_SETTLE_GRACE_MS };
    // Four eyes: the second operator's approval runs the first one's call, skipping the threshold.
    const withdrawalOf = (payload: unknown) => z.object({ withdrawalId: z.string() }).parse(payload).withdrawalId;
    services.approvals.register('withdrawal.approve', (payload, checker) => payouts.approve(withdrawalOf(payload), checker, true));
    services.approvals.register('withdrawal.complete', (payload, checker) => payouts.complete(withdrawalOf(payload), checker, true));
  },
  async seed({ settings }) {
    await settings.setIfMissing('withdrawLimits', DEFAULT_WITHDRAW_LIMITS);
  },
  handlers: (services) => ({ ...walletHandlers(services), ...autologinHandlers(services) }),
  routes(app, services) {
    const { config, wallet, sandboxGames, payouts, sandboxPayouts, gameReconciliation } = services;
    const guard = operatorGuard(config);
    payoutRoutes(app, guard, { wallet, payouts, sandboxPayouts });
    // Transfers to and from the game providers against their own reports, for [from, to) (default: the 24 hours before `to`, `to` now).
    contractRoute(app, depositOperatorCalls.reconciliationGames, { preHandler: guard }, async ({ query }) => {
      const to = query.to ? new Date(query.to) : new Date();
      const from = query.from ? new Date(query.from) : new Date(to.getTime() - 86_400_000);
      // At most 92 days: each provider lists the whole period in one answer.
      if (!(from.getTime() < to.getTime()) || to.getTime() - from.getTime() > 92 * 86_400_000) throw badRequest('KEY_INVALID', { fields: [{ path: 'from', code: 'invalid' }] });
      return gameReconciliation.run({ from, to });
    });
    registerGameArt(app);
    if (sandboxGames) {
      contractRoute(app, payoutOperatorCalls.sandboxGameFault, { preHandler: guard }, async ({ params: { code }, body: fault }) => {
        await sandboxGames.setFault(code, fault);
        // An operator's faults stand: the start's own (if still waiting for the sandbox) are dropped.
        services.sandboxStartFaultsPending = false;
        return { code, ...fault };
      });
      contractRoute(app, payoutOperatorCalls.sandboxGameRounds, { preHandler: guard }, async ({ params: { code }, body: { username, stake, multiplier, rounds, at }, reply }) => {
        const settledAt = at ? new Date(at) : undefined;
        if (settledAt && (settledAt.getTime() > Date.now() || settledAt.getTime() < Date.now() - 60 * 86_400_000)) return reply.status(400).send({ message: 'KEY_INVALID' });
        let balance: number | null = null;
        let played = 0;
        for (; played < rounds; played += 1) {
          const after = await sandboxGames.spin(code, username, stake, multiplier, settledAt);
          if (after === null) break;
          balance = after;
        }
        if (played === 0) return reply.status(409).send({ message: 'MONEY_NOT_ENOUGH' });
        return { code, username, played, balance };
      });
    }
  },
  // Transfers left pending (a crash, a provider that did not answer) are settled at start-up and
  // then periodically by asking their provider.
  // Payouts left processing (no answer, accepted, the bank down, a crash) are settled by asking the bank.
  start(services, log) {
    const { config, transfers, payouts, payoutSettle, sandboxGames } = services;
    const timers: NodeJS.Timeout[] = [];
    payouts.setLog(log);
    let faultsRetry: NodeJS.Timeout | null = null;
    if (sandboxGames && services.sandboxStartFaultsPending) {
      // SANDBOX_GAME_FAULTS / SANDBOX_GAME_LATENCY_MS, once the sandbox answers (it may start after
      // this process): every half second for a minute, one attempt at a time, unless an operator
      // set faults meanwhile.
      const until = Date.now() + 60_000;
      const attempt = async (): Promise<void> => {
        if (!services.sandboxStartFaultsPending) return;
        if (await applyStartFaults(sandboxGames, config)) {
          services.sandboxStartFaultsPending = false;
          log.info('sandbox game faults set');
        } else if (Date.now() > until) {
          log.warn('sandbox game faults not set: the sandbox did not answer within a minute');
        } else {
          faultsRetry = setTimeout(() => void attempt(), 500);
          faultsRetry.unref();
        }
      };
      faultsRetry = setTimeout(() => void attempt(), 500);
      faultsRetry.unref();
    }
    if (config.RECONCILE_INTERVAL_MS > 0) {
      const reconcile = () => transfers.reconcile(config.RECONCILE_GRACE_MS).catch((error: unknown) => log.error({ err: error }, 'reconcile failed'));
      void reconcile();
      timers.push(setInterval(() => void reconcile(), config.RECONCILE_INTERVAL_MS));
    }
    if (payoutSettle.intervalMs > 0) {
      const settle = () => payouts.settle(payoutSettle.graceMs).catch((error: unknown) => log.error({ err: error }, 'payout settle failed'));
      void settle();
      timers.push(setInterval(() => void settle(), payoutSettle.intervalMs));
    }
    for (const timer of timers) timer.unref();
    return () => {
      timers.forEach((timer) => clearInterval(timer));
      // An attempt in flight schedules no other.
      services.sandboxStartFaultsPending = false;
      if (faultsRetry) clearTimeout(faultsRetry);
    };
  },
});

/** The sandbox service's games (SANDBOX_URL, or the one on SANDBOX_PORT); null with SANDBOX_URL=off. */
function sandboxGamesOf(config: Config): SandboxGames | null {
  if (config.SANDBOX_URL === 'off') return null;
  const url = config.SANDBOX_URL ?? `http://127.0.0.1:${config.SANDBOX_PORT}`;
  return new SandboxGames({ url, secret: config.SANDBOX_GAME_SECRET, timeoutMs: config.PROVIDER_TIMEOUT_MS, returnUrl: `http://localhost:${config.PORT}/user/home` });
}

/** SANDBOX_GAME_FAULTS and SANDBOX_GAME_LATENCY_MS set on the sandbox: true when set (or none asked), false when the sandbox did not answer. */
export async function applyStartFaults(games: SandboxGames, config: Pick<Config, 'SANDBOX_GAME_LATENCY_MS' | 'SANDBOX_GAME_FAULTS'>): Promise<boolean> {
  try {
    if (config.SANDBOX_GAME_LATENCY_MS > 0) await games.setFault('*', { mode: 'none', latencyMs: config.SANDBOX_GAME_LATENCY_MS });
    for (const entry of config.SANDBOX_GAME_FAULTS.split(',').filter(Boolean)) {
      const [code = '', mode = 'none'] = entry.split(':');
      await games.setFault(code, { mode: mode as FaultMode, latencyMs: config.SANDBOX_GAME_LATENCY_MS });
    }
    return true;
  } catch {
    return false;
  }
}
