import { Type } from '@sinclair/typebox';
import { countInParts, type ResourceCount } from '../../store/contract.js';
import { redactorFor } from '../../views/redact.js';
import { type Api, baseOf } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { stackByIdentity } from '../stack-access.js';
import { stackPath } from '../views/common.js';
import { resourceView } from '../views/resource.js';
import { refuseUnknown, StackParams } from './params.js';

/** Nested-stack resources named in a summary: a group of 10,000 members is not sent whole. */
const NESTED_SHOWN = 200;
const PAGE_DEFAULT = 100;
const PAGE_MAX = 1000;

const PageQuery = Type.Object(
  {
    type: Type.Optional(Type.String()),
    status: Type.Optional(Type.String()),
    name_contains: Type.Optional(Type.String()),
    marker: Type.Optional(Type.String()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX })),
  },
  { additionalProperties: true },
);

/** `{type: {ACTION_STATUS: n}}` and `{ACTION_STATUS: n}` from the store's counts. */
function countsView(counts: readonly ResourceCount[]) {
  const byType: Record<string, Record<string, number>> = {};
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const c of counts) {
    const status = `${c.action}_${c.status}`;
    const type = (byType[c.type] ??= {});
    type[status] = (type[status] ?? 0) + c.count;
    byStatus[status] = (byStatus[status] ?? 0) + c.count;
    total += c.count;
  }
  return { total, by_type: byType, by_status: byStatus };
}

/**
 * Hearth's own routes for a big stack's page (the web console's): its resources counted by type and
 * status, and read a page at a time, filtered, in name order. Heat's resource list answers the
 * whole stack (50 MB at 100,000 resources); these answer a few kB at any size. Under
 * /v1/{project_id}, so authenticated and tenant-scoped as every route: another project's stack is
 * the same 404.
 */
export function registerResourceSummaryRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;
  const store = engine.deps.store;

  app.get(
    '/stacks/:stack_name/:stack_id/resource-summary',
    { schema: { params: StackParams, tags: ['resources'] } },
    async (request) => {
      refuseUnknown(request.query as object, []);
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      // A part per read transaction: on SQLite a 100,000-resource count would otherwise hold the
      // read connection (every other request's reads wait for it) for its 20 statements.
      const counts = await countInParts((after) =>
        store.read((tx) => tx.resources.countCurrentPart(stack.id, after)),
      );
      const nested = await store.read((tx) => tx.resources.listNested(stack.id, NESTED_SHOWN));
      const base = baseOf(request);
      return {
        resource_summary: {
          ...countsView(counts),
          nested: {
            total: nested.total,
            resources: nested.nested.map((n) => ({
              resource_name: n.name,
              resource_status: `${n.action}_${n.status}`,
              links: [{ href: stackPath(base, { id: n.nestedId, name: n.nestedName }), rel: 'nested' }],
            })),
          },
        },
      };
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/resource-page',
    { schema: { params: StackParams, querystring: PageQuery, tags: ['resources'] } },
    async (request) => {
      const q = request.query;
      refuseUnknown(q, ['type', 'status', 'name_contains', 'marker', 'limit']);
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const limit = q.limit ?? PAGE_DEFAULT;
      const rows = await store.read((tx) =>
        tx.resources.listPage(stack.id, {
          ...(q.type !== undefined ? { type: q.type } : {}),
          ...(q.status !== undefined ? { status: q.status } : {}),
          ...(q.name_contains ? { nameContains: q.name_contains } : {}),
          ...(q.marker !== undefined ? { marker: q.marker } : {}),
          limit,
        }),
      );
      const [base, redact] = [baseOf(request), await redactorFor(engine, stack)];
      return {
        resources: rows.map((row) => resourceView(base, { row, stack, requiredBy: [] }, redact)),
        // The marker of the next page, while this one is full.
        ...(rows.length === limit ? { next_marker: rows.at(-1)!.name } : {}),
      };
    },
  );
}
