import { Type } from '@sinclair/typebox';
import { cancelStack, checkStack, suspendOrResume } from '../../engine/operations/lifecycle.js';
import type { ApiDeps } from '../deps.js';
import { badRequest } from '../errors.js';
import { replyNull } from '../replies.js';
import type { Api } from '../context.js';
import { stackByIdentity } from '../stack-access.js';

const StackParams = Type.Object({
  project_id: Type.String(),
  stack_name: Type.String(),
  stack_id: Type.String(),
});
const ACTIONS = ['check', 'cancel_update', 'cancel_without_rollback', 'suspend', 'resume'] as const;
type Action = (typeof ACTIONS)[number];

/** POST /stacks/{name}/{id}/actions with one of Heat's action keys, e.g. `{"check": null}`. */
export function registerActionRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;
  app.post(
    '/stacks/:stack_name/:stack_id/actions',
    { schema: { params: StackParams, body: Type.Record(Type.String(), Type.Unknown()), tags: ['stacks'] } },
    async (request, reply) => {
      const keys = Object.keys(request.body);
      if (keys.length !== 1 || !(ACTIONS as readonly string[]).includes(keys[0]!)) {
        throw badRequest(`the body must have exactly one of the actions ${ACTIONS.join(', ')}`);
      }
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      switch (keys[0] as Action) {
        case 'check':
          await checkStack(engine.deps, engine.cache, stack.id);
          break;
        case 'cancel_update':
          await cancelStack(engine.deps, stack.id, { rollback: true });
          break;
        case 'cancel_without_rollback':
          await cancelStack(engine.deps, stack.id, { rollback: false });
          break;
        case 'suspend':
          await suspendOrResume(engine.deps, stack.id, 'SUSPEND');
          break;
        case 'resume':
          await suspendOrResume(engine.deps, stack.id, 'RESUME');
          break;
      }
      return replyNull(reply);
    },
  );
}
