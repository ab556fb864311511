import { defineModule } from '../../platform/module';
import { statementHandlers } from './statement-routes';
import { StatementService } from './statement-service';
import './tables';

declare module '../../platform/services' {
  interface Services {
    statements: StatementService;
  }
}

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
  ],
  setup(services) {
    services.statements = new StatementService(services.database.db);
  },
  handlers: statementHandlers,
});
