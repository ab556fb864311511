import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Migration } from '../db/migrations';
import type { Handlers } from '../http/handlers';
import type { Services } from './services';

/**
 * A domain of the server (accounts, wallet, deposits, chat, …) as one unit: its tables, its
 * services, its calls. The app is built from one list of these (`modules/index.ts`), in phases:
 * every module's migrations (in list order), then every `setup`, then every `seed`, then each
 * module's routes in a Fastify plugin scope of its own, then `start` once the server is ready.
 *
 * Adding a call to a domain touches that domain's folder only (and the contract file of its
 * domain, the web app's feature folder and the locale files); adding a domain adds one line to
 * the list.
 */
export interface DomainModule {
  /** Unique; its migrations' ids start with `<name>/`. */
  name: string;
  migrations?: readonly Migration[];
  /** Builds this module's services into `services` (those of earlier modules are there). */
  setup?(services: Services): Promise<void> | void;
  /**
   * Writes the rows every deployment needs, then (with SEED_DEMO) the demo's. Only what is
   * missing, so a restart never overwrites an operator's changes. `log` is the server's logger
   * (routes are not registered yet).
   */
  seed?(services: Services, log: FastifyBaseLogger): Promise<void>;
  /** Plugins its calls need (multipart, …), registered in the module's scope before its calls. */
  prepare?(app: FastifyInstance, services: Services): Promise<void> | void;
  /** Handlers of contract calls (spec section 7) this domain answers. */
  handlers?(services: Services): Handlers;
  /** Routes outside the contract (operator, sandbox, webhooks), registered in the module's own scope. */
  routes?(app: FastifyInstance, services: Services): Promise<void> | void;
  /** Background work once the server is ready (reconcilers, pollers). Answers how to stop it. */
  start?(services: Services, log: FastifyBaseLogger): (() => Promise<void> | void) | undefined;
  /** Releases what `setup` opened (connections), when the app closes. */
  close?(services: Services): Promise<void> | void;
}

export function defineModule(module: DomainModule): DomainModule {
  return module;
}

/** Every migration of the modules, in list order. */
export function migrationsOf(modules: readonly DomainModule[]): Migration[] {
  return modules.flatMap((m) => {
    for (const migration of m.migrations ?? []) {
      if (!migration.id.startsWith(`${m.name}/`)) throw new Error(`migration ${migration.id} of module ${m.name} must start with "${m.name}/"`);
    }
    return [...(m.migrations ?? [])];
  });
}
