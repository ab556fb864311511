import type { z } from 'zod';
import { REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from '@mw/contract/constants';
import { CANNOT_VERIFY_IDENTITY } from '@mw/contract/errors';
import type { EndpointDef } from '@mw/contract/http';
import { clearToken, getToken } from '../auth/token';
import { ApiError, type FieldError } from './ApiError';
import { deviceId } from './deviceId';
import { beginLoading } from './loading';
import { emitSessionEvent } from './sessionEvents';

/**
 * The one API client. Every call sends X-Requested-With, the browser's X-Device-Id (deviceId.ts)
 * and, when a member is logged in, the bearer token; it times out after 60 s (300 s for uploads); its answer is checked against the
 * contract's response schema. Answers that end the session or the service are turned into
 * session events here, once, so no screen has to remember to handle them.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  query?: Record<string, string | number | undefined>;
  /** JSON-serialisable value, or FormData for uploads. */
  body?: unknown;
  /** Sent as Idempotency-Key on calls that move money (see idempotency.ts). */
  idempotencyKey?: string;
  /** Multipart upload: the longer timeout applies. */
  upload?: boolean;
  /** Does not show the global loading indicator (polling, guards). */
  background?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const SESSION_END_CODES: ReadonlySet<string> = new Set(['invalid-token', 'EXPIRED_AUTH_TOKEN']);

export function endsSession(code: string | null): boolean {
  if (code === null) return false;
  return SESSION_END_CODES.has(code) || code.trim().toLowerCase() === CANNOT_VERIFY_IDENTITY;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorFromBody(status: number, body: unknown): ApiError {
  let code: string | null = null;
  let fields: FieldError[] = [];
  const detail: Record<string, number> = {};
  let extra: Record<string, unknown> = {};
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    extra = record;
    for (const [key, value] of Object.entries(record)) {
      if (typeof value === 'number' && Number.isFinite(value)) detail[key] = value;
    }
    if (typeof record.message === 'string' && record.message !== '') code = record.message;
    if (Array.isArray(record.fields)) {
      fields = record.fields.filter(
        (f): f is FieldError =>
          typeof f === 'object' && f !== null && typeof (f as FieldError).path === 'string' && typeof (f as FieldError).code === 'string',
      );
    }
  }
  return new ApiError('server', { status, code, fields, detail, extra });
}

function signalSessionEnd(error: ApiError): void {
  if (error.code === 'gone') {
    emitSessionEvent('gone');
  } else if (endsSession(error.code)) {
    clearToken();
    emitSessionEvent('expired');
  }
}

/**
 * What checks an answer: a zod schema of the contract, or (for the two boot lookups, see
 * siteLookups.ts) a zod-free equivalent with the same `safeParse` shape.
 */
export interface ResponseParser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** The headers every call sends: X-Requested-With, Accept, the device id, the member's token, the language. */
export function apiHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'X-Device-Id': deviceId() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  // Content the server writes per language (conditions, agreements, contact, SMS) follows the
  // language the member chose, not the browser's: <html lang> carries it (see i18n.ts).
  const language = typeof document === 'undefined' ? '' : document.documentElement.lang;
  if (language) headers['Accept-Language'] = language;
  return headers;
}

/** The ApiError of a refused answer (for calls made without `request`, e.g. uploads with progress); ends the session when it says so. */
export function refusedAnswer(status: number, body: unknown): ApiError {
  const error = errorFromBody(status, body);
  signalSessionEnd(error);
  return error;
}

export async function request<T>(path: string, schema: ResponseParser<T>, options: RequestOptions = {}): Promise<T> {
  const headers = apiHeaders();
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;

  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timeoutMs = options.timeoutMs ?? (options.upload ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  const endLoading = options.background ? () => undefined : beginLoading();

  try {
    let response: Response;
    try {
      response = await fetch(buildUrl(path, options.query), {
        method: options.method ?? 'GET',
        headers,
        body,
        signal: controller.signal,
        credentials: 'same-origin',
      });
    } catch {
      throw new ApiError(timedOut ? 'timeout' : controller.signal.aborted ? 'aborted' : 'network');
    }
    let payload: unknown;
    try {
      payload = await readJson(response);
    } catch {
      throw new ApiError(timedOut ? 'timeout' : 'network', { status: response.status });
    }
    if (!response.ok) {
      const error = errorFromBody(response.status, payload);
      signalSessionEnd(error);
      throw error;
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) throw new ApiError('invalidResponse', { status: response.status });
    return parsed.data;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
    endLoading();
  }
}

export interface EndpointCall<B> extends Omit<RequestOptions, 'method' | 'body'> {
  params?: Record<string, string>;
  body?: B;
}

/** Calls one endpoint of the contract: its method, path and response schema in one place. */
export function callEndpoint<B extends z.ZodType, R extends z.ZodType>(
  def: EndpointDef<z.ZodType, B, R>,
  call: EndpointCall<z.input<B>> = {},
): Promise<z.output<R>> {
  const path = def.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = call.params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${def.path}`);
    return encodeURIComponent(value);
  });
  const { params: _params, ...options } = call;
  return request(path, def.response, {
    ...options,
    method: def.method,
    upload: options.upload ?? def.multipart !== undefined,
  });
}
