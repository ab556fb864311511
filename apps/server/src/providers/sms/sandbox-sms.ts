import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { SmsProvider } from './sms-provider';

export interface SandboxSmsMessage {
  phoneNumber: string;
  text: string;
  createdAt: Date;
}

/**
 * The sandbox SMS gateway: delivers nothing, keeps every message in the database (so every
 * server process sees it) and shows it through GET /api/sandbox/sms.
 */
export class SandboxSmsProvider implements SmsProvider {
  readonly name = 'sandbox';

  constructor(private readonly db: Kysely<DB>) {}

  async send(phoneNumber: string, text: string): Promise<void> {
    await this.db.insertInto('sandbox_sms').values({ phone: phoneNumber, text }).execute();
  }

  async outbox(phoneNumber: string, limit = 20): Promise<SandboxSmsMessage[]> {
    const rows = await this.db
      .selectFrom('sandbox_sms')
      .select(['phone', 'text', 'created_at'])
      .where('phone', '=', phoneNumber)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ phoneNumber: r.phone, text: r.text, createdAt: r.created_at }));
  }
}
