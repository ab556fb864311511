import { getToken, setToken } from './session';

/** A field the server refused (400 KEY_MISSING / KEY_INVALID): its dotted path in the body and why (`missing`, `required`, `unknown`, a schema keyword). */
export interface FieldIssue {
  path: string;
  code: string;
}

/** A failed call: the server's status and `message` code (0 and NETWORK when nothing came back), and the fields it named. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly fields: readonly FieldIssue[] = [],
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Calls that move money carry one key per operator action (a retry sends the same). */
  idempotencyKey?: string;
  form?: FormData;
}

function urlOf(path: string, query: CallOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The back office's one API client: the operator's Bearer token on every call, JSON in and out,
 * `{message}` errors as ApiError. A 401 ends the session (disabled operator, expired or revoked
 * session): the app goes back to the sign-in page.
 */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), { method, headers, body });
  } catch {
    throw new ApiError(0, 'NETWORK');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const code = data && typeof data === 'object' && 'message' in data ? String((data as { message: unknown }).message) : `HTTP_${response.status}`;
    if (response.status === 401 && token) setToken(null);
    throw new ApiError(response.status, code, fieldsOf(data));
  }
  return data as T;
}

/** The `fields` of an error answer, when it has any well-formed ones. */
function fieldsOf(data: unknown): FieldIssue[] {
  if (!data || typeof data !== 'object' || !('fields' in data) || !Array.isArray(data.fields)) return [];
  return (data.fields as unknown[]).flatMap((f): FieldIssue[] =>
    f && typeof f === 'object' && 'path' in f && 'code' in f && typeof f.path === 'string' && typeof f.code === 'string' ? [{ path: f.path, code: f.code }] : [],
  );
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** A file the server answers (a report's CSV or XLSX): its bytes and the name its Content-Disposition gives. */
export async function apiFile(path: string, query: CallOptions['query'], fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(urlOf(path, query), { headers });
  } catch {
    throw new ApiError(0, 'NETWORK');
  }
  if (!response.ok) {
    const data = (await response.json().catch(() => null)) as { message?: unknown } | null;
    if (response.status === 401 && token) setToken(null);
    throw new ApiError(response.status, data && typeof data.message === 'string' ? data.message : `HTTP_${response.status}`);
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  return { blob: await response.blob(), fileName };
}
