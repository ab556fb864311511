import { describe, expect, it } from 'vitest';
import { infoSchema, lookupEndpoints } from '@mw/contract/lookups';
import { SITE_ACTIVE_PATH, SITE_INFO_PATH, siteActiveParser, siteInfoParser } from '../src/shared/api/lookups';

/** The zod-free parsers of the first screen must say exactly what the contract says. */
describe('boot lookups stay in step with the contract', () => {
  it('use the contract paths', () => {
    expect(SITE_INFO_PATH).toBe(lookupEndpoints.lookupInfo.path);
    expect(SITE_ACTIVE_PATH).toBe(lookupEndpoints.lookupActive.path);
  });

  const infoSamples: unknown[] = [
    { name: 'Site', website: 'site.test' },
    { name: 'Site', website: 'site.test', extra: 1 },
    { name: 'Site' },
    { name: 1, website: 'x' },
    null,
    'text',
    [],
  ];
  it.each(infoSamples)('info %j', (sample) => {
    const contract = infoSchema.safeParse(sample);
    const parsed = siteInfoParser.safeParse(sample);
    expect(parsed.success).toBe(contract.success);
    if (parsed.success && contract.success) expect(parsed.data).toEqual(contract.data);
  });

  const activeSamples: unknown[] = [{ active: true }, { active: false }, { active: 'yes' }, {}, null];
  it.each(activeSamples)('active %j', (sample) => {
    const contract = lookupEndpoints.lookupActive.response.safeParse(sample);
    const parsed = siteActiveParser.safeParse(sample);
    expect(parsed.success).toBe(contract.success);
    if (parsed.success && contract.success) expect(parsed.data).toEqual(contract.data);
  });
});
