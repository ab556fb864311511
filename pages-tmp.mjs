import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium.mjs';
const BASE = 'http://127.0.0.1:3391';
const server = spawn(process.execPath, ['apps/server/dist/main.js'], { stdio: 'ignore', env: { ...process.env, PORT: '3391', HOST: '127.0.0.1', DATA_DIR: 'memory', SEED_DEMO: 'true', NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', PAYMENT_GATEWAY: 'sandbox', BANK_PROVIDER: 'sandbox', GAME_PROVIDER: 'sandbox', CHAT_BOT: 'off' } });
for (let i = 0; i < 120; i++) { try { if ((await fetch(`${BASE}/healthz`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 500)); }
const token = (await (await fetch(`${BASE}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: '0812345678', password: 'demo1234' }) })).json()).token;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
await page.goto(`${BASE}/login`, { waitUntil: 'networkidle' });
await page.evaluate((t) => { localStorage.setItem('token', t); localStorage.setItem('remember-agreement', 'true'); }, token);
await page.waitForTimeout(300);
const t0 = Date.now();
const rows = [];
page.on('response', async (r) => { if (r.request().resourceType() === 'script') { try { rows.push([Date.now() - t0, gzipSync(await r.body(), { level: 9 }).length, r.url().replace(BASE, '')]); } catch {} } });
await page.goto(`${BASE}${process.argv[2] ?? '/user/home'}`, { waitUntil: 'networkidle' });
rows.sort((a, b) => a[0] - b[0]);
let total = 0; for (const [t, n, u] of rows) { total += n; console.log(String(t).padStart(5), (n / 1024).toFixed(1).padStart(6), u); }
console.log('total', (total / 1024).toFixed(1));
await browser.close(); server.kill();
