import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forbidden } from '../../lib/errors';
import type { Services } from '../../services';

/** Settings an operator may switch over the API. */
const switchable = z.enum(['siteActive', 'registerOTP', 'enableChatWidget']);

/**
 * Operator calls, until the back office exists. They need `Authorization: Bearer OPERATOR_TOKEN`
 * and are closed when OPERATOR_TOKEN is not configured. They keep working on a terminated site,
 * so the site can be brought back.
 *   PUT /api/operator/settings/:key { value: boolean }  — siteActive, registerOTP, enableChatWidget
 */
export function registerOperatorRoutes(app: FastifyInstance, { config, settings }: Services): void {
  const token = config.OPERATOR_TOKEN;
  const guard = async (request: FastifyRequest) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token ?? ''}`);
    if (!token || given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden('FORBIDDEN');
  };
  app.put(
    '/api/operator/settings/:key',
    {
      preHandler: guard,
      schema: {
        params: z.strictObject({ key: switchable }),
        body: z.strictObject({ value: z.boolean() }),
        response: { 200: z.object({ key: z.string(), value: z.boolean() }) },
      },
    },
    async (request) => {
      const { key } = request.params as { key: z.infer<typeof switchable> };
      const { value } = request.body as { value: boolean };
      await settings.set(key, value);
      return { key, value };
    },
  );
}
