import type { OperatorRole } from '@mw/contract/admin';
import type { EndpointDef, OperatorStaffRole } from '@mw/contract/http';
import { operatorCalls } from '@mw/contract/operator/index';

/**
 * The roles matrix, read from the contract: each /api/operator/* definition's `roles` field (the
 * roles besides `owner`, who may call everything). A route without a definition is refused
 * (403 FORBIDDEN_ROLE) to every role but owner, and `operator-roles.test.ts` fails for any
 * registered /api/operator/* route without a definition. The README's roles matrix, the back
 * office's `can()` and the OpenAPI document are checked against this table by the same test.
 *
 * Roles (issue 21): owner — everything and the operators; finance — withdrawals, deposits
 * (unmatched, manual), slips, reconciliation, ledger check, member money views; support —
 * members (read, lock/unlock, notes), chat inbox, slips (read); marketing — bonuses, promotion
 * codes, wheel, banners, invite and refund rules, texts. Sandbox tools and site switches: owner.
 */
export const OPERATOR_ROUTE_ROLES: Readonly<Record<string, readonly OperatorStaffRole[]>> = Object.fromEntries(
  Object.values(operatorCalls as Record<string, EndpointDef>)
    .filter((def) => def.path.startsWith('/api/operator/'))
    .map((def) => [`${def.method} ${def.path}`, def.roles ?? []]),
);

/** The matrix's key of a route: HEAD is answered by its GET route. */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** Whether `role` may call the route: owner always; another role when the table names it. */
export function roleAllows(role: OperatorRole, method: string, url: string): boolean {
  if (role === 'owner') return true;
  return OPERATOR_ROUTE_ROLES[routeKey(method, url)]?.includes(role) ?? false;
}
