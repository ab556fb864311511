import http from 'node:http';
import https from 'node:https';

/**
 * A JSON POST over node:http with kept-alive connections: the hot path to an outside system (a
 * game provider's transfer). The global fetch (undici, web streams, an AbortController per call)
 * cost several times the CPU of the request itself at the transfer bench's rate (issue 35), and
 * every member's transfer makes one such call.
 */
const agents = {
  // No limit on sockets per provider (as fetch had none): a request queued for a socket would spend its deadline waiting.
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

export interface PostAnswer {
  status: number;
  /** The answer's body as text. */
  text: string;
}

/** POSTs `body` to `url`; answers the status and body of any HTTP answer, rejects on a network error or an abort. */
export function postText(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<PostAnswer> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:') return Promise.reject(new Error(`not an http(s) address: ${url}`));
  const client = secure ? https : http;
  return new Promise<PostAnswer>((resolve, reject) => {
    const request = client.request(
      target,
      { method: 'POST', agent: agents[secure ? 'https:' : 'http:'], headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, ...(signal ? { signal } : {}) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A connection refused or a name not found: the request never left (node:http's error, or fetch's cause). */
export function neverLeft(error: unknown): boolean {
  const own = typeof error === 'object' && error !== null ? (error as { code?: unknown; cause?: unknown }) : undefined;
  const cause = own?.cause as { code?: unknown; errors?: unknown } | undefined;
  const codes = [own?.code, cause?.code, ...(Array.isArray(cause?.errors) ? cause.errors.map((e: { code?: unknown }) => e.code) : [])];
  return codes.some((code) => code === 'ECONNREFUSED' || code === 'ENOTFOUND');
}
