import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_CHANGE_FAILS_PER_HOUR } from '../src/modules/operators/operator-service';
import { call, dbKinds, startApp, type TestApp } from './helpers';
import { newOperator, operatorLogin, useTestClock } from './operator-helpers';

/** Issue 37 item 7: wrong current passwords on PUT /api/admin/password are limited per operator. */
describe.each(dbKinds)('password change guesses on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440' });
    useTestClock(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers WRONG_PASSWORD up to the limit, then 429 even for the right one; right answers do not count', async () => {
    const owner = await operatorLogin(t, 'owner');
    const agent = await newOperator(t, 'support', owner);
    const token = await operatorLogin(t, agent.username, agent.password, agent.secret);
    const change = (oldPassword: string) => call(t.app, 'PUT', '/api/admin/password', { token, body: { oldPassword, newPassword: 'a-brand-new-password-1' } });
    for (let i = 0; i < PASSWORD_CHANGE_FAILS_PER_HOUR; i += 1) {
      const wrong = await change(`wrong-password-${i}-xx`);
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ message: 'WRONG_PASSWORD' });
    }
    const limited = await change(agent.password);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ message: 'REQUEST_LIMIT' });
  });

  it('the right current password is not counted against the operator', async () => {
    const owner = await operatorLogin(t, 'owner');
    const agent = await newOperator(t, 'support', owner);
    let token = await operatorLogin(t, agent.username, agent.password, agent.secret);
    let password = agent.password;
    for (let i = 0; i < PASSWORD_CHANGE_FAILS_PER_HOUR + 1; i += 1) {
      const next = `${agent.password}-${i}`;
      const changed = await call<{ token: string }>(t.app, 'PUT', '/api/admin/password', { token, body: { oldPassword: password, newPassword: next } });
      expect(changed.status).toBe(200);
      token = changed.body.token;
      password = next;
    }
  });
});
