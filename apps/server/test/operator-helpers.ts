import type { OperatorRole } from '@mw/contract/admin';
import { DEMO_OPERATOR_PASSWORD, DEMO_TOTP_SECRET } from '../src/modules/operators/operator-service';
import { totpCode } from '../src/modules/operators/totp';
import { call, type TestApp } from './helpers';

/**
 * Operators in tests. A TOTP code is taken once per 30-second step and operator, so the tests
 * drive the operators' clock: `nextStep` moves it on by one step (the sessions' life and idle
 * time follow the same clock; suites that log in often raise OPERATOR_IDLE_MINUTES).
 */
const offsets = new WeakMap<TestApp, number>();

export function useTestClock(t: TestApp): void {
  offsets.set(t, 0);
  t.services.operators.clock.now = () => new Date(Date.now() + (offsets.get(t) ?? 0));
}

/** Moves the operators' clock on (a TOTP step by default). */
export function advance(t: TestApp, ms = 30_000): void {
  offsets.set(t, (offsets.get(t) ?? 0) + ms);
}

export function codeNow(t: TestApp, secret = DEMO_TOTP_SECRET): string {
  return totpCode(secret, t.services.operators.clock.now());
}

/** Password, then a TOTP code of a fresh step: the session token. */
export async function operatorLogin(t: TestApp, username: string, password = DEMO_OPERATOR_PASSWORD, secret = DEMO_TOTP_SECRET): Promise<string> {
  advance(t);
  const first = await call<{ challenge: string }>(t.app, 'POST', '/api/admin/login', { body: { username, password } });
  if (first.status !== 200) throw new Error(`admin login ${first.status} ${JSON.stringify(first.body)}`);
  const second = await call<{ token: string }>(t.app, 'POST', '/api/admin/login/totp', { body: { challenge: first.body.challenge, code: codeNow(t, secret) } });
  if (second.status !== 200) throw new Error(`admin totp ${second.status} ${JSON.stringify(second.body)}`);
  return second.body.token;
}

let counter = 0;
/** A new operator of a role, created by the owner through the API and enrolled: its credentials. */
export async function newOperator(t: TestApp, role: OperatorRole, ownerToken: string): Promise<{ id: string; username: string; password: string; secret: string }> {
  counter += 1;
  const username = `${role}-${counter}-${Date.now() % 100_000}`;
  const created = await call<{ operator: { id: string }; enrolment: { token: string } }>(t.app, 'POST', '/api/operator/operators', { token: ownerToken, body: { username, role, name: `Test ${role}` } });
  if (created.status !== 200) throw new Error(`create operator ${created.status} ${JSON.stringify(created.body)}`);
  const shown = await call<{ secret: string }>(t.app, 'GET', `/api/admin/enrol/${created.body.enrolment.token}`);
  if (shown.status !== 200) throw new Error(`enrolment ${shown.status} ${JSON.stringify(shown.body)}`);
  const password = `password-of-${username}`;
  advance(t);
  const done = await call(t.app, 'POST', `/api/admin/enrol/${created.body.enrolment.token}`, { body: { password, code: codeNow(t, shown.body.secret) } });
  if (done.status !== 200) throw new Error(`enrol ${done.status} ${JSON.stringify(done.body)}`);
  return { id: created.body.operator.id, username, password, secret: shown.body.secret };
}

/**
 * For suites about payouts, not risk: the low-turnover risk signal (its own suite: risk.test.ts)
 * is switched off, as an owner may, so that a withdrawal of money never played is not sent to a
 * second person because of its flag.
 */
export async function withoutTurnoverSignal(t: TestApp): Promise<void> {
  await t.services.risk.rules.set({ ...(await t.services.risk.rules.get()), withdrawalTurnoverPercent: 0 });
}
