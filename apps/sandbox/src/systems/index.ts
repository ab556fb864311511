import type { SystemFactory } from '../kit';
import { aggregatorSystem } from './aggregator';
import { bankSystem } from './bank';
import { ewalletSystem } from './ewallet';
import { gamesSystem } from './games';
import { gatewaySystem } from './gateway';
import { smsSystem } from './sms';

/** Every outside system the sandbox plays, configured from the environment (docs/sandbox.md). */
export function allSystems(env: Record<string, string | undefined>): SystemFactory[] {
  return [
    gamesSystem(env.SANDBOX_GAME_SECRET ?? 'sandbox-game-secret', env.SANDBOX_PUBLIC_URL),
    smsSystem(env.SANDBOX_SMS_TOKEN ?? 'sandbox-sms-token'),
    ewalletSystem(env.SANDBOX_EWALLET_SECRET ?? 'sandbox-ewallet-secret'),
    gatewaySystem(env.SANDBOX_GATEWAY_SECRET ?? 'sandbox-gateway-secret'),
    bankSystem(env.SANDBOX_BANK_SECRET ?? 'sandbox-bank-secret'),
    aggregatorSystem(),
  ];
}
