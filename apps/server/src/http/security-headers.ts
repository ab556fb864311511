import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '../config';

/** The security headers of every answer (helmet's, worked out once: they are the same for every answer), and the API's (no-store). */
export function securityHeadersFor(config: Config): { page: Record<string, string>; api: Record<string, string> } {
  const page = staticHeaders(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          mediaSrc: ["'self'", 'blob:', 'https:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      strictTransportSecurity: config.HSTS_MAX_AGE > 0 ? { maxAge: config.HSTS_MAX_AGE, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  );
  // Powerful browser features the app never uses are switched off for it and anything it embeds
  // (only features Chromium knows: an unknown one, such as `bluetooth`, is an error in its console).
  page['permissions-policy'] = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), interest-cohort=()';
  // API answers carry members' data (game passwords, balances): no cache keeps them.
  return { page, api: { ...page, 'cache-control': 'no-store' } };
}

/** The headers a connect-style middleware sets (helmet's are static: no nonces, nothing per request). */
function staticHeaders(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void): Record<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader: (name: string) => {
      headers.delete(name.toLowerCase());
    },
  };
  middleware({ headers: {} } as IncomingMessage, res as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  return Object.fromEntries(headers);
}
