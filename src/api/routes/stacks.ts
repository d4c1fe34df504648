import { Type } from '@sinclair/typebox';
import { isAdmin } from '../../auth/identity.js';
import { abandonStack, exportStack } from '../../engine/operations/abandon.js';
import { adoptStack } from '../../engine/operations/adopt.js';
import { adoptRequest } from '../request/adopt-body.js';
import { createStack } from '../../engine/operations/create.js';
import { deleteStack } from '../../engine/operations/lifecycle.js';
import { updateStack } from '../../engine/operations/update.js';
import { stackOutputs } from '../../engine/context/outputs.js';
import type { StackQuery, StackRecord, StackSortKey } from '../../store/contract.js';
import { newStackCredentials } from '../credentials.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, HttpError } from '../errors.js';
import { queryBool } from '../request/query.js';
import { redactJson, redactorFor } from '../../views/redact.js';
import {
  CreateBody,
  createRequest,
  nullFieldsAbsent,
  tagList,
  UpdateBody,
  updateRequest,
} from '../request/stack-body.js';
import { type Api, baseOf } from '../context.js';
import { isArn, redirectToArn, registerArnLookupRoute } from './arn-lookup.js';
import { stackByIdentity, stackByNameOrId } from '../stack-access.js';
import { stackHead } from '../../views/definition.js';
import { stackDetail, stackListItem } from '../views/stack.js';
import { stackPath } from '../views/common.js';

const StackParams = Type.Object({
  project_id: Type.String(),
  stack_name: Type.String(),
  stack_id: Type.String(),
});
const NameParams = Type.Object({ project_id: Type.String(), stack_name: Type.String() });
const Strings = Type.Array(Type.String());

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 0 })),
    marker: Type.Optional(Type.String()),
    sort_keys: Type.Optional(Strings),
    sort_dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    id: Type.Optional(Strings),
    name: Type.Optional(Strings),
    // Hearth's: names containing this text, case aside (the console's search).
    name_contains: Type.Optional(Type.String()),
    status: Type.Optional(Strings),
    action: Type.Optional(Strings),
    tags: Type.Optional(Type.String()),
    tags_any: Type.Optional(Type.String()),
    not_tags: Type.Optional(Type.String()),
    not_tags_any: Type.Optional(Type.String()),
    show_deleted: Type.Optional(Type.String()),
    show_nested: Type.Optional(Type.String()),
    global_tenant: Type.Optional(Type.String()),
    with_count: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

const SORT_KEYS: Record<string, StackSortKey> = {
  stack_name: 'name',
  name: 'name',
  stack_status: 'status',
  status: 'status',
  creation_time: 'createdAt',
  created_at: 'createdAt',
  updated_time: 'updatedAt',
  updated_at: 'updatedAt',
};

/**
 * The paths Heat's lookup redirects (a stack named without its id), with their methods: Heat's
 * route table (its POST and GET subpaths included), and Hearth's outputs, preview and abandon.
 */
