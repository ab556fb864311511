// Starts the built server for the end-to-end tests on a fresh embedded database.
// Usage: node e2e/serve.mjs <name> <port>   (name `laos`: a server with LAOS_MODE=true)
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

const [name = 'main', port = '3190'] = process.argv.slice(2);
const dataDir = resolve('.e2e-data', name);
rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    // Each server starts its own sandbox service (the game providers' side) beside itself, on its
    // port + 2000 (not + 1000: 3190 + 1000 is 4190, a port fetch refuses to connect to), with its
    // journals under its fresh data dir.
    SANDBOX_PORT: String(Number(port) + 2000),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    OPERATOR_TOKEN: 'e2e-operator-token-0001',
    // Every test registers from 127.0.0.1: the per-address ceilings are raised for the run.
    OTP_SENDS_PER_IP_HOUR: '100000',
    OTP_SENDS_GLOBAL_MINUTE: '100000',
    ACCOUNT_CHECKS_PER_IP_MINUTE: '100000',
    PROMOTION_CODES_PER_IP_MINUTE: '100000',
    SLIP_UPLOADS_PER_IP_MINUTE: '100000',
    // Slip upload open all day, whenever the run happens (the closed window has its own server test).
    SLIP_CLOSED_FROM: '00:00',
    SLIP_CLOSED_TO: '00:00',
    // No demo back-office queue: the tests count the queues they fill themselves.
    SEED_DEMO_QUEUE: 'false',
    // The Lao site comes from the server's one switch (the build is the same).
    ...(name === 'laos' ? { LAOS_MODE: 'true' } : {}),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
