import type { FastifyInstance } from 'fastify';
import { otpSandboxCalls } from '@mw/contract/operator/ledger';
import { contractRoute } from '../../http/contract-route';
import type { SandboxSmsProvider } from '../../providers/sms/sandbox-sms';

/**
 * Sandbox-only calls. GET /api/sandbox/sms?phoneNumber=… lists the messages the sandbox SMS
 * gateway "sent" to that phone, newest first. The route is not registered unless the sandbox
 * SMS provider is selected.
 */
export function registerSandboxSmsRoutes(app: FastifyInstance, sandbox: SandboxSmsProvider): void {
  contractRoute(app, otpSandboxCalls.sandboxSms, async ({ query: { phoneNumber } }) => {
    const messages = await sandbox.outbox(phoneNumber);
    return { messages: messages.map((m) => ({ phoneNumber: m.phoneNumber, text: m.text, createdAt: m.createdAt.toISOString() })) };
  });
}
