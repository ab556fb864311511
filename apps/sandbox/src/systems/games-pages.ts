/**
 * The sandbox providers' web side, as a member's browser sees it: a lobby with a login form
 * (providers without auto-login), the form-state login target, and a small playable slot whose
 * spins change the balance on the provider's side only (each spin is a round of the feed) — or,
 * for a game the sandbox aggregator plays (seamless), are rounds the aggregator plays against the
 * operator's wallet (the balance shown is the operator's answer).
 * Unsigned, as a provider's pages are; a session token from the launch call opens the slot.
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { json, str, type Answer, type SandboxRequest } from '../kit';
import { findPlayer, liveSession, openSession, playRound, type GamesContext, type GamesState } from './games';

const here = dirname(fileURLToPath(import.meta.url));
const fonts = new Map<string, Buffer | null>();
/**
 * The Thai and Lao glyphs of the demo pages (no system font has them on every phone or test
 * machine, and the sandbox reaches nothing outside): the same bundled Noto fonts the member app uses.
 */
function fontFile(name: 'thai.woff2' | 'lao.woff2'): Buffer | null {
  if (fonts.has(name)) return fonts.get(name) ?? null;
  const file = name === 'thai.woff2' ? '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff2' : '@fontsource/noto-sans-lao/files/noto-sans-lao-lao-400-normal.woff2';
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(createRequire(import.meta.url).resolve(file));
  } catch {
    bytes = null;
  }
  fonts.set(name, bytes);
  return bytes;
}
const assets = new Map<string, string>();
/** The demo game's script and style (beside this file; from the server's bundle, in the source tree). */
function asset(name: 'demo.js' | 'demo.css'): string {
  const cached = assets.get(name);
  if (cached !== undefined) return cached;
  for (const dir of [join(here, 'games-assets'), join(here, '../../sandbox/src/systems/games-assets'), join(here, '../../../apps/sandbox/src/systems/games-assets')]) {
    try {
      const text = readFileSync(join(dir, name), 'utf8');
      assets.set(name, text);
      return text;
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

const escape = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo game's words in the member's language (`lang` on the launch link; English otherwise). */
const DEMO_TEXTS = {
  en: { game: 'Sandbox demo game', balance: 'Balance', bet: 'Bet', spin: 'SPIN', back: 'Back to wallet', win: 'WIN', noWin: 'No win', notEnough: 'Not enough balance', tag: 'en' },
  th: { game: 'เกมทดลอง (แซนด์บ็อกซ์)', balance: 'ยอดเงิน', bet: 'เดิมพัน', spin: 'หมุน', back: 'กลับไปที่กระเป๋าเงิน', win: 'ชนะ', noWin: 'ไม่ได้รางวัล', notEnough: 'ยอดเงินไม่พอ', tag: 'th' },
  la: { game: 'ເກມທົດລອງ (ແຊນບັອກ)', balance: 'ຍອດເງິນ', bet: 'ເດີມພັນ', spin: 'ໝຸນ', back: 'ກັບໄປກະເປົາເງິນ', win: 'ຊະນະ', noWin: 'ບໍ່ໄດ້ລາງວັນ', notEnough: 'ຍອດເງິນບໍ່ພໍ', tag: 'lo' },
} as const;

const html = (status: number, title: string, body: string, lang = 'en'): Answer => ({
  status,
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title>${lang === 'th' || lang === 'lo' ? `<link rel="preload" href="/games/assets/${lang === 'th' ? 'thai' : 'lao'}.woff2" as="font" type="font/woff2" crossorigin>` : ''}<link rel="stylesheet" href="/games/assets/demo.css"></head><body>${body}
<script src="/games/assets/demo.js" defer></script></body></html>`,
});

const lobby = (code: string): Answer =>
  html(
    200,
    `${code} — sandbox`,
    `<main class="lobby"><h1>${escape(code)}</h1><p class="sandbox">Sandbox provider</p>
<form method="post" action="/games/${code}/login"><label>Username<input name="username" autocomplete="username" required></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required></label><button type="submit">Log in</button></form></main>`,
  );

/** The stakes offered (major units) and the sign, in the player's currency: a kip player bets in kip. */
const STAKES = { THB: { bets: [10, 50, 100], sign: '฿' }, LAK: { bets: [1_000, 5_000, 10_000], sign: '₭' } } as const;

function play(code: string, token: string, username: string, lang: keyof typeof DEMO_TEXTS, back: string, currency: keyof typeof STAKES): Answer {
  const words = DEMO_TEXTS[lang];
  const { bets, sign } = STAKES[currency];
  return html(
    200,
    `${code} — demo`,
    `<main class="game" data-base="/games/${escape(code)}" data-token="${escape(token)}" data-win="${escape(words.win)}" data-no-win="${escape(words.noWin)}" data-not-enough="${escape(words.notEnough)}"><header><h1>${escape(code)}</h1><span class="sandbox">${escape(words.game)}</span></header>
<p class="player">${escape(username)}</p><p class="balance">${escape(words.balance)} <strong data-testid="game-balance" data-currency="${currency}">…</strong> ${sign}</p>
<div class="reels" aria-live="polite"><span>🍒</span><span>🔔</span><span>⭐</span></div>
<p class="result" data-testid="game-result">&nbsp;</p>
<div class="bets">${bets.map((bet) => `<button type="button" data-bet="${bet}" data-testid="bet-${bet}">${escape(words.bet)} ${bet}</button>`).join('')}</div>
<button type="button" class="spin" data-testid="spin">${escape(words.spin)}</button><a class="back" href="${escape(back)}" data-testid="game-back">${escape(words.back)}</a></main>`,
    words.tag,
  );
}

/** A form post (application/x-www-form-urlencoded) or a JSON body. */
const fields = (req: SandboxRequest): Record<string, unknown> => req.body ?? Object.fromEntries(new URLSearchParams(req.raw));

/** Whether the aggregator plays this game (a seamless game: its rounds move the operator's wallet, not a balance here). */
async function seamless(ctx: GamesContext, code: string): Promise<boolean> {
  try {
    const res = await fetch(`${ctx.self()}/control/aggregator/${code}`, { signal: AbortSignal.timeout(5_000) });
    return res.ok && ((await res.json()) as { registered?: unknown }).registered === true;
  } catch {
    return false;
  }
}

/** The aggregator's control API (its answer's body, or null). */
async function aggregator(ctx: GamesContext, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> } | null> {
  try {
    const res = await fetch(`${ctx.self()}/control/aggregator/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return null;
  }
}

type TxnAnswer = { answer?: { status?: unknown; balance?: unknown } | null } | undefined;

/**
 * A spin of a seamless game: the aggregator plays the round against the operator's wallet (the
 * bet, then the win), and the balance shown is the operator's answer — nothing changes here.
 */
async function seamlessSpin(ctx: GamesContext, code: string, username: string, currency: string, stake: number, tenths: number): Promise<Answer> {
  const win = Math.round((stake * tenths) / 10);
  const round = await aggregator(ctx, `${code}/round`, { playerId: username, currency, stake, win });
  const bet = (round?.body.bet as TxnAnswer)?.answer;
  if (bet?.status === 'INSUFFICIENT_FUNDS') return json(400, { message: 'MONEY_NOT_ENOUGH' });
  if (bet?.status !== 'OK') return json(503, { message: 'UNAVAILABLE' });
  const last = ((round?.body.win as TxnAnswer)?.answer ?? bet) as { balance?: unknown };
  return json(200, { balance: Number(last.balance) / 100, multiplier: tenths / 10, win: win / 100 });
}

/** `GET/POST /games/{CODE}/{lobby|login|play|state|spin}` and `GET /games/assets/{demo.js|demo.css}`. */
export async function memberPages(req: SandboxRequest, state: GamesState, ctx: GamesContext): Promise<Answer> {
  const [code = '', action = ''] = req.parts;
  if (code === 'assets') {
    if (req.method === 'GET' && (action === 'thai.woff2' || action === 'lao.woff2')) {
      const font = fontFile(action);
      return font ? { status: 200, type: 'font/woff2', body: font } : json(404, { status: 'NOT_FOUND' });
    }
    if (req.method !== 'GET' || (action !== 'demo.js' && action !== 'demo.css')) return json(404, { status: 'NOT_FOUND' });
    return { status: 200, type: action === 'demo.js' ? 'text/javascript' : 'text/css', body: asset(action) };
  }
  if (req.method === 'GET' && action === 'lobby') return lobby(code);
  if (req.method === 'POST' && action === 'login') {
    const form = fields(req);
    const username = str(form.username, 100);
    const player = username ? findPlayer(state, code, username) : undefined;
    if (!player || player.password !== form.password) return html(401, 'Login failed', `<main class="lobby"><h1>Login failed</h1><p><a href="/games/${code}/lobby">Try again</a></p></main>`);
    return { status: 303, type: 'text/plain', body: '', location: `/games/${code}/play?t=${openSession(ctx, code, player.username, null)}` };
  }
  const token = req.method === 'GET' ? req.query.get('t') : str(fields(req).t, 100);
  const session = liveSession(state, ctx, token);
  if (!session || session.code !== code) return req.method === 'GET' && action === 'play' ? html(401, 'Session ended', '<main class="lobby"><h1>Session ended</h1></main>') : json(401, { message: 'invalid-token' });
  const balance = (): number => (findPlayer(state, code, session.username)?.balance ?? 0) / 100;
  const currencyOf = (): keyof typeof STAKES => findPlayer(state, code, session.username)?.currency ?? 'THB';
  if (req.method === 'GET' && action === 'play') {
    const lang = req.query.get('lang');
    return play(code, session.token, session.username, lang === 'th' || lang === 'la' ? lang : 'en', session.returnUrl ?? '/', currencyOf());
  }
  if (req.method === 'GET' && action === 'state') {
    // A seamless game's balance is the operator's wallet, as the aggregator asks it.
    if (await seamless(ctx, code)) {
      const asked = await aggregator(ctx, `${code}/balance`, { playerId: session.username, currency: currencyOf() });
      if (asked?.status === 200) return json(200, { game: code, username: session.username, balance: Number(asked.body.balance) / 100, currency: currencyOf() });
    }
    return json(200, { game: code, username: session.username, balance: balance(), currency: currencyOf() });
  }
  if (req.method === 'POST' && action === 'spin') {
    const bet = fields(req).bet;
    if (typeof bet !== 'number' || !(STAKES[currencyOf()].bets as readonly number[]).includes(bet)) return json(400, { message: 'KEY_INVALID' });
    const tenths = draw();
    if (await seamless(ctx, code)) return seamlessSpin(ctx, code, session.username, currencyOf(), bet * 100, tenths);
    const played = playRound(state, ctx, code, session.username, bet * 100, tenths / 10);
    if (!played) return json(400, { message: 'MONEY_NOT_ENOUGH' });
    return json(200, { balance: played.balance / 100, multiplier: tenths / 10, win: played.win / 100 });
  }
  return json(404, { status: 'NOT_FOUND' });
}
