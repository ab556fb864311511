import { adminEndpoints } from '../admin';
import type { EndpointDef } from '../http';
import { approvalOperatorCalls, responsibleOperatorCalls } from './approval';
import { backofficeOperatorCalls } from './backoffice';
import { chatOperatorCalls } from './chat';
import { depositOperatorCalls, depositSandboxCalls, depositWebhookCalls } from './deposit';
import { ledgerOperatorCalls, otpSandboxCalls } from './ledger';
import { payoutOperatorCalls } from './payout';
import { promotionOperatorCalls } from './promotions';
import { reportOperatorCalls } from './reports';
import { riskOperatorCalls } from './risk';
import { seamlessCalls } from './seamless';
import { settingsCalls } from './settings';

/**
 * Every call outside the member app's list: the back office's (admin.ts and the operator calls of
 * each domain, contract/operator/*), the providers' webhooks and the sandbox providers' calls.
 * The server registers each of these routes from its definition (http/contract-route.ts) and a
 * test fails for a route under /api/operator, /api/admin, /api/webhooks or /api/sandbox without
 * one. The member app never imports this file (its first load stays as it is).
 */
export const operatorCalls = {
  ...adminEndpoints,
  ...settingsCalls,
  ...depositOperatorCalls,
  ...depositWebhookCalls,
  ...depositSandboxCalls,
  ...promotionOperatorCalls,
  ...approvalOperatorCalls,
  ...responsibleOperatorCalls,
  ...payoutOperatorCalls,
  ...chatOperatorCalls,
  ...backofficeOperatorCalls,
  ...reportOperatorCalls,
  ...ledgerOperatorCalls,
  ...otpSandboxCalls,
  ...seamlessCalls,
  ...riskOperatorCalls,
};

export type OperatorCalls = typeof operatorCalls;
export type OperatorCallName = keyof OperatorCalls;

/** The name of each call, by its definition. */
export const operatorCallNames: ReadonlyMap<EndpointDef, OperatorCallName> = new Map(
  (Object.entries(operatorCalls) as Array<[OperatorCallName, EndpointDef]>).map(([name, def]) => [def, name]),
);
