import type { FastifyReply, FastifyRequest } from 'fastify';
import { cfnErrorXml } from './cfn.js';

/**
 * Whether the caller asked for JSON, by its Accept header or as boto's CloudFormation client does,
 * with `ContentType=JSON` in the query (Heat's wsgi reads that too); XML otherwise.
 */
export const wantsJson = (request: FastifyRequest) =>
  /application\/json/.test(request.headers.accept ?? '') ||
  (request.query as Record<string, unknown> | undefined)?.ContentType === 'JSON';

/** A CFN API error (an AWS error code), in XML or the JSON asked for. */
export function cfnError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
) {
  if (wantsJson(request)) {
    return reply
      .status(status)
      .type('application/json')
      .send({ ErrorResponse: { Error: { Type: 'Sender', Code: code, Message: message } } });
  }
  return reply.status(status).type('application/xml').send(cfnErrorXml(code, message));
}
