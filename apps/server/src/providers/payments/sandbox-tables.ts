import type { Migration } from '../../db/migrations';

/**
 * The in-process QR gateway sandbox's table, as it shipped (a migration that has shipped is never
 * edited): the gateways' state now lives in the sandbox service (apps/sandbox, its `gateway`
 * system), so deposit/010 drops it. A fresh database makes and drops it once.
 */
export const sandboxGatewayMigrations: readonly Migration[] = [
  {
    id: 'deposit/002_sandbox_gateway',
    sql: `
CREATE TABLE sandbox_gateway_orders (
  gateway_ref text PRIMARY KEY,
  provider text NOT NULL,
  reference text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('OPEN', 'PAID', 'CANCELLED')),
  expires_at timestamptz NOT NULL,
  payment_id text UNIQUE,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);`,
  },
];

export const dropSandboxGatewayMigrations: readonly Migration[] = [{ id: 'deposit/010_drop_sandbox_gateway', sql: `DROP TABLE IF EXISTS sandbox_gateway_orders;` }];
