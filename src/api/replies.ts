import type { FastifyReply } from 'fastify';

/** Heat's answer to an action or a signal: 200 with a JSON `null`. */
export function replyNull(reply: FastifyReply): FastifyReply {
  return reply.status(200).header('content-type', 'application/json').send('null');
}
