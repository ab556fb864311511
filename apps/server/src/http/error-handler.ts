import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';

interface FieldIssue {
  path: string;
  code: string;
}

/**
 * The one place errors become answers: business errors as `{ message: CODE }` with their status;
 * bad input as 400 KEY_MISSING (a required field is absent) or KEY_INVALID (wrong type, unknown
 * field, broken JSON); anything unexpected is logged and answered without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if ((error.status === 429 || error.status === 503) && typeof error.extra.retryAfter === 'number') {
        void reply.header('retry-after', String(error.extra.retryAfter));
      }
      return reply.status(error.status).send({ message: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const source = error.validationContext === 'params' ? request.params : error.validationContext === 'querystring' ? request.query : request.body;
      const fields: FieldIssue[] = error.validation.map((v) => {
        const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        // A field that is absent (or no body at all) is missing; anything present is invalid.
        const absent = valueAt(source, path) === undefined || (path === '' && source === null);
        return { path, code: absent ? 'missing' : v.keyword };
      });
      const missing = fields.some((f) => f.code === 'missing');
      return reply.status(400).send({ message: missing ? 'KEY_MISSING' : 'KEY_INVALID', fields });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_VALIDATION':
        return reply.status(400).send({ message: 'KEY_INVALID' });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send({ message: 'PAYLOAD_TOO_LARGE' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send({ message: 'UNSUPPORTED_MEDIA_TYPE' });
      default:
        break;
    }
    if (error instanceof SyntaxError || error.statusCode === 400) {
      return reply.status(400).send({ message: 'KEY_INVALID' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'INTERNAL_SERVER_ERROR' });
  });
}

function valueAt(root: unknown, path: string): unknown {
  if (path === '') return root;
  let value: unknown = root;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
