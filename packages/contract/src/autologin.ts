import { z } from 'zod';
import { text } from './text';
import { endpoint } from './http';
import { PASSWORD_MAX } from './rules';

/** Auto-login calls of spec section 7: GET, each answers a launch link. Paths as the spec writes them. */
const userParams = z.object({ username: text(64) });
const userPasswordParams = z.object({ username: text(64), password: text(PASSWORD_MAX * 4) });

export const autoLoginResponseSchema = z.object({ link: z.string().describe('URL that launches the game logged in') });
export type AutoLoginResponse = z.infer<typeof autoLoginResponseSchema>;

const common = { method: 'GET', auth: true, domain: 'autologin', response: autoLoginResponseSchema, duringBreak: 'refused' } as const;

export const autologinEndpoints = {
  autoLoginPg: endpoint({ ...common, path: '/api/autoLogin/pg/:username', params: userParams }),
  autoLoginBetflix: endpoint({ ...common, path: '/api/autoLogin/betflix/:username', params: userParams }),
  autoLoginAskmebet: endpoint({ ...common, path: '/api/autoLogin/askmebet/:username/:password', params: userPasswordParams }),
  autoLoginImi: endpoint({ ...common, path: '/api/autoLogin/imi/:username/:password', params: userPasswordParams }),
  autoLoginUsun: endpoint({ ...common, path: '/api/autoLogin/usun/:username/:password', params: userPasswordParams }),
  autoLoginAreaslot: endpoint({ ...common, path: '/api/autoLogin/areaslot/:username', params: userParams }),
  autoLoginCircus: endpoint({ ...common, path: '/api/autoLogin/circus/:username/:password', params: userPasswordParams }),
  autoLoginSlotracha: endpoint({ ...common, path: '/api/autoLogin/slotracha/:username/:password', params: userPasswordParams }),
  autoLoginPgslot: endpoint({ ...common, path: '/api/autoLogin/pgslot/:username/:password', params: userPasswordParams }),
  autoLoginJoker2: endpoint({ ...common, path: '/api/autoLogin/joker2/:username', params: userParams }),
  autoLoginHuayhd: endpoint({ ...common, path: '/api/autoLogin/huayhd/:username', params: userParams }),
};
