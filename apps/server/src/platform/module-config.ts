import type { z } from 'zod';
import { ConfigError, type Config } from '../config';

/**
 * A domain module's own environment variables, read from the configuration's environment with
 * the module's schema. A wrong value stops the start-up with a message naming the variable, as
 * config.ts does for the kernel's.
 */
export function moduleConfig<S extends z.ZodType>(config: Pick<Config, 'env'>, schema: S): z.output<S> {
  const parsed = schema.safeParse(config.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
