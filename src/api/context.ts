import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Identity } from '../auth/identity.js';
import type { Base } from './views/common.js';

/*
 * What the server and its route files share: the Fastify instance's type, the request's identity
 * and the base of links. The server registers the routes; the routes never import the server.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for; set for every route under /v1/{project_id}. */
    identity: Identity;
  }
}

export type Api = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The project part of the URLs the client used, so links in bodies lead back to this server. */
export function baseOf(request: FastifyRequest): Base {
  const { project_id: project } = request.params as { project_id: string };
  return { project: `${request.protocol}://${request.host}/v1/${project}` };
}
