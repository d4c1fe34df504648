import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { markUnhealthy } from '../../engine/operations/lifecycle.js';
import { currentRow } from '../../engine/core/rows.js';
import type { ResourceRecord, StackRecord } from '../../store/contract.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { redactorFor } from '../../views/redact.js';
import { replyNull } from '../replies.js';
import { acceptSignal } from '../signal.js';
import { listResources, type ResourceFilter } from '../resource-listing.js';
import { type Api, baseOf } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { serverMetadata } from '../agent/metadata.js';
import { resourceView } from '../views/resource.js';
import { boolParam, refuseUnknown, ResourceParams, StackParams, Strings } from './params.js';

const FILTERS = ['name', 'type', 'status', 'action', 'id', 'physical_resource_id'] as const;

const ListQuery = Type.Object(
  {
    nested_depth: Type.Optional(Type.Integer({ minimum: 0 })),
    with_detail: Type.Optional(Type.String()),
    ...Object.fromEntries(FILTERS.map((f) => [f, Type.Optional(Strings)])),
  },
  { additionalProperties: true },
);
const ShowQuery = Type.Object({ with_attr: Type.Optional(Strings) }, { additionalProperties: true });

type Filters = Partial<Record<(typeof FILTERS)[number], string[]>>;

function resourceFilter(q: Filters): ResourceFilter {
  return {
    ...(q.name ? { names: q.name } : {}),
    ...(q.type ? { types: q.type } : {}),
    ...(q.status ? { statuses: q.status } : {}),
    ...(q.action ? { actions: q.action } : {}),
    ...(q.id ? { ids: q.id } : {}),
    ...(q.physical_resource_id ? { physicalIds: q.physical_resource_id } : {}),
  };
}

function resourceNotFound(stack: StackRecord, name: string): HttpError {
  return notFound(`There is no resource "${name}" in stack ${stack.name}.`, 'ResourceNotFound');
}

/** Heat answers actions on a resource with 200 and a JSON null. */
/**
 * A stack's resources: list (nested stacks' too, with `nested_depth`), show, metadata, signal and
 * mark unhealthy, under `/stacks/{name}/{id}/resources`.
 */
export function registerResourceRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;
  const maxDepth = engine.deps.settings.limits.maxNestingDepth;

  /** The stack of the URL and its resource's current row, or Heat's 404. */
  async function resourceOf(request: FastifyRequest, params: typeof ResourceParams.static) {
    const stack = await stackByIdentity(engine, request, params.stack_name, params.stack_id);
    const row: ResourceRecord | undefined = currentRow(
      await engine.deps.store.tx((tx) => tx.resources.findByName(stack.id, params.resource_name)),
    );
    if (!row) throw resourceNotFound(stack, params.resource_name);
    return { stack, row };
  }

  app.get(
    '/stacks/:stack_name/:stack_id/resources',
    { schema: { params: StackParams, querystring: ListQuery, tags: ['resources'] } },
    async (request) => {
      const q = request.query as typeof ListQuery.static & Filters;
      refuseUnknown(q, ['nested_depth', 'with_detail', ...FILTERS]);
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const detail = q.with_detail === undefined ? false : boolParam('with_detail', q.with_detail);
      const shown = await listResources(engine, stack, {
        depth: Math.min(q.nested_depth ?? 0, maxDepth),
        filter: resourceFilter(q),
        detail,
      });
      const [base, redact] = [baseOf(request), await redactorFor(engine, stack)];
      return { resources: shown.map((r) => resourceView(base, r, redact)) };
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/resources/:resource_name',
    { schema: { params: ResourceParams, querystring: ShowQuery, tags: ['resources'] } },
    async (request) => {
      const { stack } = await resourceOf(request, request.params);
      const [shown] = await listResources(engine, stack, {
        depth: 0,
        filter: { names: [request.params.resource_name] },
        detail: true,
        withAttr: request.query.with_attr ?? [],
      });
      if (!shown) throw resourceNotFound(stack, request.params.resource_name);
      return { resource: resourceView(baseOf(request), shown, await redactorFor(engine, stack)) };
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/resources/:resource_name/metadata',
    { schema: { params: ResourceParams, tags: ['resources'] } },
    async (request) => {
      const { stack, row } = await resourceOf(request, request.params);
      return { metadata: await serverMetadata(engine, stack, row) };
    },
  );

  // The signal is queued (it survives a restart) and handled by the engine's workers.
  app.post(
    '/stacks/:stack_name/:stack_id/resources/:resource_name/signal',
    { schema: { params: ResourceParams, tags: ['resources'] } },
    async (request, reply) => {
      const { stack, row } = await resourceOf(request, request.params);
      await acceptSignal(engine, stack.id, row.name, request.body);
      return replyNull(reply);
    },
  );

  app.patch(
    '/stacks/:stack_name/:stack_id/resources/:resource_name',
    {
      schema: {
        params: ResourceParams,
        body: Type.Record(Type.String(), Type.Unknown()),
        tags: ['resources'],
      },
    },
    async (request, reply) => {
      const body = request.body;
      const unknown = Object.keys(body).filter(
        (k) => k !== 'mark_unhealthy' && k !== 'resource_status_reason',
      );
      if (unknown.length > 0)
        throw badRequest(`Invalid keys in the mark unhealthy request: ${unknown.join(', ')}`);
      if (!Object.hasOwn(body, 'mark_unhealthy')) throw badRequest('The request must have mark_unhealthy');
      const unhealthy = boolParam('mark_unhealthy', body.mark_unhealthy);
      const reason = body.resource_status_reason ?? '';
      if (typeof reason !== 'string') throw badRequest('resource_status_reason must be a string');
      const { stack, row } = await resourceOf(request, request.params);
      await markUnhealthy(engine.deps, stack.id, row.name, reason, unhealthy);
      return replyNull(reply);
    },
  );
}
