import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import type { EventQuery, EventSortKey, StackRecord } from '../../store/contract.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../errors.js';
import { redactorFor } from '../../views/redact.js';
import { type Api, baseOf } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { eventView } from '../views/event.js';
import { ResourceParams, StackParams, Strings } from './params.js';

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 0 })),
    marker: Type.Optional(Type.String()),
    sort_keys: Type.Optional(Strings),
    sort_dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    nested_depth: Type.Optional(Type.Integer({ minimum: 0 })),
    resource_action: Type.Optional(Strings),
    resource_status: Type.Optional(Strings),
    resource_name: Type.Optional(Strings),
    resource_type: Type.Optional(Strings),
  },
  { additionalProperties: true },
);
type ListQuery = typeof ListQuery.static;

const EventParams = Type.Composite([ResourceParams, Type.Object({ event_id: Type.String() })]);

const SORT_KEYS: Record<string, EventSortKey> = { event_time: 'time', resource_type: 'type' };

/** The stack and its nested stacks down to `depth` levels, each level read at once. */
async function stackTree(engine: Engine, stack: StackRecord, depth: number): Promise<StackRecord[]> {
  const all = [stack];
  let level = [stack];
  for (let d = 0; d < depth && level.length > 0; d++) {
    const parents = level;
    level = await engine.deps.store.tx(async (tx) => {
      const children: StackRecord[] = [];
      for (const parent of parents) children.push(...(await tx.stacks.children(parent.id)));
      return children;
    });
    all.push(...level);
  }
  return all;
}

/**
 * Heat's order: newest first unless asked otherwise, but ascending when sort keys are given
 * without a direction. Paged by the store after the marker, so no more than a page is read.
 */
function eventQuery(q: ListQuery, stackIds: string[]): EventQuery {
  const keys = q.sort_keys ?? [];
  const bad = keys.find((k) => !Object.hasOwn(SORT_KEYS, k));
  if (bad !== undefined) {
    throw badRequest(`sort key "${bad}" is not one of ${Object.keys(SORT_KEYS).join(', ')}`);
  }
  return {
    stackIds,
    ...(q.resource_name ? { resourceNames: q.resource_name } : {}),
    ...(q.resource_type ? { resourceTypes: q.resource_type } : {}),
    ...(q.resource_action ? { actions: q.resource_action } : {}),
    ...(q.resource_status ? { statuses: q.resource_status } : {}),
    sortKey: keys.length > 0 ? SORT_KEYS[keys[0]!]! : 'time',
    sortDir: q.sort_dir ?? (keys.length > 0 ? 'asc' : 'desc'),
    ...(q.marker !== undefined ? { marker: q.marker } : {}),
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
  };
}

/** A stack's events (`/events`) and a resource's (`/resources/{name}/events`), and one event. */
export function registerEventRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;
  const store = engine.deps.store;

  async function list(request: FastifyRequest, stack: StackRecord, q: ListQuery, resourceName?: string) {
    const depth = q.nested_depth ?? 0;
    const stacks = await stackTree(engine, stack, depth);
    const byId = new Map(stacks.map((s) => [s.id, s]));
    const query = eventQuery(resourceName === undefined ? q : { ...q, resource_name: [resourceName] }, [
      ...byId.keys(),
    ]);
    if (query.marker !== undefined) {
      const [marker] = await store.tx((tx) =>
        tx.events.query({ stackIds: query.stackIds, uuid: query.marker!, limit: 1 }),
      );
      if (!marker)
        throw badRequest(`marker "${query.marker}" is not an event of this stack`, 'InvalidMarker');
    }
    const events = await store.tx((tx) => tx.events.query(query));
    if (events.length === 0 && resourceName !== undefined) {
      const any = await store.tx((tx) =>
        tx.events.query({ stackIds: query.stackIds, resourceNames: [resourceName], limit: 1 }),
      );
      if (any.length === 0) throw notFound(`No events found for resource ${resourceName}`, 'HTTPNotFound');
    }
    const [base, redact] = [baseOf(request), await redactorFor(engine, stack)];
    const root = depth > 0 ? { root: stack } : {};
    return { events: events.map((e) => eventView(base, e, byId.get(e.stackId)!, redact, root)) };
  }

  app.get(
    '/stacks/:stack_name/:stack_id/events',
    { schema: { params: StackParams, querystring: ListQuery, tags: ['events'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      return list(request, await stackByIdentity(engine, request, name, id), request.query);
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/resources/:resource_name/events',
    { schema: { params: ResourceParams, querystring: ListQuery, tags: ['events'] } },
    async (request) => {
      const { stack_name: name, stack_id: id, resource_name: resource } = request.params;
      return list(request, await stackByIdentity(engine, request, name, id), request.query, resource);
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/resources/:resource_name/events/:event_id',
    { schema: { params: EventParams, tags: ['events'] } },
    async (request) => {
      const { stack_name: name, stack_id: id, resource_name: resource, event_id: eventId } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const [event] = await store.tx((tx) =>
        tx.events.query({ stackIds: [stack.id], resourceNames: [resource], uuid: eventId, limit: 1 }),
      );
      if (!event) throw notFound(`There is no event ${eventId} of resource ${resource}.`, 'HTTPNotFound');
      const redact = await redactorFor(engine, stack);
      return { event: eventView(baseOf(request), event, stack, redact, { detail: true }) };
    },
  );
}
