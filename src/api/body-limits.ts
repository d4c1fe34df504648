import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nestedDeeperThan } from '../util/json-depth.js';
import { HttpError } from './errors.js';

/**
 * Request bodies as Heat reads them: JSON, no larger than `max_json_body_size` (Fastify stops
 * reading at the limit, so an oversize body never sits in memory whole) and, Hearth's own, no
 * deeper than `max_json_body_depth`, so that no code walking the body (validation, copying,
 * JSON.stringify, hashing) can overflow the call stack.
 */
export function registerJsonBodyParser(app: FastifyInstance, maxDepth: number): void {
  // heatclient sends `Content-Type: application/json` with an empty body on DELETE: no body, as
  // for Heat. JSON.parse keeps `__proto__` keys as plain data (own properties), and does not
  // recurse, so any depth parses before the check below.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    if (text === '') return done(null, undefined);
    let body: unknown;
    try {
      body = JSON.parse(text as string);
    } catch (err) {
      return done(
        new HttpError(400, 'HTTPBadRequest', `The body is not valid JSON: ${(err as Error).message}`),
      );
    }
    if (nestedDeeperThan(body, maxDepth)) {
      return done(
        new HttpError(
          400,
          'RequestLimitExceeded',
          `Request limit exceeded: the JSON body is nested deeper than ${maxDepth} levels (max_json_body_depth).`,
        ),
      );
    }
    done(null, body);
  });
}

/**
 * Fastify's "body too large" as Heat answers it: a 400 RequestLimitExceeded with Heat's message.
 * The size is the Content-Length when the client sent one (a chunked body is not read to its end).
 */
export function bodyTooLarge(err: unknown, request: FastifyRequest, limit: number): HttpError | undefined {
  if ((err as { code?: unknown } | null)?.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return undefined;
  const length = Number(request.headers['content-length']);
  const size =
    Number.isSafeInteger(length) && length > limit ? `${length} bytes` : `more than ${limit} bytes`;
  return new HttpError(
    400,
    'RequestLimitExceeded',
    `Request limit exceeded: JSON body size (${size}) exceeds maximum allowed size (${limit} bytes).`,
  );
}
