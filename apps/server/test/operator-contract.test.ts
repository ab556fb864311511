import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorCalls } from '@mw/contract/operator/index';
import { startApp, type TestApp } from './helpers';

/** The routes the contract must describe: operator, admin, webhook and sandbox calls. */
const OUTSIDE_MEMBER_APP = /^\/api\/(operator|admin|webhooks|sandbox)\//;

/**
 * Routes not yet described in the contract (being converted module by module). This list may
 * only shrink: a new route under those prefixes needs its definition in contract/operator/*.
 */
const PENDING: readonly string[] = [];

describe('every operator, admin, webhook and sandbox route is a contract call', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Sandboxes on (the test default): their routes are registered too.
    t = await startApp('embedded');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is registered from its definition in contract/operator/* (or contract/admin.ts)', () => {
    const routes = t.app.registeredRoutes.filter((r) => OUTSIDE_MEMBER_APP.test(r.url) && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(60);
    const without = routes.filter((r) => !r.contract).map((r) => `${r.method} ${r.url}`);
    expect(without.sort(), 'routes registered without a contract definition (use http/contract-route.ts)').toEqual([...PENDING].sort());
  });

  it('has a registered route for every definition, at its method and path', () => {
    const registered = new Set(t.app.registeredRoutes.map((r) => `${r.method} ${r.url} ${r.contract ?? ''}`));
    const missing = Object.entries(operatorCalls)
      .map(([name, def]) => `${def.method} ${def.path} ${name}`)
      .filter((key) => !registered.has(key));
    expect(missing).toEqual([]);
  });
});
