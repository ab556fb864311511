/**
 * The five journeys of the how-to videos (spec section 2: wallet, play game, check balance,
 * receive bonus, end bonus). Each sets its scene over the API (a member with what the journey
 * needs), then plays it in the real app as a member would, tap by tap, with captions.
 */
import type { Locator, Page } from '@playwright/test';
import { bonusLocales } from '../../apps/web/src/features/bonus/locales';
import { en } from '../../apps/web/src/i18n/en';
import { la } from '../../apps/web/src/i18n/la';
import type { Messages } from '../../apps/web/src/i18n/messages';
import { th } from '../../apps/web/src/i18n/th';
import type { HowtoApi } from './api';
import { CAPTIONS, type HowtoLocale, type JourneyId } from './captions';
import type { Director } from './director';

const MESSAGES: Record<HowtoLocale, Messages> = { th, la, en };

export interface Scene {
  api: HowtoApi;
  token: string;
  locale: HowtoLocale;
  /** Filled in by `prepare`: what the journey set up (a game username, …). */
  notes: Record<string, string>;
}

export interface Journey {
  /** Sets the scene over the API before the camera rolls. */
  prepare(scene: Scene): Promise<void>;
  /** Plays the journey in the app (the page is on /user/home, not yet filmed). */
  film(director: Director, scene: Scene, say: (key: string) => Promise<void>): Promise<void>;
}

/** Fills `{{name}}` with the app's own labels in the locale. */
export function captionText(locale: HowtoLocale, journey: JourneyId, key: string): string {
  const m = MESSAGES[locale];
  const bonus = bonusLocales[locale];
  const labels: Record<string, string> = {
    deposit: m.home.tiles.deposit,
    withdraw: m.home.tiles.withdraw,
    statement: m.nav.statement,
    activate: m.gameAccount.activate,
    play: m.gameAccount.play,
    check: m.home.checkBalance,
    transfer: m.home.transfer,
    bonusTile: m.home.tiles.bonus,
    receive: bonus.receive,
    cancel: bonus.cancel,
  };
  const template = (CAPTIONS[locale][journey] as Record<string, string>)[key];
  if (template === undefined) throw new Error(`no caption ${locale}.${journey}.${key}`);
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => labels[name] ?? whole);
}

export function stepCount(journey: JourneyId): number {
  return Object.keys(CAPTIONS.en[journey]).length;
}

