import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_ROLES, type OperatorRole } from '@mw/contract/admin';
import { operatorRoutesOf } from '../src/platform/operator';
import { OPERATOR_ROUTE_ROLES, roleAllows, routeKey } from '../src/platform/operator-roles';
import { operatorCalls } from '@mw/contract/operator/index';
import type { EndpointDef } from '@mw/contract/http';
import { CAPABILITIES, can } from '../../web/admin/src/shared/roles';
import { call, concrete, dbKinds, OPERATOR_TOKEN, startApp, type TestApp } from './helpers';
import { operatorLogin, useTestClock } from './operator-helpers';

/** The manual's roles matrix (docs/back-office.md, linked from the README): `| \`METHOD /path\` | ✓ | ✓ |  |  |` rows under "## Roles matrix". */
function readmeMatrix(): Map<string, OperatorRole[]> {
  const readme = readFileSync(resolve(import.meta.dirname, '../../../docs/back-office.md'), 'utf8');
  const section = readme.split('## Roles matrix')[1]?.split(/\n#{2,3} /)[0] ?? '';
  const rows = new Map<string, OperatorRole[]>();
  for (const line of section.split('\n')) {
    const match = /^\| `([A-Z]+ \/api\/operator\/[^`]+)` \|(.*)\|\s*$/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    const marks = match[2].split('|').map((cell) => cell.trim() === '✓');
    rows.set(match[1], OPERATOR_ROLES.filter((_role, i) => marks[i]));
  }
  return rows;
}

describe('the roles matrix', () => {
  it('is the README\'s roles matrix, row for row', () => {
    const expected = new Map(Object.entries(OPERATOR_ROUTE_ROLES).map(([key, roles]) => [key, OPERATOR_ROLES.filter((r) => r === 'owner' || (roles as readonly string[]).includes(r))]));
    expect(Object.fromEntries(readmeMatrix())).toEqual(Object.fromEntries(expected));
  });
});

describe('one roles matrix: the contract, the server, the back office and the OpenAPI document', () => {
  const defs = Object.entries(operatorCalls as Record<string, EndpointDef>).filter(([, def]) => def.path.startsWith('/api/operator/'));

  it('the server allows exactly the contract definition\'s roles (and owner)', () => {
    for (const [name, def] of defs) {
      for (const role of OPERATOR_ROLES) {
        const expected = role === 'owner' || (def.roles ?? []).some((r) => r === role);
        expect(roleAllows(role, def.method, def.path), `${name} as ${role}`).toBe(expected);
      }
    }
  });

  it('the back office shows a capability to exactly the roles its call allows', () => {
    for (const [capability, name] of Object.entries(CAPABILITIES)) {
      const def = (operatorCalls as Record<string, EndpointDef>)[name];
      expect(def, `capability ${capability} names a contract call`).toBeDefined();
      if (!def) continue;
      for (const role of OPERATOR_ROLES) {
        expect(can(role, capability as keyof typeof CAPABILITIES), `${capability} as ${role}`).toBe(roleAllows(role, def.method, def.path));
      }
    }
  });
});

describe.each(dbKinds)('operator routes × roles on %s', (kind) => {
  let t: TestApp;
  const tokens = new Map<OperatorRole, string>();
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440' });
    useTestClock(t);
    for (const role of OPERATOR_ROLES) tokens.set(role, await operatorLogin(t, role));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has an entry for every registered operator route, and a route for every entry', () => {
    const routes = operatorRoutesOf(t.app).map((r) => routeKey(r.method, r.url));
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((key) => !(key in OPERATOR_ROUTE_ROLES)), 'operator routes missing from platform/operator-roles.ts').toEqual([]);
    expect(Object.keys(OPERATOR_ROUTE_ROLES).filter((key) => !routes.includes(key)), 'entries of operator-roles.ts without a route').toEqual([]);
  });

  it('answers every route as the matrix says: 401 without credentials, 403 FORBIDDEN_ROLE outside the role, through otherwise', async () => {
    const wrong: string[] = [];
    for (const { method, url } of operatorRoutesOf(t.app)) {
      const path = concrete(url);
      const verb = method as 'GET' | 'POST' | 'PUT' | 'DELETE';
      const body = verb === 'GET' ? undefined : {};
      for (const headers of [{}, { authorization: 'Bearer not-a-session-token-at-all' }] as Array<Record<string, string>>) {
        const anonymous = await call(t.app, verb, path, { body, headers });
        if (anonymous.status !== 401 || anonymous.body.message !== 'UNAUTHORIZED') wrong.push(`${method} ${url} anonymous: ${anonymous.status} ${JSON.stringify(anonymous.body)}`);
      }
      for (const role of OPERATOR_ROLES) {
        const res = await call(t.app, verb, path, { body, token: tokens.get(role) });
        const refused = res.status === 403 && res.body.message === 'FORBIDDEN_ROLE';
        if (roleAllows(role, method, url) === refused || res.status === 401 || res.status >= 500) wrong.push(`${method} ${url} as ${role}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      const key = await call(t.app, verb, path, { body, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      // Through for the owner's key: a 403 may only be the route's own refusal (a break is never lifted), not the role's.
      const keyRefused = key.status === 403 && (key.body.message === 'FORBIDDEN_ROLE' || key.body.message === 'FORBIDDEN');
      if (key.status === 401 || keyRefused || key.status >= 500) wrong.push(`${method} ${url} with the api-key: ${key.status} ${JSON.stringify(key.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the OpenAPI document names each operator call\'s roles (x-roles) as the matrix does', async () => {
    const doc = await call<{ paths: Record<string, Record<string, { 'x-roles'?: string[] }>> }>(t.app, 'GET', '/api/docs/openapi.json');
    const wrong: string[] = [];
    for (const [key, roles] of Object.entries(OPERATOR_ROUTE_ROLES)) {
      const [method, url] = key.split(' ') as [string, string];
      const path = url.replace(/:([A-Za-z]+)/g, '{$1}');
      const documented = doc.body.paths[path]?.[method.toLowerCase()]?.['x-roles'];
      if (JSON.stringify(documented) !== JSON.stringify(['owner', ...roles])) wrong.push(`${key}: ${JSON.stringify(documented)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('records a refused call in the audit', async () => {
    await call(t.app, 'POST', '/api/operator/withdrawals/abc/complete', { token: tokens.get('marketing') });
    const audit = await call<{ rows: Array<{ operator: string; role: string; target: string }> }>(t.app, 'GET', '/api/operator/audit?action=denied&operator=marketing', { token: tokens.get('owner') });
    expect(audit.body.rows[0]).toMatchObject({ operator: 'marketing', role: 'marketing', target: 'POST /api/operator/withdrawals/:id/complete' });
  });
});
