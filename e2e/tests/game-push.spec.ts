import { expect, test, type APIResponse } from '@playwright/test';
import { loginInBrowser, loginViaApi, OPERATOR_TOKEN, registerViaApi, skipAgreement } from './support';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

async function ok(response: Promise<APIResponse>): Promise<unknown> {
  const answer = await response;
  const body: unknown = await answer.json().catch(() => null);
  expect(answer.ok(), `${answer.url()} answered ${answer.status()} ${JSON.stringify(body)}`).toBe(true);
  return body;
}

test('a sandbox win at PG shows on the open home page within 2 s, without "check balance" or a reload', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  const headers = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
  await ok(request.post('/api/wallet/add', { data: { amount: 500 }, headers }));
  await ok(request.get('/api/wallet/activate/PG', { headers }));
  const { username } = (await ok(request.get('/api/wallet/account/PG', { headers }))) as { username: string };
  await ok(request.post('/api/wallet/transfer', { data: { from: 'WALLET', to: 'PG', amount: 500 }, headers }));

  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);
  const balance = page.getByTestId('game-card-PG').getByTestId('game-card-balance');
  await expect(balance).toContainText('500.00');
  await expect(page.getByTestId('balance-push')).toHaveAttribute('data-state', 'live');
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  // One round at the provider: ฿100 staked, ×5 won (the game balance goes from ฿500 to ฿900).
  await ok(request.post('/api/operator/sandbox/games/PG/rounds', { data: { username, stake: 10_000, multiplier: 5, rounds: 1 }, headers: operator }));
  await expect(balance).toContainText('900.00', { timeout: 2_000 });
  expect(navigations).toBe(0);
});
