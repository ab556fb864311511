import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { Lease } from './leader';
import type { DomainModule } from './module';
import type { Services } from './services';

/**
 * Background work (reconcilers, sweeps, imports) runs in the one process holding the jobs' lease
 * (leader.ts): each module's `start` when the lease is gained, its stops when it is lost.
 */
export function backgroundJobs(app: FastifyInstance, config: Config, database: Database, services: Services, modules: readonly DomainModule[]): Lease {
  const stops: Array<() => Promise<void> | void> = [];
  const jobs = new Lease(database.db, 'background-jobs', {
    ttlMs: config.JOB_LEASE_MS,
    onGain: () => {
      app.log.info('background jobs: this process runs them');
      for (const module of modules) {
        const stop = module.start?.(services, app.log);
        if (stop) stops.push(stop);
      }
    },
    onLose: async () => {
      app.log.warn('background jobs: the lease went to another process; they stop here');
      for (const stop of stops.splice(0)) await stop();
    },
    onError: (error) => app.log.warn({ err: error }, 'background jobs: the lease could not be renewed'),
  });
  return jobs;
}
