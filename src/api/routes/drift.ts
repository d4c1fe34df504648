import { detectDrift, storedDrift } from '../../engine/reality/drift.js';
import type { ApiDeps } from '../deps.js';
import type { Api } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { driftJSON } from '../../views/drift.js';
import { StackParams } from './params.js';

/**
 * Drift detection (docs/drift.md): POST runs a detection to its end and answers the summary and
 * the resources that are not IN_SYNC; GET answers the last stored results, every resource's.
 */
export function registerDriftRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;

  app.post(
    '/stacks/:stack_name/:stack_id/drift',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      // Heartbeating (if the workers don't already), this process takes its share of the cloud rate limit.
      await engine.whileBeating(() => detectDrift(engine.deps, stack.id));
      const drift = await storedDrift(engine.deps, stack.id, { onlyDrifted: true });
      return { drift: await driftJSON(engine, stack, drift) };
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/drift',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      return { drift: await driftJSON(engine, stack, await storedDrift(engine.deps, stack.id)) };
    },
  );
}
