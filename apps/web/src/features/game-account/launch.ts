import { autologinEndpoints, type AutoLoginResponse } from '@mw/contract/autologin';
import type { GameCode } from '@mw/contract/constants';
import type { EndpointDef } from '@mw/contract/http';
import type { GameAccount, GameLaunchEvent, GameLogin } from '@mw/contract/wallet';
import { callEndpoint } from '../../shared/api/client';

/** The providers with an auto-login call (spec sections 2 and 7), by game code. */
const AUTO_LOGIN = {
  PG: autologinEndpoints.autoLoginPg,
  BETFLIX: autologinEndpoints.autoLoginBetflix,
  ASKMEBET: autologinEndpoints.autoLoginAskmebet,
  IMI: autologinEndpoints.autoLoginImi,
  USUN: autologinEndpoints.autoLoginUsun,
  AREASLOT: autologinEndpoints.autoLoginAreaslot,
  CIRCUS: autologinEndpoints.autoLoginCircus,
  SLOTRACHA: autologinEndpoints.autoLoginSlotracha,
  PGSLOT: autologinEndpoints.autoLoginPgslot,
  JOKER2: autologinEndpoints.autoLoginJoker2,
  HUAYHD: autologinEndpoints.autoLoginHuayhd,
} satisfies Partial<Record<GameCode, EndpointDef>>;

type AutoLoginCode = keyof typeof AUTO_LOGIN;

function isAutoLoginCode(code: string): code is AutoLoginCode {
  return Object.hasOwn(AUTO_LOGIN, code);
}

/** How a game is launched: its auto-login call, a form-state event, its web page, or not at all. */
export type LaunchRoute =
  | { kind: 'autologin'; code: AutoLoginCode; params: { username: string; password?: string } }
  | { kind: 'event'; event: GameLaunchEvent }
  | { kind: 'web'; url: string }
  | { kind: 'none' };

export function launchRoute(game: Pick<GameAccount, 'code' | 'web'>, login: GameLogin): LaunchRoute {
  if (isAutoLoginCode(game.code)) {
    const withPassword = AUTO_LOGIN[game.code].path.includes(':password');
    return {
      kind: 'autologin',
      code: game.code,
      params: withPassword ? { username: login.username, password: login.password } : { username: login.username },
    };
  }
  if (login.event) return { kind: 'event', event: login.event };
  if (game.web) return { kind: 'web', url: game.web };
  return { kind: 'none' };
}

/** GET /api/autoLogin/…: the launch link for the member's account. */
export function fetchAutoLoginLink(route: Extract<LaunchRoute, { kind: 'autologin' }>): Promise<AutoLoginResponse> {
  return callEndpoint(AUTO_LOGIN[route.code], { params: route.params });
}

/** Where a launch goes: a tab opened at the click (so pop-up blockers allow it), or this tab. */
export interface LaunchTarget {
  go: (url: string) => void;
  post: (event: GameLaunchEvent) => void;
  /** The launch failed before anything was shown: closes an opened tab. */
  abandon: () => void;
}

function submitForm(doc: Document, event: GameLaunchEvent): void {
  const form = doc.createElement('form');
  form.method = event.method;
  form.action = event.action;
  form.style.display = 'none';
  for (const [name, value] of Object.entries(event.fields)) {
    const field = doc.createElement('input');
    field.type = 'hidden';
    field.name = name;
    field.value = value;
    form.appendChild(field);
  }
  doc.body.appendChild(form);
  form.submit();
}

/**
 * Must run synchronously inside the click handler: a new tab opened later, after an await, is a
 * pop-up the browser blocks. When it is blocked anyway, the game opens in this tab.
 */
export function openLaunchTarget(newTab: boolean): LaunchTarget {
  const opened = newTab ? window.open('about:blank', '_blank') : null;
  if (opened) {
    return {
      go: (url) => {
        // The game page gets no handle back to the wallet.
        opened.opener = null;
        opened.location.href = url;
      },
      post: (event) => {
        opened.opener = null;
        submitForm(opened.document, event);
      },
      abandon: () => opened.close(),
    };
  }
  return {
    go: (url) => window.location.assign(url),
    post: (event) => submitForm(document, event),
    abandon: () => undefined,
  };
}

/** Follows a launch route to its target. Answers false when the game cannot be launched from the web. */
export async function launch(route: LaunchRoute, target: LaunchTarget): Promise<boolean> {
  switch (route.kind) {
    case 'autologin':
      target.go((await fetchAutoLoginLink(route)).link);
      return true;
    case 'event':
      target.post(route.event);
      return true;
    case 'web':
      target.go(route.url);
      return true;
    case 'none':
      target.abandon();
      return false;
  }
}
