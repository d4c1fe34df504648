import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../deps.js';
import { HttpError, stackNotFound } from '../errors.js';
import { type Api, baseOf } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { stackPath } from '../views/common.js';
import { parseHeatArn } from '../../util/heat-arn.js';

/**
 * Heat's stack ARN (`arn:openstack:heat::<project>:stacks/<name>/<id>[/<path>]`, what its
 * identifiers print as) in place of a stack's name: Heat's lookup answers a redirect to the stack's
 * canonical URL with the ARN's path and the query kept. The ARN must name a stack of the request's
 * project (another project's is not found, as its stacks are).
 */

/** Whether a stack name given in a URL is an ARN (then it is looked up as one). */
export function isArn(name: string): boolean {
  return name.slice(0, 4).toLowerCase() === 'arn:';
}

/** The redirect for an ARN: to the stack it names, if the request's project has it. */
export async function redirectToArn(
  deps: ApiDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  text: string,
): Promise<FastifyReply> {
  const arn = parseHeatArn(text);
  if (!arn) throw stackNotFound(text);
  if (arn.project !== request.identity.projectId) throw stackNotFound(arn.name);
  const stack = await stackByIdentity(deps.engine, request, arn.name, arn.id);
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  return reply.redirect(`${stackPath(baseOf(request), stack)}${encodeURI(arn.path)}${query}`, 302);
}

/**
 * An ARN holds slashes, which clients send as they are (`GET /stacks/arn:...:stacks/s/<id>`): a
 * route for what no other stack route matches takes them; anything else is no route, as before.
 */
export function registerArnLookupRoute(app: Api, deps: ApiDeps): void {
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/stacks/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const path = request.url.split('?')[0]!;
      const rest = path.slice(path.indexOf('/stacks/') + '/stacks/'.length);
      let text: string;
      try {
        text = decodeURIComponent(rest);
      } catch {
        text = rest;
      }
      if (!isArn(text)) {
        throw new HttpError(404, 'HTTPNotFound', `No route for ${request.method} ${path}`);
      }
      return redirectToArn(deps, request, reply, text);
    },
  });
}
