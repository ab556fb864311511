import type { Config } from '../config';
import type { Database } from '../db/database';
import { createPasswordHasher, type PasswordHasher } from '../lib/password';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../lib/rate-limit';

/**
 * Everything a request handler may use. The kernel below is here from the start; every domain
 * module adds its own services to this interface beside its code (declaration merging):
 *
 *   declare module '../../platform/services' { interface Services { wallet: WalletService } }
 *
 * and sets them in its `setup`, which runs after the setups of the modules listed before it.
 */
export interface Services {
  config: Config;
  database: Database;
  limiter: RateLimiter;
  passwords: PasswordHasher;
}

export type Kernel = Pick<Services, 'config' | 'database' | 'limiter' | 'passwords'>;

export function createKernel(config: Config, database: Database): Kernel {
  return {
    config,
    database,
    limiter: config.REDIS_URL ? new RedisRateLimiter(config.REDIS_URL) : new MemoryRateLimiter(),
    passwords: createPasswordHasher(config.ARGON2_MEMORY_KIB),
  };
}

/**
 * The services object modules fill in, one module at a time. Reading a service no module has set
 * (yet) throws at once, naming it: a module listed before the one that provides it.
 */
export function servicesUnderConstruction(kernel: Kernel): Services {
  return new Proxy(kernel as Services, {
    get(target, property, receiver) {
      if (typeof property === 'string' && !(property in target) && property !== 'then' && property !== 'toJSON') {
        throw new Error(`service "${property}" is not set up: its module must come earlier in the module list`);
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