const LOOKUPS: readonly (readonly [string, readonly ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE')[]])[] = [
  ['', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
  ['resources', ['GET', 'POST']],
  ['events', ['GET', 'POST']],
  ['template', ['GET', 'POST']],
  ['environment', ['GET']],
  ['files', ['GET']],
  ['outputs', ['GET']],
  ['actions', ['GET', 'POST']],
  ['preview', ['PUT', 'PATCH']],
  ['abandon', ['DELETE']],
];

export function registerStackRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;

  /**
   * A failed stack's reason may quote a value a check refused, a hidden one too: masked. Only
   * failed stacks' reasons are looked at, so a list binds no template of a healthy stack.
   */
  const withShownReason = async (stack: StackRecord): Promise<StackRecord> =>
    stack.status === 'FAILED'
      ? { ...stack, reason: (await redactorFor(engine, stack))(stack.reason) }
      : stack;

  for (const path of ['/stacks', '/stacks/detail']) {
    app.get(path, { schema: { querystring: ListQuery, tags: ['stacks'] } }, async (request) => {
      const q = request.query;
      const flag = (name: 'show_deleted' | 'show_nested' | 'global_tenant' | 'with_count') =>
        queryBool(q[name], name);
      const globalTenant = flag('global_tenant');
      if (globalTenant && !isAdmin(request.identity)) {
        throw new HttpError(403, 'Forbidden', 'Listing the stacks of every project needs the admin role');
      }
      const sortKey = q.sort_keys?.[0];
      if (sortKey !== undefined && !(sortKey in SORT_KEYS)) {
        throw badRequest(`sort key "${sortKey}" is not one of ${Object.keys(SORT_KEYS).join(', ')}`);
      }
      const query: StackQuery = {
        ...(globalTenant ? {} : { projectId: request.identity.projectId }),
        ...(flag('show_nested') ? {} : { parentId: null }),
        ...(flag('show_deleted') ? { includeDeleted: true } : {}),
        ...(q.id ? { ids: q.id } : {}),
        ...(q.name ? { names: q.name } : {}),
        ...(q.name_contains ? { nameContains: q.name_contains } : {}),
        ...(q.status ? { statuses: q.status } : {}),
        ...(q.action ? { actions: q.action } : {}),
        ...(q.tags ? { tags: tagList(q.tags)! } : {}),
        ...(q.tags_any ? { tagsAny: tagList(q.tags_any)! } : {}),
        ...(q.not_tags ? { notTags: tagList(q.not_tags)! } : {}),
        ...(q.not_tags_any ? { notTagsAny: tagList(q.not_tags_any)! } : {}),
        ...(sortKey ? { sortKey: SORT_KEYS[sortKey]! } : {}),
        ...(q.sort_dir ? { sortDir: q.sort_dir } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
      };
      if (q.marker !== undefined) {
        const marker = await engine.deps.store.read((tx) => tx.stacks.get(q.marker!));
        if (!marker || (!globalTenant && marker.projectId !== request.identity.projectId)) {
          throw badRequest(`marker "${q.marker}" is not a stack of this project`, 'InvalidMarker');
        }
        query.marker = q.marker;
      }
      // A read transaction: a list answers while the engine writes (store.read).
      const stacks = await engine.deps.store.read((tx) => tx.stacks.query(query));
      const base = baseOf(request);
      const body: Record<string, unknown> = {
        stacks: await Promise.all(
          stacks.map(async (s) => stackListItem(base, await withShownReason(s), path === '/stacks')),
        ),
      };
      if (flag('with_count')) {
        body.count = await engine.deps.store.read((tx) => tx.stacks.count(query));
      }
      return body;
    });
  }

  const createOptions = { schema: { body: CreateBody, tags: ['stacks'] }, preValidation: nullFieldsAbsent };
  app.post('/stacks', createOptions, async (request, reply) => {
    const projectId = request.identity.projectId;
    // The stack acts as its creator from now on: whoever updates or deletes it later.
    const credentials = newStackCredentials(deps, request.identity, request.headers);
    const stack =
      request.body.adopt_stack_data !== undefined
        ? await adoptStack(engine.deps, engine.cache, {
            ...(await adoptRequest(deps, projectId, request.body)),
            credentials,
          })
        : await createStack(engine.deps, engine.cache, {
            ...(await createRequest(deps, projectId, request.body)),
            credentials,
          });
    const href = stackPath(baseOf(request), stack);
    // As Heat: the new stack's URL in Location too, for clients that follow it.
    return reply
      .status(201)
      .header('location', href)
      .send({ stack: { id: stack.id, links: [{ href, rel: 'self' }] } });
  });

  // Heat's lookup: a stack named without its id answers with a redirect to its canonical URL,
  // for any method (heatclient follows it keeping the method: `stack delete NAME` is a DELETE
  // of /stacks/NAME), and with the rest of the path for the stack's sub-resources.
  for (const [sub, methods] of LOOKUPS) {
    app.route({
      method: [...methods],
      url: `/stacks/:stack_name${sub === '' ? '' : `/${sub}`}`,
      schema: { params: NameParams, ...(sub === '' ? { tags: ['stacks'] } : { hide: true }) },
      handler: async (request, reply) => {
        const { stack_name: name } = request.params as { stack_name: string };
        // An ARN sent encoded (one path segment) names the stack and the path itself.
        if (sub === '' && isArn(name)) return redirectToArn(deps, request, reply, name);
        const stack = await stackByNameOrId(engine, request, name);
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const rest = sub === '' ? '' : `/${sub}`;
        return reply.redirect(`${stackPath(baseOf(request), stack)}${rest}${query}`, 302);
      },
    });
  }

  registerArnLookupRoute(app, deps);

  app.get(
    '/stacks/:stack_name/:stack_id',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      // As Heat: `resolve_outputs=false` leaves the outputs out, so a client polling the status
      // (a wait) costs no read of every resource.
      // openstackclient repeats it (`?resolve_outputs=False&resolve_outputs=False`): the last one
      // counts, as webob's params.get gives Heat.
      const given = (request.query as { resolve_outputs?: string | string[] }).resolve_outputs;
      const resolve = Array.isArray(given) ? given.at(-1) : given;
      const withOutputs = resolve === undefined || queryBool(resolve, 'resolve_outputs');
      const stack = await stackByIdentity(engine, request, name, id);
      // The detail reads the head (description, parameters); outputs bind the whole template.
      const definition = await stackHead(engine, stack);
      const outputs =
        definition && withOutputs ? await stackOutputs(engine.deps, engine.cache, stack) : undefined;
      const redact = await redactorFor(engine, stack);
      for (const output of outputs ?? []) {
        if (output.output_error !== undefined) output.output_error = redact(output.output_error);
      }
      const detail = stackDetail(
        baseOf(request),
        { ...stack, reason: redact(stack.reason) },
        definition,
        outputs,
      );
      // A nested stack's parameters are its parent's properties: a parent's hidden value among them is masked.
      detail.parameters = redactJson(detail.parameters!, redact);
      return { stack: detail };
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/stacks/:stack_name/:stack_id',
      schema: { params: StackParams, body: UpdateBody, tags: ['stacks'] },
      preValidation: nullFieldsAbsent,
      handler: async (request, reply) => {
        const { stack_name: name, stack_id: id } = request.params as { stack_name: string; stack_id: string };
        const stack = await stackByIdentity(engine, request, name, id);
        const body = request.body as UpdateBody;
        const patch = method === 'PATCH' || body.existing === true;
        const req = await updateRequest(engine, stack, body, patch);
        await updateStack(engine.deps, engine.cache, stack.id, req);
        return reply.status(202).send();
      },
    });
  }

  app.delete(
    '/stacks/:stack_name/:stack_id',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request, reply) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      await deleteStack(engine.deps, stack.id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/stacks/:stack_name/:stack_id/abandon',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      return abandonStack(engine.deps, stack.id);
    },
  );

  // Heat's export: abandon's document, the stack left as it is (read only, so any state will do).
  app.get(
    '/stacks/:stack_name/:stack_id/export',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      return exportStack(engine.deps, stack.id);
    },
  );
}
