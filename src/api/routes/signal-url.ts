import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDeps } from '../deps.js';
import { HttpError, notFound } from '../errors.js';
import type { Api } from '../context.js';
import { acceptSignal } from '../signal.js';

/**
 * `POST /v1/signal/{token}` (and PUT): a scaling policy's `alarm_url` (Heat's pre-signed URL), a
 * deployment's signal URL. The token in
 * the path is the credential, so an alarm service can call it with no header: it signals the one
 * resource it was made for, as `.../resources/{name}/signal` would.
 */
export function registerSignalUrlRoute(app: Api, deps: ApiDeps): void {
  const handler = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const target = deps.signer?.verify(request.params.token);
    if (!target) throw new HttpError(401, 'HTTPUnauthorized', 'The signal URL is not valid');
    const stack = await deps.engine.deps.store.tx((tx) => tx.stacks.get(target.stackId));
    if (!stack || stack.deletedAt || stack.projectId !== target.projectId) {
      throw notFound(`The resource signalled by this URL is gone`);
    }
    await acceptSignal(deps.engine, stack.id, target.resourceName, request.body);
    return reply.status(200).send();
  };
  const schema = { params: Type.Object({ token: Type.String() }), hide: true };
  app.post('/v1/signal/:token', { schema }, handler);
  // A deployment's TEMP_URL_SIGNAL: its agent PUTs the outputs, as it would to a Swift temp URL.
  app.put('/v1/signal/:token', { schema }, handler);
}
