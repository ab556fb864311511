import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { defineModule } from '../../platform/module';
import { statementHandlers } from './statement-routes';
import { StatementService } from './statement-service';
import { moduleDb } from '../../db/database';
import type { MoneyReads } from '../../money';

declare module '../../platform/services' {
  interface Services {
    statements: StatementService;
  }
}

const imageQuery = z.object({ exp: z.string().max(16).default(''), sig: z.string().max(128).default('') });

/** The member's statement (operations, read with their ledger answers) and slip history. */
export const statementModule = defineModule({
  name: 'statement',
  migrations: [
    {
      id: 'statement/001_slips',
      appliedWith: '005_money_core',
      sql: `
CREATE TABLE slips (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  reference text NOT NULL UNIQUE,
  amount bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
  note text,
  image_path text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX slips_member_time ON slips (member_id, created_at DESC, id DESC);`,
    },
  {
    id: 'statement/002_slip_uploads',
    sql: `
-- Slips uploaded by members (the deposit module writes them): the transfer a slip names (sending
-- bank + reference), unique among slips in progress or credited, and the image.
ALTER TABLE slips ADD COLUMN transfer_key text;
ALTER TABLE slips ADD COLUMN image bytea;
ALTER TABLE slips ADD COLUMN image_type text;
CREATE UNIQUE INDEX slips_transfer_once ON slips (transfer_key) WHERE status <> 'FAILED' AND transfer_key IS NOT NULL;`,
  },
  {
    id: 'statement/003_slip_checks',
    sql: `
-- When a slip in progress was last asked of the bank (the deposit module's re-check loop).
ALTER TABLE slips ADD COLUMN checked_at timestamptz;
CREATE INDEX slips_in_progress ON slips (created_at) WHERE status = 'PENDING';`,
  },
  {
    id: 'statement/004_slip_transfer_columns',
    sql: `
-- A slip's transfer is the sending bank and its reference in their own columns (was one string
-- "BANK:REF" that the deposit module split again, and a reference with ':' in it named another
-- transfer). Kept here with the table (the deposit module writes slips; the table is this module's).
ALTER TABLE slips ADD COLUMN transfer_bank text;
ALTER TABLE slips ADD COLUMN transfer_ref text;
UPDATE slips SET transfer_bank = split_part(transfer_key, ':', 1), transfer_ref = split_part(transfer_key, ':', 2)
  WHERE transfer_key ~ '^[A-Z0-9]{2,16}:[A-Za-z0-9]{6,40}$';
-- A slip in progress whose reference no bank issues (a forged QR) fails.
UPDATE slips SET status = 'FAILED', note = 'INVALID_SLIP' WHERE status = 'PENDING' AND transfer_key IS NOT NULL AND transfer_ref IS NULL;
DROP INDEX slips_transfer_once;
ALTER TABLE slips DROP COLUMN transfer_key;
ALTER TABLE slips ADD CONSTRAINT slips_transfer_format CHECK (
  (transfer_bank IS NULL AND transfer_ref IS NULL)
  OR (transfer_bank ~ '^[A-Z0-9]{2,16}$' AND transfer_ref ~ '^[A-Za-z0-9]{6,40}$'));
-- One credited slip per transfer; one slip in progress per member and transfer. A slip in progress
-- does not hold the transfer against others: only the sender's own can pass the checks.
CREATE UNIQUE INDEX slips_transfer_credited ON slips (transfer_bank, upper(transfer_ref)) WHERE status = 'SUCCESS';
CREATE UNIQUE INDEX slips_transfer_pending ON slips (member_id, transfer_bank, upper(transfer_ref)) WHERE status = 'PENDING';`,
  },
  {
    // The slips table is deposit's (its service and types); its DDL history stays here, where it began.
    id: 'statement/005_slip_request_key',
    sql: `
-- The member's Idempotency-Key of the upload that recorded the slip (a definite answer: in progress,
-- credited or refused with a 4xx): an upload whose process died before its answer was kept finds
-- its slip when sent again and answers from it, instead of recording the image twice.
ALTER TABLE slips ADD COLUMN request_key text;
CREATE UNIQUE INDEX slips_request_key ON slips (member_id, request_key) WHERE request_key IS NOT NULL;`,
  },
  {
    id: 'statement/006_slip_request_answer',
    sql: `
-- Beside the upload's key: its request's hash (the key with another file is IDEMPOTENCY_KEY_REUSED,
-- never this slip's answer) and the status its answer had (200 in progress or credited, 400/409
-- refused): a re-run answers with that status whatever the slip became since.
ALTER TABLE slips ADD COLUMN request_hash text;
ALTER TABLE slips ADD COLUMN request_status smallint;`,
  },
  ],
  setup(services) {
    services.statements = new StatementService(moduleDb<MoneyReads>(services.database));
  },
  handlers: statementHandlers,
  // A slip image, at a private link (see SlipLinks): no token needed, a forged or expired link is 404.
  routes(app, services) {
    app.withTypeProvider<ZodTypeProvider>().get('/api/slips/:id/image', { schema: { params: z.object({ id: z.string().min(1).max(64) }), querystring: imageQuery } }, async (request, reply) => {
      const { id } = request.params;
      const { exp, sig } = request.query;
      const image = await services.slipHistory.image(id, exp, sig);
      if (!image) return reply.status(404).send({ message: 'NOT_FOUND' });
      return reply
        .type(image.type)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; img-src 'self'")
        .header('content-disposition', 'inline')
        .send(image.bytes);
    });
  },
});
