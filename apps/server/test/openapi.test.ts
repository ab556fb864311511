import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '@mw/contract/endpoints';
import { OPERATOR_TOKEN, startApp, type TestApp } from './helpers';

/** `/api/wallet/activate/:code` as OpenAPI writes it: `/api/wallet/activate/{code}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

interface Operation {
  operationId?: string;
  parameters?: Array<{ in: string; name: string }>;
  responses: Record<string, unknown>;
  security?: Array<Record<string, unknown>>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; info: { description: string } };

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  const routes: Array<{ method: string; url: string }> = [];

  beforeAll(async () => {
    t = await startApp('embedded');
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = JSON.parse(res.body) as Doc;
    routes.push(...t.app.registeredRoutes);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is valid OpenAPI 3.1 (a standard validator)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document.
    const broken = await new Validator().validate({ ...doc, info: undefined, paths: { '/x': { get: { responses: 'none' } } } } as unknown as Record<string, unknown>);
    expect(broken.valid).toBe(false);
  });

  it('has every contract call with its method, name and answer; money calls take an Idempotency-Key', () => {
    for (const [name, def] of endpointList) {
      const operation = doc.paths[openApiPath(def.path)]?.[def.method.toLowerCase()];
      expect(operation, `${def.method} ${def.path}`).toBeDefined();
      if (!operation) continue;
      expect(operation.operationId).toBe(name);
      expect(operation.responses['200']).toBeDefined();
      expect(operation.responses['400']).toBeDefined();
      const keyed = operation.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key') ?? false;
      expect(keyed, `${name} Idempotency-Key`).toBe(def.movesMoney === true);
      if (def.movesMoney) expect(operation.responses['409']).toBeDefined();
      if (def.auth) expect(operation.security).toEqual([{ member: [] }]);
    }
  });

  it('has every other API route too: operator, webhook and sandbox calls', () => {
    const api = routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD');
    expect(api.length).toBeGreaterThan(endpointList.length);
    for (const route of api) {
      expect(doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()], `${route.method} ${route.url}`).toBeDefined();
    }
    for (const path of ['/api/operator/withdrawals', '/api/webhooks/payments/{provider}', '/api/webhooks/bank/{bankCode}', '/api/operator/sandbox/clock']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    // A webhook documents the body it verifies and its signature scheme.
    const webhook = doc.paths['/api/webhooks/payments/{provider}']?.post as Operation & { requestBody?: unknown };
    expect(webhook.requestBody).toBeDefined();
    expect(webhook.security).toEqual([{ webhookSignature: [] }]);
    expect(doc.info.description).toContain('HMAC-SHA256');
  });

  it('serves the reference page from the package (no CDN)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
  });
});

describe('the OpenAPI document in production', () => {
  it('is for operators only, unless API_DOCS_PUBLIC=true', async () => {
    const closed = await startApp('embedded', { NODE_ENV: 'production', SMS_PROVIDER: 'sandbox' });
    try {
      const anonymous = await closed.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
      expect([401, 403]).toContain(anonymous.statusCode);
      const page = await closed.app.inject({ method: 'GET', url: '/api/docs/' });
      expect([401, 403]).toContain(page.statusCode);
      const operator = await closed.app.inject({ method: 'GET', url: '/api/docs/openapi.json', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      expect(operator.statusCode).toBe(200);
    } finally {
      await closed.close();
    }
    const open = await startApp('embedded', { NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', API_DOCS_PUBLIC: 'true' });
    try {
      expect((await open.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).statusCode).toBe(200);
    } finally {
      await open.close();
    }
  });
});
