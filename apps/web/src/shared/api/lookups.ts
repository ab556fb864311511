import { useEffect } from 'react';
import { request, type ResponseParser } from './client';
import { createLookup } from './lookupStore';

/**
 * The two lookups the first screen needs, GET /api/lookup/info and /api/lookup/active.
 * They are checked with zod-free parsers equivalent to the contract's infoSchema and the
 * lookupActive response, so that zod (≈22 KB gzipped) stays out of the /login bundle;
 * test/siteLookups.test.ts keeps them in step with the contract.
 */
export interface SiteInfo {
  name: string;
  website: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const siteInfoParser: ResponseParser<SiteInfo> = {
  safeParse: (value) =>
    isRecord(value) && typeof value.name === 'string' && typeof value.website === 'string'
      ? { success: true, data: { name: value.name, website: value.website } }
      : { success: false },
};

export const siteActiveParser: ResponseParser<{ active: boolean }> = {
  safeParse: (value) =>
    isRecord(value) && typeof value.active === 'boolean' ? { success: true, data: { active: value.active } } : { success: false },
};

export const SITE_INFO_PATH = '/api/lookup/info';
export const SITE_ACTIVE_PATH = '/api/lookup/active';

/** The site's name and address, asked once per page load (kept 10 minutes): lookupStore.ts. */
export const siteInfo = createLookup(SITE_INFO_PATH, siteInfoParser, 10 * 60_000);

/** `{ data }`: the site's name and address once known. */
export function useSiteInfo(): { data: SiteInfo | undefined } {
  return { data: siteInfo.use() };
}

/**
 * The tab title is the site's name from its settings (GET /api/lookup/info), as on every screen:
 * the build's title (index.html) stands only until the name is known.
 */
export function useSiteTitle(): void {
  const name = siteInfo.use()?.name;
  useEffect(() => {
    if (name) document.title = name;
  }, [name]);
}

/** GET /api/lookup/active: false (or a 410 `gone`) means the service is shut down. */
export async function fetchSiteActive(signal?: AbortSignal): Promise<boolean> {
  const answer = await request(SITE_ACTIVE_PATH, siteActiveParser, { signal, background: true });
  return answer.active;
}
