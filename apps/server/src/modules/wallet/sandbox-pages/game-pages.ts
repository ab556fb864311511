import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toBaht } from '@mw/contract/money';
import { ART_FILES, gameArt } from '../../../providers/games/art';
import { CATALOGUE } from '../../../providers/games/catalogue';
import type { SandboxGameHouse } from '../../../providers/games/sandbox-games';

const here = dirname(fileURLToPath(import.meta.url));
/** The demo game's script and style, read from the source tree (beside this file, or from dist/). */
function asset(name: string): string {
  // The sandbox service's copy (apps/sandbox/src/systems/games-assets), from the sources or from dist/.
  for (const dir of [join(here, '../../../../../sandbox/src/systems/games-assets'), join(here, '../../sandbox/src/systems/games-assets')]) {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      // try the next place
    }
  }
  throw new Error(`sandbox asset ${name} not found`);
}

/** Payout table of the demo slot, in tenths of the bet: expected return 95.5 %. */
const PAYOUTS: Array<[weight: number, tenths: number]> = [
  [65, 0],
  [17, 15],
  [10, 20],
  [6, 50],
  [2, 100],
];

function draw(): number {
  let roll = randomInt(0, 100);
  for (const [weight, tenths] of PAYOUTS) {
    if (roll < weight) return tenths;
    roll -= weight;
  }
  return 0;
}

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo game's words in the member's language (`lang` on the launch link; English otherwise). */
const DEMO_TEXTS = {
  en: { game: 'Sandbox demo game', balance: 'Balance', bet: 'Bet', spin: 'SPIN', back: 'Back to wallet', win: 'WIN', noWin: 'No win', notEnough: 'Not enough balance', tag: 'en' },
  th: { game: 'เกมทดลอง (แซนด์บ็อกซ์)', balance: 'ยอดเงิน', bet: 'เดิมพัน', spin: 'หมุน', back: 'กลับไปที่กระเป๋าเงิน', win: 'ชนะ', noWin: 'ไม่ได้รางวัล', notEnough: 'ยอดเงินไม่พอ', tag: 'th' },
  la: { game: 'ເກມທົດລອງ (ແຊນບັອກ)', balance: 'ຍອດເງິນ', bet: 'ເດີມພັນ', spin: 'ໝຸນ', back: 'ກັບໄປກະເປົາເງິນ', win: 'ຊະນະ', noWin: 'ບໍ່ໄດ້ລາງວັນ', notEnough: 'ຍອດເງິນບໍ່ພໍ', tag: 'lo' },
} as const;

