import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nestedDeeperThan } from '../util/json-depth.js';
import { JsonDepthError, parseJsonSteps } from '../util/json-sliced.js';
import { runSliced } from '../util/loop-slice.js';
import { HttpError } from './errors.js';

/**
 * Request bodies as Heat reads them: JSON, no larger than `max_json_body_size` (Fastify stops
 * reading at the limit, so an oversize body never sits in memory whole) and, Hearth's own, no
 * deeper than `max_json_body_depth`, so that no code walking the body (validation, copying,
 * JSON.stringify, hashing) can overflow the call stack.
 */
/** Bodies from this size on parse in slices. */
const SLICED_BYTES = 256 * 1024;

export function registerJsonBodyParser(app: FastifyInstance, maxDepth: number): void {
  // heatclient sends `Content-Type: application/json` with an empty body on DELETE: no body, as
  // for Heat.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser(maxDepth));
}

/**
 * Reads a body as JSON whatever its content type says (Heat's JSONRequestDeserializer: cfn-signal
 * sends none at all); an empty body is none. JSON.parse keeps `__proto__` keys as plain data (own
 * properties), and does not recurse, so any depth parses before the depth check.
 */
export function jsonBodyParser(maxDepth: number) {
  return async (_request: FastifyRequest, body: string | Buffer): Promise<unknown> => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return undefined;
    const tooDeep = new HttpError(
      400,
      'RequestLimitExceeded',
      `Request limit exceeded: the JSON body is nested deeper than ${maxDepth} levels (max_json_body_depth).`,
    );
    try {
      // A big body (a 200,000-resource template is 7 MB) parses in slices, so the server goes on
      // answering other requests meanwhile; a small one at once.
      if (text.length < SLICED_BYTES) {
        const parsed: unknown = JSON.parse(text);
        if (nestedDeeperThan(parsed, maxDepth)) throw tooDeep;
        return parsed;
      }
      return await runSliced(parseJsonSteps(text, maxDepth));
    } catch (err) {
      if (err instanceof JsonDepthError) throw tooDeep;
      if (!(err instanceof SyntaxError)) throw err;
      let message = err.message;
      try {
        JSON.parse(text); // V8's own words for the fault, as for a small body
      } catch (native) {
        message = (native as Error).message;
      }
      throw new HttpError(400, 'HTTPBadRequest', `The body is not valid JSON: ${message}`);
    }
  };
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
