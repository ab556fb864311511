/**
 * `npm run howto`: records the how-to videos of spec section 2 from the app itself, so they never
 * drift from it. It starts the built server on a fresh embedded database with the sandbox
 * providers (or uses `--url`), and for each journey and language: sets the scene over the API,
 * films the journey in Debian's Chromium at 390×844 with Playwright's video recording (captions
 * and taps drawn on the page), cuts the page videos into one film (the game's own tab included)
 * and writes, into `apps/web/public/howto/<locale>/`:
 *   <file>.webm  VP9, 15 fps, no sound — what the how-to page plays;
 *   <file>.vtt   the same captions as a caption track (screen readers, players' caption menus);
 *   <file>.jpg   a poster frame for the how-to card.
 *
 * Options: --journey wallet,playGame,… (default all five)  --locale th,la,en (default all three)
 *          --out <dir>  --url <http://host:port> with --operator-token <token>  --no-build
 *          --pace <n> (pauses × n; CI uses a faster pace)
 *
 * Playwright encodes its recordings with an ffmpeg it normally downloads; there is no download
 * here, so the recorder points Playwright's registry at Debian's ffmpeg (`apt-get install ffmpeg`,
 * or FFMPEG_PATH) through a folder of its own (PLAYWRIGHT_BROWSERS_PATH=.howto/playwright).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { HowtoApi } from './api';
import { JOURNEYS, LOCALES, VIDEO_FILES, type HowtoLocale, type JourneyId } from './captions';
import { Director, type Segment } from './director';
import { captionText, JOURNEY_SCRIPTS, stepCount, type Scene } from './journeys';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

const VIEWPORT = { width: 390, height: 844 } as const;
const FPS = 15;
const ROOT = resolve(import.meta.dirname, '../..');
const WORK = join(ROOT, '.howto');
const LOCALE_TAGS: Record<HowtoLocale, string> = { th: 'th-TH', la: 'lo-LA', en: 'en-GB' };
/** The member each language's videos show (names as a player of that language would have). */
const MEMBER_NAMES: Record<HowtoLocale, string> = { th: 'สมชาย ใจดี', la: 'ສົມພອນ ແກ້ວມະນີ', en: 'Alex Morgan' };

interface Options {
  journeys: JourneyId[];
  locales: HowtoLocale[];
  out: string;
  url: string | null;
  operatorToken: string;
  build: boolean;
  pace: number;
}

function parseList<T extends string>(value: string | undefined, all: readonly T[], what: string): T[] {
  if (!value) return [...all];
  const picked = value.split(',').map((item) => item.trim());
  for (const item of picked) if (!all.includes(item as T)) throw new Error(`unknown ${what} "${item}" (one of ${all.join(', ')})`);
  return picked as T[];
}

function parseOptions(argv: string[]): Options {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (name === 'no-build') flags.add(name);
    else values.set(name, inline ?? argv[++i] ?? '');
  }
  const pace = Number(values.get('pace') ?? '1');
  if (!(pace > 0 && pace <= 4)) throw new Error('--pace must be a number in (0, 4]');
  return {
    journeys: parseList(values.get('journey'), JOURNEYS, 'journey'),
    locales: parseList(values.get('locale'), LOCALES, 'locale'),
    out: resolve(values.get('out') ?? join(ROOT, 'apps/web/public/howto')),
    url: values.get('url') ?? null,
    operatorToken: values.get('operator-token') ?? process.env.OPERATOR_TOKEN ?? `howto-${randomBytes(12).toString('hex')}`,
    build: !flags.has('no-build'),
    pace,
  };
}

