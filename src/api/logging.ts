import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * What a request's log lines say of it. Never its headers (X-Auth-Token) nor its body (a
 * create's parameters, hidden ones included), nor a token in its URL: only what routes it.
 */
/**
 * Signal and agent tokens travel in URLs (pre-signed URLs), and so do signatures (a wait condition
 * handle's URL, the CFN API's signed queries): neither ever reaches a log.
 */
export const maskTokens = (url: string): string =>
  url.replace(/\b(hsig_|hagt_)([\w-]+)\.[\w-]+/g, '$1$2.***').replace(/([?&]Signature=)[^&#]*/g, '$1***');

const serializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: maskTokens(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
  res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
  err: pino.stdSerializers.err,
};

/**
 * The API's logger: JSON lines, each of a request's lines with its `reqId` (Fastify binds it; it
 * is also the `x-openstack-request-id` response header). Headers and bodies that some code might
 * still pass are removed, as a second guard behind the serializers.
 */
export function apiLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      serializers,
      redact: { paths: ['req.headers', 'req.body', 'headers', 'body'], remove: true },
    },
    destination,
  );
}