function page(title: string, body: string, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><link rel="stylesheet" href="/sandbox/games/demo.css"></head><body>${body}
<script src="/sandbox/games/demo.js" defer></script></body></html>`;
}

/**
 * The sandbox providers' own web side: game logos and backgrounds, a lobby with a login form
 * (providers without auto-login), the form-state login target, and a small playable slot whose
 * spins change the balance on the provider's side only.
 */
export function registerGamePages(untyped: FastifyInstance, house: SandboxGameHouse): void {
  // The request's parts typed by the routes' zod schemas (which have parsed them).
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  const codeParams = z.object({ code: z.enum(CATALOGUE.map((g) => g.code) as [string, ...string[]]) });
  const entry = (code: string) => CATALOGUE.find((g) => g.code === code);

  // The hand-drawn art of each provider (providers/games/art/<CODE>.<file>), read once.
  app.get('/media/games/:code/:file', { schema: { params: z.object({ code: z.string().max(16), file: z.enum(ART_FILES) }) } }, async (request, reply) => {
    const { code, file } = request.params;
    const game = entry(code);
    if (!game) return reply.status(404).send({ message: 'NOT_FOUND' });
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(gameArt(game.code, file));
  });

  app.get('/sandbox/games/demo.js', async (_request, reply) => reply.type('text/javascript').header('cache-control', 'no-cache').send(asset('demo.js')));
  app.get('/sandbox/games/demo.css', async (_request, reply) => reply.type('text/css').header('cache-control', 'no-cache').send(asset('demo.css')));

  app.get('/sandbox/games/:code/lobby', { schema: { params: codeParams } }, async (request, reply) => {
    const { code } = request.params;
    const name = entry(code)?.name ?? code;
    return reply.type('text/html').send(
      page(
        `${name} — sandbox`,
        `<main class="lobby"><h1>${escape(name)}</h1><p class="sandbox">Sandbox provider</p>
<form method="post" action="/sandbox/games/${code}/login"><label>Username<input name="username" autocomplete="username" required></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required></label><button type="submit">Log in</button></form></main>`,
      ),
    );
  });

  app.post('/sandbox/games/:code/login', { schema: { params: codeParams } }, async (request, reply) => {
    const { code } = request.params;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (!(await house.checkLogin(code, username, password))) {
      return reply.status(401).type('text/html').send(page('Login failed', `<main class="lobby"><h1>Login failed</h1><p><a href="/sandbox/games/${code}/lobby">Try again</a></p></main>`));
    }
    const token = await house.createSession(code, username);
    return reply.redirect(`/sandbox/games/${code}/play?t=${token}`, 303);
  });

  const playQuery = z.object({ t: z.string().max(100), lang: z.enum(['en', 'th', 'la']).optional().catch(undefined) });
  app.get('/sandbox/games/:code/play', { schema: { params: codeParams, querystring: playQuery } }, async (request, reply) => {
    const { code } = request.params;
    const { t, lang } = request.query;
    const words = DEMO_TEXTS[lang ?? 'en'];
    const session = await house.session(t);
    if (!session || session.gameCode !== code) return reply.status(401).type('text/html').send(page('Session ended', '<main class="lobby"><h1>Session ended</h1></main>'));
    const name = entry(code)?.name ?? code;
    return reply.type('text/html').send(
      page(
        `${name} — demo`,
        `<main class="game" data-base="/sandbox/games/api" data-token="${escape(t)}" data-win="${escape(words.win)}" data-no-win="${escape(words.noWin)}" data-not-enough="${escape(words.notEnough)}"><header><h1>${escape(name)}</h1><span class="sandbox">${escape(words.game)}</span></header>
<p class="player">${escape(session.username)}</p><p class="balance">${escape(words.balance)} <strong data-testid="game-balance">…</strong> ฿</p>
<div class="reels" aria-live="polite"><span>🍒</span><span>🔔</span><span>⭐</span></div>
<p class="result" data-testid="game-result">&nbsp;</p>
<div class="bets">${[10, 50, 100].map((bet) => `<button type="button" data-bet="${bet}" data-testid="bet-${bet}">${escape(words.bet)} ${bet}</button>`).join('')}</div>
<button type="button" class="spin" data-testid="spin">${escape(words.spin)}</button><a class="back" href="/user/home" data-testid="game-back">${escape(words.back)}</a></main>`,
        words.tag,
      ),
    );
  });

  app.get('/sandbox/games/api/state', { schema: { querystring: z.object({ t: z.string().max(100) }) } }, async (request, reply) => {
    const session = await house.session(request.query.t);
    if (!session) return reply.status(401).send({ message: 'invalid-token' });
    const balance = (await house.accountBalance(session.gameCode, session.username)) ?? 0;
    return { game: session.gameCode, username: session.username, balance: toBaht(balance) };
  });

  app.post(
    '/sandbox/games/api/spin',
    { schema: { body: z.strictObject({ t: z.string().max(100), bet: z.union([z.literal(10), z.literal(50), z.literal(100)]) }) } },
    async (request, reply) => {
      const { t, bet } = request.body;
      const session = await house.session(t);
      if (!session) return reply.status(401).send({ message: 'invalid-token' });
      const tenths = draw();
      const betSatang = bet * 100;
      const balance = await house.spin(session.gameCode, session.username, betSatang, tenths / 10);
      if (balance === null) return reply.status(400).send({ message: 'MONEY_NOT_ENOUGH' });
      return { balance: toBaht(balance), multiplier: tenths / 10, win: toBaht(Math.round((betSatang * tenths) / 10)) };
    },
  );
}
