import type { OperatorRole } from '@mw/contract/admin';

/**
 * THE roles matrix: every operator route (`METHOD /route/pattern`, as registered) and the roles
 * that may call it besides `owner`, who may call everything. A route missing here is refused
 * (403 FORBIDDEN_ROLE) to every role but owner, and `operator-roles.test.ts` fails for any
 * registered /api/operator/* route without an entry (and for an entry without its route). The
 * README's roles matrix is checked against this table by the same test.
 *
 * Roles (issue 21): owner — everything and the operators; finance — withdrawals, deposits
 * (unmatched, manual), slips, reconciliation, ledger check, member money views; support —
 * members (read, lock/unlock, notes), chat inbox, slips (read); marketing — bonuses, promotion
 * codes, wheel, banners, invite and refund rules, texts. Sandbox tools and site switches: owner.
 */
export const OPERATOR_ROUTE_ROLES: Readonly<Record<string, readonly Exclude<OperatorRole, 'owner'>[]>> = {
  // Operators and the audit (owner only).
  'GET /api/operator/operators': [],
  'POST /api/operator/operators': [],
  'PUT /api/operator/operators/:id/role': [],
  'POST /api/operator/operators/:id/disable': [],
  'POST /api/operator/operators/:id/enable': [],
  'POST /api/operator/operators/:id/reset-totp': [],
  'GET /api/operator/audit': [],
  // Configuration changes of promotions (bonus, promotion codes, wheel, invite and refund rules, banners).
  'GET /api/operator/changes': ['marketing'],
  // Site switches: siteActive, registerOTP, enableChatWidget.
  'PUT /api/operator/settings/:key': [],

  // The dashboard (every role sees its queues).
  'GET /api/operator/dashboard': ['finance', 'support', 'marketing'],
  // Members: read by finance (money views) and support; lock and notes by support.
  'GET /api/operator/members': ['finance', 'support'],
  'GET /api/operator/members/:id': ['finance', 'support'],
  'GET /api/operator/members/:id/statement': ['finance', 'support'],
  'GET /api/operator/members/:id/slips': ['finance', 'support'],
  'GET /api/operator/members/:id/chat': ['finance', 'support'],
  'POST /api/operator/members/:id/lock': ['support'],
  'POST /api/operator/members/:id/notes': ['support'],

  // Withdrawals: payouts through the bank, manual completion, refusal.
  'GET /api/operator/withdrawals': ['finance'],
  'GET /api/operator/withdrawals/:id': ['finance'],
  'POST /api/operator/withdrawals/:id/approve': ['finance'],
  'POST /api/operator/withdrawals/:id/complete': ['finance'],
  'POST /api/operator/withdrawals/:id/reject': ['finance'],
  // Four eyes: the second approver of manual credits, assignments and payouts above the threshold.
  'GET /api/operator/approvals': ['finance'],
  'GET /api/operator/approvals/:id': ['finance'],
  'POST /api/operator/approvals/:id/approve': ['finance'],
  'POST /api/operator/approvals/:id/reject': ['finance'],
  // Deposits: channels, manual, unmatched.
  'GET /api/operator/deposit-channels': ['finance'],
  'PUT /api/operator/deposit-channels/:id': ['finance'],
  'PUT /api/operator/deposit-manual': ['finance'],
  'POST /api/operator/deposits': ['finance'],
  'GET /api/operator/deposits/unmatched': ['finance'],
  'POST /api/operator/deposits/:id/assign': ['finance'],
  // Deposits held by a member's deposit limit or break (responsible play): returned or released by finance
  // (a release the limit still refuses needs the owner's `force`).
  'GET /api/operator/deposits/held': ['finance'],
  'POST /api/operator/deposits/held/:id/release': ['finance'],
  'POST /api/operator/deposits/held/:id/return': ['finance'],
  // A member's responsible-play state: read by finance and support; a lift of a break is refused to everyone (and audited).
  'GET /api/operator/members/:id/responsible': ['finance', 'support'],
  'DELETE /api/operator/members/:id/responsible/break': ['support'],
  'PUT /api/operator/members/:id/responsible/break': ['support'],
  // Slips: finance decides, support reads.
  'GET /api/operator/slips': ['finance', 'support'],
  'POST /api/operator/slips/:id/approve': ['finance'],
  'POST /api/operator/slips/:id/reject': ['finance'],
  'GET /api/operator/slip-settings': ['finance'],
  'PUT /api/operator/slip-settings': ['finance'],
  // Reconciliation and the ledger check.
  'GET /api/operator/reconciliation': ['finance'],
  'GET /api/operator/ledger/check': ['finance'],

  // Chat inbox.
  'GET /api/operator/chat/conversations': ['support'],
  'GET /api/operator/chat/conversations/:id/messages': ['support'],
  'POST /api/operator/chat/conversations/:id/messages': ['support'],
  'PUT /api/operator/chat/conversations/:id/read': ['support'],
  'POST /api/operator/chat/conversations/:id/close': ['support'],
  'PUT /api/operator/chat/conversations/:id/assignee': ['support'],
  'POST /api/operator/chat/uploads/:kind': ['support'],

  // Promotions: bonuses, promotion codes, wheel (and its coins), banners, invite and refund rules.
  'GET /api/operator/bonuses': ['marketing'],
  'PUT /api/operator/bonuses/:code': ['marketing'],
  'GET /api/operator/promotions': ['marketing'],
  'PUT /api/operator/promotions/:code': ['marketing'],
  'GET /api/operator/spinwheel': ['marketing'],
  'PUT /api/operator/spinwheel': ['marketing'],
  'POST /api/operator/members/:id/coins': ['marketing'],
  'GET /api/operator/invite-banners': ['marketing'],
  'PUT /api/operator/invite-banners': ['marketing'],
  'GET /api/operator/refund-banners': ['marketing'],
  'PUT /api/operator/refund-banners': ['marketing'],
  'GET /api/operator/invite-settings': ['marketing'],
  'PUT /api/operator/invite-settings': ['marketing'],
  'GET /api/operator/refund-settings': ['marketing'],
  'PUT /api/operator/refund-settings': ['marketing'],

  // Sandbox tools (exist only while the sandboxes do).
  'PUT /api/operator/sandbox/games/:code/fault': [],
  'POST /api/operator/sandbox/games/:code/rounds': [],
  'PUT /api/operator/sandbox/bank/fault': [],
  'GET /api/operator/sandbox/bank/payout-fault': [],
  'PUT /api/operator/sandbox/bank/payout-fault': [],
  'PUT /api/operator/sandbox/ewallet/fault': [],
  'PUT /api/operator/sandbox/clock': [],
};

/** The matrix's key of a route: HEAD is answered by its GET route. */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** Whether `role` may call the route: owner always; another role when the table names it. */
export function roleAllows(role: OperatorRole, method: string, url: string): boolean {
  if (role === 'owner') return true;
  return OPERATOR_ROUTE_ROLES[routeKey(method, url)]?.includes(role) ?? false;
}
