import type { FastifyRequest } from 'fastify';

/**
 * Whether a path is the API's: /api, /api/…, /api;… in any letter case, however it was written
 * (the router decodes %-escapes and takes absolute-form targets, so the checks must too).
 */
export function isApiPath(path: string): boolean {
  return /^\/+api(?![a-z0-9_.~-])/i.test(path);
}

/** Whether a path is the back office's (/admin, /admin/…), in any letter case. */
export function isAdminPath(path: string): boolean {
  return /^\/+admin(?:\/|$)/i.test(path);
}

/** The path a request target means: absolute form, dot segments, %-escapes and backslashes resolved. */
export function normalisedPath(url: string): string {
  let path = url;
  try {
    // Leading slashes collapsed first: "//api/x" is a path here, not a host.
    path = new URL(url.replace(/\\/g, '/').replace(/^\/{2,}/, '/'), 'http://localhost').pathname;
  } catch {
    // not a URL: keep the text
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // a broken escape: keep it escaped
  }
  return path.replace(/\\/g, '/');
}

/** The route a request matched (its pattern), or the path it means when none did. */
export function pathOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? normalisedPath(request.url);
}

