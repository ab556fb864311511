import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config';
import { defineModule } from '../../platform/module';
import { operatorGuard } from '../../platform/operator';
import { SecretBox } from '../../lib/secret-box';
import { withDeadline, type GameProvider } from '../../providers/games/game-provider';
import { SandboxGameHouse, type FaultMode } from '../../providers/games/sandbox-games';
import { sandboxGameMigrations } from '../../providers/games/sandbox-tables';
import { unconfiguredGameProvider } from '../../providers/games/unconfigured-games';
import type { SettingsService } from '../settings/settings-service';
import { autologinHandlers } from './autologin-routes';
import { GameService } from './game-service';
import { registerGamePages } from './sandbox-pages/game-pages';
import { TransferService } from './transfer-service';
import { walletHandlers } from './wallet-routes';
import { WalletService } from './wallet-service';
import './tables';

declare module '../../platform/services' {
  interface Services {
    /** Set while the sandbox game providers are selected: faults and the demo game. */
    sandboxGames: SandboxGameHouse | null;
    /** PAYMENTS=sandbox: the demo top-up (POST /api/wallet/add) exists. */
    sandboxPayments: boolean;
    games: GameService;
    transfers: TransferService;
    wallet: WalletService;
  }
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
 *   GET  /api/operator/withdrawals                       — pending withdrawals, oldest first
 *   POST /api/operator/withdrawals/:id/complete          — the bank transfer went out
 *   POST /api/operator/withdrawals/:id/reject { note }   — refused: the money returns to the wallet
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
  ],
  async setup(services) {
    const { config, database, settings, accounts, money } = services;
    const db = database.db;
    const sandboxGames = config.GAME_PROVIDER === 'sandbox' ? new SandboxGameHouse(db, config.PROVIDER_TIMEOUT_MS * 2) : null;
    if (sandboxGames) {
      await sandboxGames.refreshFaults();
      for (const entry of config.SANDBOX_GAME_FAULTS.split(',').filter(Boolean)) {
        const [code = '', mode = 'none'] = entry.split(':');
        await sandboxGames.setFault(code, { mode: mode as FaultMode, latencyMs: config.SANDBOX_GAME_LATENCY_MS });
      }
      if (config.SANDBOX_GAME_LATENCY_MS > 0) sandboxGames.setDefaultLatency(config.SANDBOX_GAME_LATENCY_MS);
      sandboxGames.startSharing();
    }
    const providers = new Map<string, GameProvider>();
    const provider = (code: string): GameProvider => {
      let found = providers.get(code);
      if (!found) {
        found = withDeadline(sandboxGames ? sandboxGames.provider(code) : unconfiguredGameProvider(code), config.PROVIDER_TIMEOUT_MS);
        providers.set(code, found);
      }
      return found;
    };
    services.sandboxGames = sandboxGames;
    services.sandboxPayments = config.PAYMENTS === 'sandbox';
    services.games = new GameService(db, provider, new SecretBox(await credentialsKey(config, settings)));
    services.transfers = new TransferService(db, services.games, money);
    services.wallet = new WalletService(db, accounts, services.games, services.transfers, settings, money, services.sandboxPayments);
  },
  async seed({ settings }) {
    await settings.setIfMissing('withdrawLimits', { withdrawMinSatang: 10_000, withdrawMaxSatang: 5_000_000 });
  },
  handlers: (services) => ({ ...walletHandlers(services), ...autologinHandlers(services) }),
  routes(app, { config, wallet, sandboxGames }) {
    const guard = operatorGuard(config);
    // Pending ones oldest first by default (as before); the back office pages, filters and sorts.
    const listQuery = z.object({
      status: z.enum(['PENDING', 'SUCCESS', 'FAILED', 'ALL']).default('PENDING'),
      q: z.string().max(64).optional(),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(500).default(500),
      sort: z.enum(['createdAt', '-createdAt', 'amount', '-amount']).default('createdAt'),
    });
    app.get('/api/operator/withdrawals', { preHandler: guard, schema: { querystring: listQuery } }, async (request) => {
      const { status, ...rest } = request.query as z.output<typeof listQuery>;
      return wallet.withdrawals({ ...rest, status: status === 'ALL' ? undefined : status });
    });
    const idParams = z.object({ id: z.string().max(64) });
    app.post('/api/operator/withdrawals/:id/complete', { preHandler: guard, schema: { params: idParams } }, async (request) => {
      const op = await wallet.completeWithdrawal((request.params as { id: string }).id);
      return { id: op.id, status: op.status };
    });
    app.post(
      '/api/operator/withdrawals/:id/reject',
      { preHandler: guard, schema: { params: idParams, body: z.strictObject({ note: z.string().min(1).max(200) }) } },
      async (request) => {
        const op = await wallet.rejectWithdrawal((request.params as { id: string }).id, (request.body as { note: string }).note);
        return { id: op.id, status: op.status };
      },
    );
    if (sandboxGames) {
      registerGamePages(app, sandboxGames);
      app.put(
        '/api/operator/sandbox/games/:code/fault',
        {
          preHandler: guard,
          schema: {
            params: z.object({ code: z.string().max(16) }),
            body: z.strictObject({ mode: z.enum(['none', 'down', 'timeout', 'error-after-take']), latencyMs: z.number().int().min(0).max(60_000).default(0) }),
          },
        },
        async (request) => {
          const { code } = request.params as { code: string };
          const fault = request.body as { mode: FaultMode; latencyMs: number };
          await sandboxGames.setFault(code, fault);
          return { code, ...fault };
        },
      );
      app.post(
        '/api/operator/sandbox/games/:code/rounds',
        {
          preHandler: guard,
          schema: {
            params: z.object({ code: z.string().max(16) }),
            body: z.strictObject({
              username: z.string().min(1).max(64),
              stake: z.number().int().min(1).max(100_000_000),
              multiplier: z.number().min(0).max(1000),
              rounds: z.number().int().min(1).max(100).default(1),
              /** When the rounds settled: now by default, or up to 60 days back (a losing week for a refund). */
              at: z.iso.datetime({ offset: true }).optional(),
            }),
          },
        },
        async (request, reply) => {
          const { code } = request.params as { code: string };
          const { username, stake, multiplier, rounds, at } = request.body as { username: string; stake: number; multiplier: number; rounds: number; at?: string };
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
        },
      );
    }
  },
  // Transfers left pending (a crash, a provider that did not answer) are settled at start-up and
  // then periodically by asking their provider.
  start({ config, transfers }, log) {
    if (config.RECONCILE_INTERVAL_MS <= 0) return;
    const reconcile = () => transfers.reconcile(config.RECONCILE_GRACE_MS).catch((error: unknown) => log.error({ err: error }, 'reconcile failed'));
    void reconcile();
    const timer = setInterval(() => void reconcile(), config.RECONCILE_INTERVAL_MS);
    timer.unref();
    return () => clearInterval(timer);
  },
  close({ sandboxGames }) {
    sandboxGames?.stopSharing();
  },
});