/** Waits until a locator's text matches (the app answers over the network; nothing is assumed). */
async function waitForText(locator: Locator, pattern: RegExp, timeout = 15_000): Promise<void> {
  const until = Date.now() + timeout;
  for (;;) {
    const text = (await locator.innerText().catch(() => '')).trim();
    if (pattern.test(text)) return;
    if (Date.now() > until) throw new Error(`waited ${timeout} ms for ${pattern} in ${String(locator)}; it says "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function visible(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout });
}

/** Waits for a box, scrolls it smoothly to the middle of the screen and lets the viewer look. */
async function showCentered(director: Director, locator: Locator, holdMs: number): Promise<void> {
  await visible(locator);
  await locator.evaluate((box) => box.scrollIntoView({ behavior: 'smooth', block: 'center' }));
  await director.hold(holdMs);
}

async function acknowledge(director: Director, page: Page): Promise<void> {
  const dialog = page.getByTestId('alert-dialog');
  await visible(dialog);
  await director.hold(1600);
  await director.tap(dialog.getByTestId('alert-ok'));
  await dialog.waitFor({ state: 'hidden' });
}

async function typeSlowly(director: Director, input: Locator, text: string): Promise<void> {
  await director.tap(input);
  await input.pressSequentially(text, { delay: 140 });
  await director.hold(300);
}

export const JOURNEY_SCRIPTS: Record<JourneyId, Journey> = {
  wallet: {
    async prepare() {
      // A new member: the journey starts at ฿0.00.
    },
    async film(director, scene, say) {
      const page = director.page;
      await say('balance');
      await say('deposit');
      await director.tap(page.getByTestId('home-tile-deposit'));
      const modal = page.getByTestId('deposit-modal');
      await visible(modal);
      await director.hold(600);
      await say('qr');
      await director.tap(modal.getByTestId('deposit-tab-qr'));
      await director.tap(modal.getByTestId('qr-provider-WW'));
      await director.tap(modal.getByTestId('qr-preset-200'));
      await director.tap(modal.getByTestId('qr-create'));
      const shown = modal.getByTestId('qr-shown');
      await visible(shown);
      await director.hold(500);
      const qrcodeId = await shown.getAttribute('data-qrcode-id');
      if (!qrcodeId) throw new Error('the QR view has no data-qrcode-id');
      // The customer pays at the sandbox gateway while the caption is read; the app sees it by itself.
      const paid = scene.api.payQr(qrcodeId);
      await say('pay');
      await paid;
      await waitForText(modal.getByTestId('deposit-balance'), /200\.00/);
      await director.hold(1200);
      await director.tap(modal.getByTestId('deposit-close'));
      await modal.waitFor({ state: 'hidden' });
      await waitForText(page.getByTestId('wallet-balance'), /200\.00/);
      await director.hold(700);
      await say('withdraw');
      await director.tap(page.getByTestId('home-tile-withdraw'));
      const withdraw = page.getByTestId('withdraw-modal');
      await visible(withdraw);
      await typeSlowly(director, withdraw.locator('input[name=amount]'), '100');
      await director.tap(withdraw.getByTestId('withdraw-submit'));
      await acknowledge(director, page);
      await waitForText(page.getByTestId('wallet-balance'), /^\D*100\.00$/);
      await director.hold(600);
      await say('statement');
      await director.tap(page.getByTestId('nav-statement'));
      await visible(page.getByTestId('statement-list').getByTestId('statement-row').first());
      await director.hold(2600);
    },
  },

  playGame: {
    async prepare(scene) {
      await scene.api.topUp(scene.token, 500);
    },
    async film(director, _scene, say) {
      const page = director.page;
      const created = new Map<Page, number>();
      page.context().on('page', (opened) => created.set(opened, Date.now()));
      await say('lists');
      await director.scroll(560);
      await director.hold(600);
      await say('open');
      await director.tap(page.getByTestId('game-card-PG'));
      const slot = page.getByTestId('slot-account-modal');
      await visible(slot);
      await director.hold(500);
      await director.tap(slot.getByTestId('slot-activate'));
      await waitForText(slot.getByTestId('slot-username'), /\S/);
      await say('credentials');
      await say('play');
      await director.tap(slot.getByTestId('slot-play'));
      // Play says what moves where first.
      await visible(slot.getByTestId('play-confirm'));
      const opened = page.waitForEvent('popup');
      await director.tap(slot.getByTestId('play-confirm-go'));
      const game = await opened;
      await director.follow(game, created.get(game) ?? Date.now());
      await game.waitForURL(/\/games\/PG\/play/);
      await visible(game.getByTestId('game-balance'));
      await director.restoreCaption();
      await director.hold(1200);
      await say('spin');
      for (let spin = 0; spin < 3; spin += 1) {
        await director.tap(game.getByTestId('spin'));
        await game.waitForFunction(() => !(document.querySelector('[data-testid=spin]') as HTMLButtonElement | null)?.disabled);
        await director.hold(700);
      }
      await say('back');
      await director.tap(game.getByTestId('game-back'));
      await game.waitForURL(/\/user\/home$/);
      await visible(game.getByTestId('total-balance'));
      await director.restoreCaption();
      await director.hold(2400);
    },
  },

  checkBalance: {
    async prepare(scene) {
      await scene.api.topUp(scene.token, 1000);
      const username = await scene.api.openGameAccount(scene.token, 'PG');
      await scene.api.transfer(scene.token, 'WALLET', 'PG', 500);
      // Played at the game meanwhile: two rounds of 50 baht that paid 3× (the wallet has not seen it yet).
      await scene.api.playRounds('PG', username, 5_000, 3, 2);
    },
    async film(director, _scene, say) {
      const page = director.page;
      await say('total');
      await say('check');
      await director.tap(page.getByTestId('check-balance'));
      await waitForText(page.getByTestId('games-balance'), /700\.00/);
      await director.hold(900);
      await say('updated');
      await showCentered(director, page.getByTestId('game-card-PG'), 2200);
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'smooth' }));
      await director.hold(800);
      await say('transfer');
      await director.tap(page.getByTestId('transfer-button'));
      const modal = page.getByTestId('transfer-modal');
      await visible(modal);
      await modal.locator('select[name=from]').selectOption('PG');
      await director.hold(500);
      await modal.locator('select[name=to]').selectOption('WALLET');
      await director.hold(500);
      await director.tap(modal.getByTestId('transfer-all'));
      await director.tap(modal.getByTestId('transfer-submit'));
      await acknowledge(director, page);
      await waitForText(page.getByTestId('wallet-balance'), /1,200\.00/);
      await say('done');
    },
  },

  receiveBonus: {
    async prepare(scene) {
      await scene.api.topUp(scene.token, 1000);
    },
    async film(director, _scene, say) {
      const page = director.page;
      await say('page');
      await director.tap(page.getByTestId('home-tile-bonus'));
      const card = page.locator('[data-testid=bonus-card][data-code=WELCOME20]');
      await visible(card);
      await director.hold(800);
      await say('card');
      await director.tap(card);
      const modal = page.getByTestId('bonus-modal');
      await visible(modal);
      await director.hold(1500);
      await say('receive');
      await director.tap(modal.getByTestId('bonus-receive'));
      await acknowledge(director, page);
      await showCentered(director, page.getByTestId('bonus-active'), 600);
      await say('turnover');
      await director.tap(page.getByTestId('nav-home'));
      await showCentered(director, page.getByTestId('home-bonus-progress'), 500);
      await say('home');
    },
  },

  endBonus: {
    async prepare(scene) {
      await scene.api.topUp(scene.token, 1000);
      await scene.api.activateBonus(scene.token, 'WELCOME20');
    },
    async film(director, _scene, say) {
      const page = director.page;
      const progress = page.getByTestId('home-bonus-progress');
      await showCentered(director, progress, 600);
      await say('active');
      await director.tap(progress);
      const active = page.getByTestId('bonus-active');
      await visible(active);
      await director.hold(600);
      await say('byItself');
      await say('cancel');
      await director.tap(active.getByTestId('bonus-cancel'));
      const dialog = page.getByTestId('bonus-cancel-dialog');
      await visible(dialog);
      await say('confirm');
      await director.tap(dialog.getByTestId('bonus-cancel-confirm'));
      await active.waitFor({ state: 'hidden' });
      await director.hold(500);
      await say('done');
    },
  },
};
