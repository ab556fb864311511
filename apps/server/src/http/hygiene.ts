import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasControlCharacter } from '@mw/contract/text';
import { AppError } from '../lib/errors';

/**
 * Request and response hygiene that holds for every route, the framework's own answers included:
 * - every error answer is `{ message: CODE }`, never an echo of the path or the input;
 * - a request must arrive whole (headers and body) within REQUEST_TIMEOUT_MS (408
 *   REQUEST_TIMEOUT, connection closed); routes marked `config: { upload: true }` get
 *   UPLOAD_TIMEOUT_MS, the server-wide ceiling;
 * - no text of a request (body, query string, path) may hold a NUL or another control character
 *   other than a line break or tab (400 KEY_INVALID): the database cannot store NUL, and no field
 *   means one. Contract fields are stricter still (single-line fields refuse line breaks too).
 */
export interface HygieneOptions {
  requestTimeoutMs: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A file upload: the request may take UPLOAD_TIMEOUT_MS to arrive. */
    upload?: boolean;
  }
}

/** Node's own client errors (malformed requests, header overflow, timeouts) in the API's shape, with the security headers. */
export function clientErrorHandlerWith(headers: Record<string, string>): (error: Error & { code?: string }, socket: Socket) => void {
  const extra = Object.entries(headers)
    .filter(([name]) => name !== 'cache-control')
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (error, socket) => answerClientError(error, socket, extra);
}

function answerClientError(error: Error & { code?: string }, socket: Socket, extraHeaders: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'REQUEST_TIMEOUT']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'HEADERS_TOO_LARGE']
        : error.code === 'HPE_URI_TOO_LONG' // not raised by llhttp today; kept for completeness
          ? [414, 'URI Too Long', 'URI_TOO_LONG']
          : [400, 'Bad Request', 'KEY_INVALID'];
  const body = JSON.stringify({ message: code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\n${extraHeaders}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Fastify's router errors (a malformed %-escape, an over-long path parameter) in the API's shape. */
export function frameworkErrorAnswer(error: FastifyError): { status: number; body: { message: string } } {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return { status: 414, body: { message: 'URI_TOO_LONG' } };
  if (error.code === 'FST_ERR_BAD_URL') return { status: 400, body: { message: 'KEY_INVALID' } };
  return { status: 500, body: { message: 'INTERNAL_SERVER_ERROR' } };
}

/** Walks a parsed body, query or params object: true when any string in it holds a control character. */
export function holdsControlCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return hasControlCharacter(value, true);
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => holdsControlCharacter(item, depth + 1));
  if (Buffer.isBuffer(value)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (hasControlCharacter(key, true) || holdsControlCharacter(item, depth + 1)) return true;
  }
  return false;
}

export function registerHygiene(app: FastifyInstance, options: HygieneOptions): void {
  // The body must arrive within the request timeout; the handler's own time is not counted.
  app.addHook('onRequest', (request, reply, done) => {
    const hasBody = request.headers['content-length'] !== undefined ? request.headers['content-length'] !== '0' : request.headers['transfer-encoding'] !== undefined;
    if (!hasBody || request.routeOptions.config.upload === true) {
      done();
      return;
    }
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent) return;
      void reply.header('connection', 'close');
      const timeout = Object.assign(new AppError(408, 'REQUEST_TIMEOUT'), { statusCode: 408 });
      // The body parser is listening: hand it the error, and the error handler answers.
      if (request.raw.listenerCount('error') > 0) request.raw.emit('error', timeout);
      else request.raw.socket.destroy();
    }, options.requestTimeoutMs);
    timer.unref();
    request.bodyTimer = timer;
    done();
  });
  const stopTimer = (request: FastifyRequest) => {
    if (request.bodyTimer) {
      clearTimeout(request.bodyTimer);
      request.bodyTimer = null;
    }
  };
  app.addHook('preValidation', (request, _reply, done) => {
    stopTimer(request);
    if (holdsControlCharacter(request.body) || holdsControlCharacter(request.query) || holdsControlCharacter(request.params)) {
      done(new AppError(400, 'KEY_INVALID'));
      return;
    }
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    stopTimer(request);
    done();
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    bodyTimer: NodeJS.Timeout | null;
  }
}
