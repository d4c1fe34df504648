import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  type PreviewedChange,
  previewStackCreate,
  previewStackUpdate,
} from '../../engine/operations/preview.js';
import { planStackUpdate } from '../../engine/operations/update-plan.js';
import type { ResourceRecord } from '../../store/contract.js';
import { checkingOwner } from '../credentials.js';
import type { ApiDeps } from '../deps.js';
import { queryBool } from '../request/query.js';
import {
  CreateBody,
  createRequest,
  nullFieldsAbsent,
  UpdateBody,
  updateRequest,
} from '../request/stack-body.js';
import { type Api, baseOf } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { createPreviewBody, updatePreviewBody } from '../views/preview.js';

const StackParams = Type.Object({
  project_id: Type.String(),
  stack_name: Type.String(),
  stack_id: Type.String(),
});
const PreviewQuery = Type.Object({ show_nested: Type.Optional(Type.String()) });

/**
 * Heat's previews: what a create (`POST /stacks/preview`) or an update (`PUT|PATCH
 * /stacks/{name}/{id}/preview`) would do, from the bodies those operations take and validated as
 * they are, with nothing stored.
 */
export function registerPreviewRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;

  const createOptions = { schema: { body: CreateBody, tags: ['stacks'] }, preValidation: nullFieldsAbsent };
  app.post('/stacks/preview', createOptions, async (request) => {
    // A preview makes no trust: it looks things up as the project would without one.
    const req = {
      ...(await createRequest(deps, request.identity.projectId, request.body)),
      credentials: checkingOwner(deps, request.identity).credentials,
    };
    const { definition, resources } = await previewStackCreate(engine.deps, engine.cache, req);
    const stack = createPreviewBody(baseOf(request), engine.deps.plugins, {
      name: req.name,
      projectId: req.projectId,
      definition,
      resources,
      disableRollback: req.disableRollback ?? true,
      timeoutMins: req.timeoutMins ?? null,
      tags: req.tags ?? [],
      now: engine.deps.clock.now(),
    });
    return { stack };
  });

  /** The stack an update preview or plan names, the update its body asks (PATCH: `existing`), and show_nested. */
  async function updateOf(request: FastifyRequest, method: 'PUT' | 'PATCH') {
    const { stack_name: name, stack_id: id } = request.params as typeof StackParams.static;
    const { show_nested } = request.query as typeof PreviewQuery.static;
    const stack = await stackByIdentity(engine, request, name, id);
    const body = request.body as UpdateBody;
    const req = await updateRequest(engine, stack, body, method === 'PATCH' || body.existing === true);
    return { stack, req, nested: queryBool(show_nested, 'show_nested') };
  }

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/stacks/:stack_name/:stack_id/preview',
      schema: { params: StackParams, querystring: PreviewQuery, body: UpdateBody, tags: ['stacks'] },
      preValidation: nullFieldsAbsent,
      handler: async (request) => {
        const { stack, req, nested } = await updateOf(request, method);
        const changes = await previewStackUpdate(engine.deps, engine.cache, stack.id, req, nested);
        const { rows, stackNames } = await rowsOf(deps, changes);
        return updatePreviewBody(
          engine.deps.plugins,
          {
            projectId: stack.projectId,
            stack: { name: stack.name, id: stack.id },
            rows,
            stackNames,
          },
          changes,
        );
      },
    });

    // Hearth's own (`hearth stack plan`): the update preview with property-level diffs and reasons.
    app.route({
      method,
      url: '/stacks/:stack_name/:stack_id/plan',
      schema: { params: StackParams, querystring: PreviewQuery, body: UpdateBody, tags: ['stacks'] },
      preValidation: nullFieldsAbsent,
      handler: async (request) => {
        const { stack, req, nested } = await updateOf(request, method);
        return { plan: await planStackUpdate(engine.deps, engine.cache, stack.id, req, nested) };
      },
    });
  }
}

/** The full rows of the stacks the changes are in (status reasons, times), and those stacks' names. */
async function rowsOf(
  deps: ApiDeps,
  changes: readonly PreviewedChange[],
): Promise<{ rows: Map<number, ResourceRecord>; stackNames: Map<string, string> }> {
  const stackIds = new Set(changes.flatMap((c) => (c.stackId === null ? [] : [c.stackId])));
  const rows = new Map<number, ResourceRecord>();
  const stackNames = new Map<string, string>();
  await deps.engine.deps.store.tx(async (tx) => {
    for (const stackId of stackIds) {
      const stack = await tx.stacks.get(stackId);
      if (stack) stackNames.set(stackId, stack.name);
      for (const row of await tx.resources.listAll(stackId)) rows.set(row.id, row);
    }
  });
  return { rows, stackNames };
}
