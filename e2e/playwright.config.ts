import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

/** The servers' ports: 3190, 3191 (and 3290, Laos mode) unless E2E_PORT moves them (to run two suites side by side). */
const MAIN_PORT = Number(process.env.E2E_PORT ?? 3190);
export const MAIN_URL = `http://127.0.0.1:${MAIN_PORT}`;
export const TERMINATED_URL = `http://127.0.0.1:${MAIN_PORT + 1}`;
/**
 * A server with LAOS_MODE=true: the Lao site from the server's one switch. 100 ports up, clear of
 * the main and terminated ports of suites run side by side on neighbouring E2E_PORTs.
 */
export const LAOS_URL = `http://127.0.0.1:${MAIN_PORT + 100}`;

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  // On CI a failed test runs once more; one that passes then is "flaky" and npm test names it at the end.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '../.test-results/playwright.json' }]],
  use: {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'th-TH',
    timezoneId: 'Asia/Bangkok',
    screenshot: 'only-on-failure',
    trace: 'off',
    // A lost action or navigation fails at its own line instead of eating the whole test's time.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
    // The app's service worker would precache every asset in every test's browser context (about
    // 2 MB each): only the installable-app tests (pwa.spec.ts) let it run.
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'main', testIgnore: /(terminated|laos.*)\.spec\.ts/, use: { baseURL: MAIN_URL } },
    // Terminating the site is global, so it runs against a server of its own.
    { name: 'terminated', testMatch: /terminated\.spec\.ts/, use: { baseURL: TERMINATED_URL } },
    // The Lao site (LAOS_MODE=true on the server, the same build): a server of its own.
    { name: 'laos', testMatch: /laos.*\.spec\.ts/, use: { baseURL: LAOS_URL } },
  ],
  webServer: [
    { command: `node e2e/serve.mjs main ${MAIN_PORT}`, cwd: '..', url: `${MAIN_URL}/healthz`, timeout: 120_000, reuseExistingServer: false },
    { command: `node e2e/serve.mjs terminated ${MAIN_PORT + 1}`, cwd: '..', url: `${TERMINATED_URL}/healthz`, timeout: 120_000, reuseExistingServer: false },
    { command: `node e2e/serve.mjs laos ${MAIN_PORT + 100}`, cwd: '..', url: `${LAOS_URL}/healthz`, timeout: 120_000, reuseExistingServer: false },
  ],
});
