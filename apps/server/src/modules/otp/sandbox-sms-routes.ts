import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sandboxSmsResponseSchema } from '@mw/contract/account';
import type { SandboxSmsProvider } from '../../providers/sms/sandbox-sms';

/**
 * Sandbox-only calls. GET /api/sandbox/sms?phoneNumber=… lists the messages the sandbox SMS
 * gateway "sent" to that phone, newest first. The route is not registered unless the sandbox
 * SMS provider is selected.
 */
export function registerSandboxSmsRoutes(app: FastifyInstance, sandbox: SandboxSmsProvider): void {
  app.get(
    '/api/sandbox/sms',
    {
      schema: {
        querystring: z.strictObject({ phoneNumber: z.string().regex(/^\d{6,20}$/) }),
        response: { 200: sandboxSmsResponseSchema },
      },
    },
    async (request) => {
      const { phoneNumber } = request.query as { phoneNumber: string };
      const messages = await sandbox.outbox(phoneNumber);
      return { messages: messages.map((m) => ({ phoneNumber: m.phoneNumber, text: m.text, createdAt: m.createdAt.toISOString() })) };
    },
  );
}
