/**
 * What the how-to recorder does on screen: a caption bar at the top of the phone (the step, its
 * text), a ripple where a finger taps, and pauses long enough to read. It keeps the timeline of
 * the recording — which page was filmed when, and when each caption appeared — so the recorder
 * can cut the page videos into one film and write its caption track.
 */
import type { Locator, Page } from '@playwright/test';

export interface Cue {
  /** Wall-clock ms when the caption appeared. */
  at: number;
  text: string;
}

export interface Segment {
  page: Page;
  /** Wall-clock ms when the page (and so its video) was created. */
  videoStart: number;
  /** Wall-clock ms of the part of this page's video that goes into the film. */
  from: number;
  to: number;
}

/**
 * Installed in every page of a recording context, before the page's own scripts. A string, not a
 * function: the TypeScript runner (tsx) would add helpers to a function's source that do not exist
 * in the page. Toasts move down below the caption so both stay readable; the sandbox-only demo
 * top-up block, which a real deployment does not offer, is not filmed.
 */
const OVERLAY_SCRIPT = `(() => {
  const css = \`
#howto-caption{position:fixed;left:10px;right:10px;top:10px;z-index:2147483647;display:flex;gap:10px;align-items:flex-start;
padding:12px 14px;border-radius:14px;background:rgba(12,9,34,.92);color:#fff;font-weight:600;font-size:17px;line-height:1.45;
font-family:var(--howto-font,var(--font,system-ui,sans-serif));box-shadow:0 8px 28px rgba(0,0,0,.5);border:1px solid rgba(245,196,81,.75);
pointer-events:none;transition:opacity .25s ease,transform .25s ease}
#howto-caption[hidden]{display:flex;opacity:0;transform:translateY(-8px)}
#howto-caption b{flex:none;min-width:34px;padding:1px 7px;border-radius:999px;background:#f5c451;color:#1b1530;font-size:14px;text-align:center}
[data-testid=demo-topup]{display:none !important}
.toaster{top:calc(var(--howto-caption-h,0px) + 20px) !important}
.howto-tap{position:fixed;width:46px;height:46px;margin:-23px 0 0 -23px;border-radius:50%;background:rgba(255,255,255,.5);
border:3px solid #f5c451;z-index:2147483647;pointer-events:none;animation:howto-tap .75s ease-out forwards}
@keyframes howto-tap{from{transform:scale(.35);opacity:1}to{transform:scale(1.5);opacity:0}}\`;
  function ensure() {
    let bar = document.getElementById('howto-caption');
    if (!bar) {
      const style = document.createElement('style');
      style.textContent = css;
      document.head.append(style);
      bar = document.createElement('div');
      bar.id = 'howto-caption';
      bar.hidden = true;
      bar.setAttribute('aria-hidden', 'true');
      document.body.append(bar);
    }
    return bar;
  }
  window.__howto = {
    caption(step, text) {
      const bar = ensure();
      bar.replaceChildren();
      const badge = document.createElement('b');
      badge.textContent = step;
      const words = document.createElement('span');
      words.textContent = text;
      bar.append(badge, words);
      bar.hidden = false;
      document.documentElement.style.setProperty('--howto-caption-h', bar.offsetHeight + 'px');
    },
    tap(x, y) {
      ensure();
      const ring = document.createElement('div');
      ring.className = 'howto-tap';
      ring.style.left = x + 'px';
      ring.style.top = y + 'px';
      document.body.append(ring);
      setTimeout(() => ring.remove(), 900);
    },
  };
})();`;

interface Overlay {
  caption(step: string, text: string): void;
  tap(x: number, y: number): void;
}

export class Director {
  readonly cues: Cue[] = [];
  readonly segments: Segment[] = [];
  private step = 0;
  /** The @font-face rules and font family of the app, for pages that are not the app (the game tab). */
  private fonts: { faces: string; family: string } | null = null;

  constructor(
    private current: Page,
    videoStart: number,
    private readonly total: number,
    /** Multiplies every pause (a CI smoke run may go faster). */
    private readonly pace = 1,
  ) {
    this.segments.push({ page: current, videoStart, from: videoStart, to: videoStart });
  }

  static async install(page: Page): Promise<void> {
    await page.context().addInitScript({ content: OVERLAY_SCRIPT });
  }

  get page(): Page {
    return this.current;
  }

  /** Starts the film here (drops the blank start of the page's video). */
  roll(): void {
    const segment = this.segments[this.segments.length - 1];
    if (segment) segment.from = Date.now();
  }

  /** Shows a caption and leaves time to read it. */
  async say(text: string, readMs?: number): Promise<void> {
    this.step += 1;
    await this.showCaption(text);
    this.cues.push({ at: Date.now(), text });
    await this.hold(readMs ?? Math.min(4200, 1700 + text.length * 40));
  }

  async hold(ms: number): Promise<void> {
    await this.current.waitForTimeout(Math.round(ms * this.pace));
  }

  /** A visible tap: the ripple where the finger lands, then the click. */
  async tap(target: Locator): Promise<void> {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (box) {
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await this.current.evaluate(([px, py]) => {
        const found = (window as unknown as { __howto?: Overlay }).__howto;
        if (!found) throw new Error('the how-to overlay is not in this page');
        found.tap(px ?? 0, py ?? 0);
      }, [x, y]);
      await this.hold(320);
    }
    await target.click();
    await this.hold(350);
  }

  /** Scrolls the page smoothly by `dy` CSS px (what a thumb would do). */
  async scroll(dy: number): Promise<void> {
    await this.current.evaluate((by) => window.scrollBy({ top: by, behavior: 'smooth' }), dy);
    await this.hold(700);
  }

  /** Films another page from now on (the game's tab), keeping the caption visible there. */
  async follow(page: Page, videoStart: number): Promise<void> {
    const now = Date.now();
    const last = this.segments[this.segments.length - 1];
    if (last) last.to = now;
    this.fonts ??= await this.current.evaluate(() => {
      const faces: string[] = [];
      for (const sheet of Array.from(document.styleSheets)) {
        let rules: CSSRuleList;
        try {
          rules = sheet.cssRules;
        } catch {
          continue;
        }
        for (const rule of Array.from(rules)) if (rule instanceof CSSFontFaceRule) faces.push(rule.cssText);
      }
      return { faces: faces.join('\n'), family: getComputedStyle(document.body).fontFamily };
    });
    this.current = page;
    this.segments.push({ page, videoStart, from: now, to: now });
  }

  /** After a page of another origin or document loads in the filmed tab: the app's fonts for the caption, and the caption again. */
  async restoreCaption(): Promise<void> {
    if (this.fonts) {
      await this.current.addStyleTag({ content: `${this.fonts.faces}\n:root{--howto-font:${this.fonts.family}}` });
    }
    const last = this.cues[this.cues.length - 1];
    if (last) await this.showCaption(last.text, false);
  }

  /** Ends the film now. */
  cut(): void {
    const last = this.segments[this.segments.length - 1];
    if (last) last.to = Date.now();
  }

  private async showCaption(text: string, count = true): Promise<void> {
    const label = `${this.step}/${this.total}`;
    await this.current.evaluate(([step, words]) => {
        const found = (window as unknown as { __howto?: Overlay }).__howto;
        if (!found) throw new Error('the how-to overlay is not in this page');
        found.caption(step ?? '', words ?? '');
      }, [label, text]);
    if (count) await this.current.evaluate(() => document.fonts.ready.then(() => undefined));
  }
}