function which(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Points Playwright's video encoder at Debian's ffmpeg (see the header). Answers ffmpeg's path. */
function ffmpegForPlaywright(): string {
  const ffmpeg = process.env.FFMPEG_PATH ?? which('ffmpeg');
  if (!ffmpeg) throw new Error("ffmpeg not found: install Debian's ffmpeg (apt-get install ffmpeg) or set FFMPEG_PATH");
  const require = createRequire(import.meta.url);
  const core = dirname(require.resolve('playwright-core/package.json'));
  const registry = JSON.parse(readFileSync(join(core, 'browsers.json'), 'utf8')) as { browsers: Array<{ name: string; revision: string }> };
  const revision = registry.browsers.find((entry) => entry.name === 'ffmpeg')?.revision;
  if (!revision) throw new Error('playwright-core/browsers.json names no ffmpeg revision');
  const browsers = join(WORK, 'playwright');
  const dir = join(browsers, `ffmpeg-${revision}`);
  mkdirSync(dir, { recursive: true });
  const link = join(dir, 'ffmpeg-linux');
  rmSync(link, { force: true });
  symlinkSync(ffmpeg, link);
  process.env.PLAYWRIGHT_BROWSERS_PATH = browsers;
  return ffmpeg;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr}`);
  return result.stdout;
}

interface Server {
  url: string;
  stop(): void;
}

async function startServer(operatorToken: string): Promise<Server> {
  const port = 3290 + Math.floor(Math.random() * 500);
  const dataDir = join(WORK, 'data');
  rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      SANDBOX_PORT: String(port + 1000),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      OPERATOR_TOKEN: operatorToken,
      OTP_SENDS_PER_IP_HOUR: '100000',
      OTP_SENDS_GLOBAL_MINUTE: '100000',
      ACCOUNT_CHECKS_PER_IP_MINUTE: '100000',
      SLIP_CLOSED_FROM: '00:00',
      SLIP_CLOSED_TO: '00:00',
      // The journeys start from the demo without its back-office queue.
      SEED_DEMO_QUEUE: 'false',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it answered`);
    const ok = await fetch(`${url}/healthz`).then((response) => response.ok, () => false);
    if (ok) break;
    if (Date.now() > until) {
      child.kill();
      throw new Error('the server did not answer /healthz within 120 s');
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

let phoneCounter = 0;
function freshPhone(): string {
  phoneCounter += 1;
  const tail = (Date.now() % 1_000_000) * 100 + (phoneCounter % 100);
  return `09${String(tail).padStart(8, '0').slice(-8)}`;
}

interface Film {
  segments: Array<{ file: string; from: number; to: number }>;
  cues: Array<{ start: number; end: number; text: string }>;
  duration: number;
}

/** One journey in one language: the scene, the recording, and its timeline in film seconds. */
async function record(browser: Browser, api: HowtoApi, journey: JourneyId, locale: HowtoLocale, rawDir: string, pace: number): Promise<Film> {
  const phone = freshPhone();
  const token = await api.register({ phone, name: MEMBER_NAMES[locale], accountName: 'SOMCHAI JAIDEE', password: 'howto1234' });
  const scene: Scene = { api, token, locale, notes: {} };
  await JOURNEY_SCRIPTS[journey].prepare(scene);

  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: LOCALE_TAGS[locale],
    timezoneId: 'Asia/Bangkok',
    recordVideo: { dir: rawDir, size: VIEWPORT },
  });
  await context.addInitScript(
    ({ value, lang }) => {
      window.localStorage.setItem('token', value);
      window.localStorage.setItem('locale', lang);
      window.localStorage.setItem('remember-agreement', 'true');
    },
    { value: token, lang: locale },
  );
  const page: Page = await context.newPage();
  const videoStart = Date.now();
  await Director.install(page);
  const director = new Director(page, videoStart, stepCount(journey), pace);
  let segments: Segment[] = [];
  let closedAt = 0;
  try {
    await page.goto(`${api.baseUrl}/user/home`);
    await page.getByTestId('total-balance').waitFor({ state: 'visible', timeout: 30_000 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.waitForTimeout(400);
    director.roll();
    await director.hold(500);
    await JOURNEY_SCRIPTS[journey].film(director, scene, (key) => director.say(captionText(locale, journey, key)));
    director.cut();
    segments = director.segments;
  } finally {
    closedAt = Date.now();
    await context.close();
  }

  // A page's video runs until the context closes; anchoring it there is more exact than its
  // creation time (its first frame comes a little after the page is created).
  for (const segment of segments) {
    const video = segment.page.video();
    if (video) segment.videoStart = closedAt - probeDuration(await video.path()) * 1000;
  }
  const film: Film = { segments: [], cues: [], duration: 0 };
  const starts: number[] = [];
  for (const segment of segments) {
    const video = segment.page.video();
    if (!video) throw new Error('a filmed page has no video');
    starts.push(film.duration);
    film.segments.push({ file: await video.path(), from: (segment.from - segment.videoStart) / 1000, to: (segment.to - segment.videoStart) / 1000 });
    film.duration += (segment.to - segment.from) / 1000;
  }
  /** Wall-clock ms → seconds into the film. */
  const filmTime = (at: number): number => {
    for (let i = segments.length - 1; i >= 0; i -= 1) {
      const segment = segments[i];
      if (segment && at >= segment.from) return (starts[i] ?? 0) + Math.min(at, segment.to) / 1000 - segment.from / 1000;
    }
    return 0;
  };
  if (director.cues.length !== stepCount(journey)) throw new Error(`${journey} showed ${director.cues.length} of its ${stepCount(journey)} captions`);
  director.cues.forEach((cue, index) => {
    const next = director.cues[index + 1];
    film.cues.push({ start: filmTime(cue.at), end: next ? filmTime(next.at) : film.duration, text: cue.text });
  });
  return film;
}

function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

function toVtt(cues: Film['cues']): string {
  const blocks = cues.map((cue, index) => `${index + 1}\n${vttTime(cue.start)} --> ${vttTime(cue.end)}\n${cue.text.replace(/-->/g, '→')}`);
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

/** Cuts the page videos into one VP9 film, then takes the poster frame. */
function encode(ffmpeg: string, film: Film, webm: string, poster: string): void {
  const inputs = film.segments.flatMap((segment) => ['-i', segment.file]);
  const parts = film.segments.map((segment, i) => `[${i}:v]trim=start=${segment.from.toFixed(3)}:end=${segment.to.toFixed(3)},setpts=PTS-STARTPTS[v${i}]`);
  const joined = `${film.segments.map((_, i) => `[v${i}]`).join('')}concat=n=${film.segments.length}:v=1:a=0,fps=${FPS},format=yuv420p[v]`;
  run(ffmpeg, [
    '-y', '-loglevel', 'error', ...inputs,
    '-filter_complex', `${parts.join(';')};${joined}`,
    '-map', '[v]', '-an', '-c:v', 'libvpx-vp9', '-crf', '44', '-b:v', '0', '-g', String(FPS * 4),
    '-deadline', 'good', '-cpu-used', '4', '-row-mt', '1', '-metadata', 'title=How-to video recorded from the app',
    webm,
  ]);
  // The poster: the frame a little after the second caption (the journey under way).
  const at = Math.min(film.duration - 0.5, (film.cues[1]?.start ?? 1) + 1.5);
  run(ffmpeg, ['-y', '-loglevel', 'error', '-ss', at.toFixed(2), '-i', webm, '-frames:v', '1', '-vf', 'scale=390:-2', '-q:v', '7', poster]);
}

function probeDuration(file: string): number {
  const probe = run(which('ffprobe') ?? 'ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  const seconds = Number(probe.trim());
  if (!(seconds > 0)) throw new Error(`ffprobe found no duration in ${file}: ${probe}`);
  return seconds;
}

/** What ffprobe says of a finished film: it must be a VP9 WebM of the phone's size with some length. */
function verify(webm: string): { duration: number; width: number; height: number; codec: string } {
  const probe = run(which('ffprobe') ?? 'ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height:format=duration,format_name', '-of', 'json', webm]);
  const info = JSON.parse(probe) as { streams: Array<{ codec_name: string; width: number; height: number }>; format: { duration: string; format_name: string } };
  const stream = info.streams[0];
  const result = { duration: Number(info.format.duration), width: stream?.width ?? 0, height: stream?.height ?? 0, codec: stream?.codec_name ?? '' };
  if (!info.format.format_name.includes('webm') || result.codec !== 'vp9' || result.width !== VIEWPORT.width || result.height !== VIEWPORT.height || !(result.duration > 5)) {
    throw new Error(`${webm} is not a ${VIEWPORT.width}×${VIEWPORT.height} VP9 WebM of more than 5 s: ${probe}`);
  }
  return result;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const ffmpeg = ffmpegForPlaywright();
  // Imported only now, with PLAYWRIGHT_BROWSERS_PATH set.
  const { chromium } = await import('@playwright/test');
  if (options.build || !existsSync(join(ROOT, 'apps/server/dist/main.js')) || !existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    if (!options.url) {
      console.log('howto: building the app (npm run build)');
      run('npm', ['run', '--silent', 'build']);
    }
  }
  const server = options.url ? { url: options.url.replace(/\/+$/, ''), stop: () => undefined } : await startServer(options.operatorToken);
  const api = new HowtoApi(server.url, options.operatorToken);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  const rawDir = join(WORK, 'raw');
  let failures = 0;
  try {
    for (const locale of options.locales) {
      for (const journey of options.journeys) {
        const started = Date.now();
        rmSync(rawDir, { recursive: true, force: true });
        try {
          const film = await record(browser, api, journey, locale, rawDir, options.pace);
          const dir = join(options.out, locale);
          mkdirSync(dir, { recursive: true });
          const base = join(dir, VIDEO_FILES[journey]);
          encode(ffmpeg, film, `${base}.webm`, `${base}.jpg`);
          const info = verify(`${base}.webm`);
          // The last caption lasts to the end of the film as encoded.
          writeFileSync(`${base}.vtt`, toVtt(film.cues.map((cue) => ({ ...cue, start: Math.min(cue.start, info.duration), end: Math.min(cue.end, info.duration) }))));
          const size = statSync(`${base}.webm`).size;
          console.log(
            `howto ${locale} ${journey}: ${info.duration.toFixed(1)} s, ${info.width}×${info.height} ${info.codec}, ${(size / 1024).toFixed(0)} KB, ` +
              `${film.cues.length} captions, ${film.segments.length} page(s) → ${base}.webm (${((Date.now() - started) / 1000).toFixed(0)} s)`,
          );
        } catch (error) {
          failures += 1;
          console.error(`howto ${locale} ${journey}: FAILED`, error);
        }
      }
    }
  } finally {
    await browser.close();
    server.stop();
    rmSync(rawDir, { recursive: true, force: true });
  }
  if (failures > 0) {
    console.error(`howto: ${failures} recording(s) failed`);
    process.exit(1);
  }
}

await main();
