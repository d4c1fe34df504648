import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Api } from '../../src/api/context.js';
import { type HeatError, SAMPLE_TEMPLATE, startApi, tenant, type TestApi } from './harness.js';

/**
 * Tenant isolation over every route: project A's token never reads, changes or learns of project
 * B's stacks.
 *
 * ROUTES has one row per route under /v1/{project_id} (a route with several bodies may have a row
 * for each); a test fails when a registered route has no row, so add one when a route lands:
 *
 *   route   'METHOD /path' as registered, parameters in braces: {stack_name} and {stack_id} (the
 *           stack's identity), {stack_name} alone (a lookup: tried with B's name and B's id),
 *           {resource_name} (a resource of the stack: r1 or r2 of SAMPLE_TEMPLATE).
 *   own     the status the route answers A for A's own stack: the control showing that the path
 *           and body are right, so that the 404 for B's stack is isolation, not a typo.
 *   body    the JSON body, if the route takes one.
 *   params  values for any other placeholder, from the stack the row is tried on.
 *   lists   the answer lists stacks: tried with filters and paging, B's stacks must be absent.
 *
 * For each row: A's token on a URL naming project B answers 403; on A's URL naming B's stack (by
 * name, by id, by A's name with B's id, ...) it answers exactly what a stack that does not exist
 * gets; and B's stored stacks (row, template, resources, events, queued work) are unchanged.
 */
interface RouteRow {
  route: string;
  /** The URL's path when it is not the route's (a wildcard route); `{project}` is the URL's project. */
  path?: string;
  own: number;
  body?: unknown;
  params?: (stack: StackRef) => Record<string, string>;
  lists?: true;
}

interface StackRef {
  name: string;
  id: string;
}

const NO_ID = '00000000-0000-4000-8000-00000000c0f1';

const ROUTES: RouteRow[] = [
  { route: 'GET /stacks', own: 200, lists: true },
  { route: 'GET /stacks/detail', own: 200, lists: true },
  { route: 'POST /stacks', own: 201, body: { stack_name: 'made-by-row', template: SAMPLE_TEMPLATE } },
  { route: 'GET /stacks/{stack_name}', own: 302 },
  { route: 'GET /stacks/{stack_name}/resources', own: 302 },
  { route: 'GET /stacks/{stack_name}/events', own: 302 },
  { route: 'GET /stacks/{stack_name}/template', own: 302 },
  { route: 'GET /stacks/{stack_name}/environment', own: 302 },
  { route: 'GET /stacks/{stack_name}/files', own: 302 },
  { route: 'GET /stacks/{stack_name}/outputs', own: 302 },
  // Heat's route table has these lookups too (no client sends them): redirected all the same.
  { route: 'POST /stacks/{stack_name}', own: 302 },
  { route: 'POST /stacks/{stack_name}/resources', own: 302 },
  { route: 'POST /stacks/{stack_name}/events', own: 302 },
  { route: 'POST /stacks/{stack_name}/template', own: 302 },
  { route: 'GET /stacks/{stack_name}/actions', own: 302 },
  { route: 'DELETE /stacks/{stack_name}/abandon', own: 302 },
  { route: 'PUT /stacks/{stack_name}', own: 302, body: { template: SAMPLE_TEMPLATE } },
  { route: 'PATCH /stacks/{stack_name}', own: 302, body: { parameters: { v: 'x' } } },
  { route: 'DELETE /stacks/{stack_name}', own: 302 },
  { route: 'POST /stacks/{stack_name}/actions', own: 302, body: { check: null } },
  { route: 'PUT /stacks/{stack_name}/preview', own: 302, body: { template: SAMPLE_TEMPLATE } },
  { route: 'PATCH /stacks/{stack_name}/preview', own: 302, body: { parameters: { v: 'x' } } },
  // Heat's ARN in place of a stack's name (a wildcard route): redirected as a name's lookup is.
  ...(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).map((method) => ({
    route: `${method} /stacks*`,
    path: '/stacks/arn:openstack:heat::{project}:stacks/{stack_name}/{stack_id}',
    own: 302,
  })),
  { route: 'GET /stacks/{stack_name}/{stack_id}', own: 200 },
  {
    route: 'PUT /stacks/{stack_name}/{stack_id}',
    own: 202,
    body: { template: SAMPLE_TEMPLATE, parameters: { v: 'put-by-row' } },
  },
  { route: 'PATCH /stacks/{stack_name}/{stack_id}', own: 202, body: { parameters: { v: 'patched-by-row' } } },
  { route: 'DELETE /stacks/{stack_name}/{stack_id}', own: 204 },
  { route: 'DELETE /stacks/{stack_name}/{stack_id}/abandon', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/export', own: 200 },
  // Admin only (Heat's service:index): a member's own project is refused too; no stack in it.
  { route: 'GET /services', own: 403 },
  { route: 'POST /stacks/{stack_name}/{stack_id}/actions', own: 200, body: { check: null } },
  { route: 'POST /stacks/{stack_name}/{stack_id}/actions', own: 200, body: { suspend: null } },
  // Nothing to cancel on a complete stack: the 409 still shows the stack was found.
  { route: 'POST /stacks/{stack_name}/{stack_id}/actions', own: 409, body: { cancel_update: null } },
  { route: 'POST /stacks/{stack_name}/{stack_id}/drift', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/drift', own: 200 },
  // The console's live stream; max_seconds=0 answers what there is and ends.
  {
    route: 'GET /stacks/{stack_name}/{stack_id}/watch',
    path: '/stacks/{stack_name}/{stack_id}/watch?max_seconds=0',
    own: 200,
  },
  { route: 'POST /stacks/{stack_name}/{stack_id}/snapshots', own: 200, body: { name: 'by-row' } },
  { route: 'GET /stacks/{stack_name}/{stack_id}/snapshots', own: 200 },
  // No such snapshot in A's stack either: the control is the snapshot's 404, B's stack the stack's.
  ...(['GET', 'DELETE'] as const).map((method) => ({
    route: `${method} /stacks/{stack_name}/{stack_id}/snapshots/{snapshot_id}`,
    own: 404,
    params: () => ({ snapshot_id: '00000000-0000-4000-8000-0000000005a9' }),
  })),
  {
    route: 'POST /stacks/{stack_name}/{stack_id}/snapshots/{snapshot_id}/restore',
    own: 404,
    params: () => ({ snapshot_id: '00000000-0000-4000-8000-0000000005a9' }),
  },
  { route: 'POST /stacks/preview', own: 200, body: { stack_name: 'previewed', template: SAMPLE_TEMPLATE } },
  { route: 'PUT /stacks/{stack_name}/{stack_id}/preview', own: 200, body: { template: SAMPLE_TEMPLATE } },
  { route: 'PATCH /stacks/{stack_name}/{stack_id}/preview', own: 200, body: { parameters: { v: 'x' } } },
  // Hearth's own: the update preview with property diffs (`hearth stack plan`).
  { route: 'PUT /stacks/{stack_name}/{stack_id}/plan', own: 200, body: { template: SAMPLE_TEMPLATE } },
  { route: 'PATCH /stacks/{stack_name}/{stack_id}/plan', own: 200, body: { parameters: { v: 'x' } } },
  { route: 'POST /validate', own: 200, body: { template: SAMPLE_TEMPLATE } },
  { route: 'GET /resource_types', own: 200 },
  {
    route: 'GET /resource_types/{type_name}',
    own: 200,
    params: () => ({ type_name: 'OS::Heat::RandomString' }),
  },
  {
    route: 'GET /resource_types/{type_name}/template',
    own: 200,
    params: () => ({ type_name: 'OS::Heat::RandomString' }),
  },
  { route: 'GET /template_versions', own: 200 },
  {
    route: 'GET /template_versions/{template_version}/functions',
    own: 200,
    params: () => ({ template_version: 'heat_template_version.2018-08-31' }),
  },
  { route: 'GET /build_info', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/resources', own: 200 },
  // The console's counts and pages of a big stack (Hearth's).
  { route: 'GET /stacks/{stack_name}/{stack_id}/resource-summary', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/resource-page', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/resources/{resource_name}', own: 200 },
  {
    route: 'PATCH /stacks/{stack_name}/{stack_id}/resources/{resource_name}',
    own: 200,
    body: { mark_unhealthy: true, resource_status_reason: 'marked by row' },
  },
  { route: 'GET /stacks/{stack_name}/{stack_id}/resources/{resource_name}/metadata', own: 200 },
  // TestResource takes no signals: the 400 shows the resource was found.
  { route: 'POST /stacks/{stack_name}/{stack_id}/resources/{resource_name}/signal', own: 400, body: {} },
  { route: 'GET /stacks/{stack_name}/{stack_id}/resources/{resource_name}/events', own: 200 },
  // No such event in A's stack either: the control is the event's 404, B's stack the stack's.
  {
    route: 'GET /stacks/{stack_name}/{stack_id}/resources/{resource_name}/events/{event_id}',
    own: 404,
    params: () => ({ event_id: '00000000-0000-4000-8000-00000000e7e7' }),
  },
  { route: 'GET /stacks/{stack_name}/{stack_id}/events', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/environment', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/outputs', own: 200 },
  {
    route: 'GET /stacks/{stack_name}/{stack_id}/outputs/{output_key}',
    own: 200,
    params: () => ({ output_key: 'out' }),
  },
  { route: 'GET /stacks/{stack_name}/{stack_id}/template', own: 200 },
  { route: 'GET /stacks/{stack_name}/{stack_id}/files', own: 200 },
  // Software configs and deployments are the project's, not a stack's (test/api/software.test.ts
  // shows another project's are 404s); an id of no config or deployment is the 404 control.
  { route: 'GET /software_configs', own: 200 },
  { route: 'POST /software_configs', own: 200, body: { name: 'made-by-row', config: 'echo' } },
  { route: 'GET /software_configs/{config_id}', own: 404, params: () => ({ config_id: NO_ID }) },
  { route: 'DELETE /software_configs/{config_id}', own: 404, params: () => ({ config_id: NO_ID }) },
  { route: 'GET /software_deployments', own: 200 },
  { route: 'POST /software_deployments', own: 400, body: { config_id: NO_ID, server_id: 'srv' } },
  {
    route: 'GET /software_deployments/metadata/{server_id}',
    own: 200,
    params: () => ({ server_id: 'srv' }),
  },
  { route: 'GET /software_deployments/{deployment_id}', own: 404, params: () => ({ deployment_id: NO_ID }) },
  {
    route: 'PUT /software_deployments/{deployment_id}',
    own: 404,
    body: { status: 'COMPLETE' },
    params: () => ({ deployment_id: NO_ID }),
  },
  {
    route: 'DELETE /software_deployments/{deployment_id}',
    own: 404,
    params: () => ({ deployment_id: NO_ID }),
  },
];

/** The routes the server registered under /v1/{project_id}, as `METHOD /path` (HEAD left out). */
function registeredRoutes(app: Api): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (prefixes[depth - 1] ?? '') + m[2]!;
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (!path.startsWith('/v1/:project_id/')) continue;
    const shown = path.slice('/v1/:project_id'.length).replace(/:(\w+)/g, '{$1}');
    for (const method of (m[3] ?? '').split(', ')) {
      if (method !== '' && method !== 'HEAD') routes.push(`${method} ${shown}`);
    }
  }
  return routes;
}

function split(route: string): { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string } {
  const [method, path] = route.split(' ') as ['GET', string];
  return { method, path };
}

/** The row's path for `stack`, every placeholder filled (a row must give values for new ones). */
function fill(row: RouteRow, stack: StackRef, name: string = stack.name, id: string = stack.id): string {
  const values: Record<string, string> = {
    stack_name: name,
    stack_id: id,
    resource_name: 'r1',
    ...row.params?.(stack),
  };
  return (row.path ?? split(row.route).path).replace(/\{(\w+)\}/g, (placeholder, key: string) => {
    if (key === 'project') return placeholder;
    const value = values[key];
    if (value === undefined)
      throw new Error(`${row.route}: no value for {${key}}: give it in the row's params`);
    return encodeURIComponent(value);
  });
}

const pathOf = (row: RouteRow) => row.path ?? row.route;
const takesStack = (row: RouteRow) => pathOf(row).includes('{stack_name}');
const isLookup = (row: RouteRow) => takesStack(row) && !pathOf(row).includes('{stack_id}');
function rowName(row: RouteRow): string {
  if (row.body === undefined) return row.route;
  const json = JSON.stringify(row.body);
  return `${row.route} ${json.length <= 60 ? json : `{${Object.keys(row.body as object).join(', ')}}`}`;
}

describe('API: tenant isolation', () => {
  let api: TestApi;
  let a: { projectId: string; token: string };
  let b: { projectId: string; token: string };
  let admin: { projectId: string; token: string };
  /** B's stacks: one with a name only B uses, one whose name A uses too. */
  let bPrivate: StackRef;
  let bShared: StackRef;
  let aShared: StackRef;

  async function create(who: { projectId: string; token: string }, name: string): Promise<StackRef> {
    const res = await api.call('POST', `/v1/${who.projectId}/stacks`, {
      token: who.token,
      body: { stack_name: name, template: SAMPLE_TEMPLATE },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { id } = (res.json() as { stack: { id: string } }).stack;
    await api.settle(id);
    return { name, id };
  }

  /** Everything stored about B's stacks that a request could change. */
  async function snapshotB(): Promise<unknown> {
    return api.engine.deps.store.tx(async (tx) => {
      const out: unknown[] = [];
      for (const { id } of [bPrivate, bShared]) {
        const stack = await tx.stacks.get(id);
        out.push({
          stack,
          template: stack?.templateId ? await tx.templates.get(stack.templateId) : undefined,
          resources: await tx.resources.listAll(id),
          lastEvent: await tx.events.latestId(id),
          work: await tx.work.countForStack(id),
        });
      }
      out.push(await tx.stacks.list({ projectId: b.projectId }));
      return out;
    });
  }

  /** What B's identifiers would look like in a response that leaks them. */
  function leaks(text: string): string[] {
    return [bPrivate.id, bShared.id, bPrivate.name, b.projectId].filter((s) => text.includes(s));
  }

  function call(
    row: RouteRow,
    project: string,
    path: string,
    token: string,
  ): Promise<LightMyRequestResponse> {
    const { method } = split(row.route);
    return api.call(method, `/v1/${project}${path.replaceAll('{project}', project)}`, {
      token,
      ...(row.body === undefined ? {} : { body: row.body }),
    });
  }

  before(async () => {
    api = await startApi({ auth: 'standalone' });
    a = await tenant(api, 'tenant-a');
    b = await tenant(api, 'tenant-b');
    admin = await tenant(api, 'operators', ['admin']);
    bPrivate = await create(b, 'b-private');
    bShared = await create(b, 'shared-name');
    aShared = await create(a, 'shared-name');
  });
  after(() => api.close());

  it('has a row for every route under /v1/{project_id}, and no row for a route that does not exist', () => {
    const registered = registeredRoutes(api.app);
    assert.ok(registered.length > 5, `routes found: ${registered.join(', ')}`);
    const rows = new Set(ROUTES.map((r) => r.route));
    const missing = registered.filter((r) => !rows.has(r));
    assert.deepEqual(missing, [], `routes without a row in ROUTES (add them): ${missing.join(', ')}`);
    const stale = [...rows].filter((r) => !registered.includes(r));
    assert.deepEqual(stale, [], `rows for routes that do not exist: ${stale.join(', ')}`);
  });

  ROUTES.forEach((row, index) => {
    describe(rowName(row), () => {
      it('answers A’s token on a URL naming project B with 403, changing nothing of B', async () => {
        const before = await snapshotB();
        const res = await call(row, b.projectId, fill(row, bPrivate), a.token);
        assert.equal(res.statusCode, 403, res.body);
        assert.equal((res.json() as HeatError).error.type, 'Forbidden');
        assert.deepEqual(leaks(res.body.replaceAll(b.projectId, '')), [], res.body);
        assert.deepEqual(await snapshotB(), before, 'B’s stacks changed');
      });

      if (takesStack(row)) {
        it('answers A for B’s stack exactly as for a stack that does not exist, changing nothing', async () => {
          const missing: StackRef = { name: `no-such-${index}`, id: randomUUID() };
          // [B's stack named this way, a missing stack named the same way]
          const ways: [string, string][] = isLookup(row)
            ? [
                [fill(row, bPrivate), fill(row, missing)],
                [fill(row, bPrivate, bPrivate.id), fill(row, missing, missing.id)],
              ]
            : [
                [fill(row, bPrivate), fill(row, missing)],
                [fill(row, bPrivate, bPrivate.id), fill(row, missing, missing.id)],
                [fill(row, bPrivate, aShared.name), fill(row, missing, aShared.name)],
              ];
          const before = await snapshotB();
          for (const [foreign, absent] of ways) {
            const got = await call(row, a.projectId, foreign, a.token);
            const expected = await call(row, a.projectId, absent, a.token);
            assert.equal(got.statusCode, 404, `${foreign}: ${got.body}`);
            assert.equal((got.json() as HeatError).error.type, 'EntityNotFound', got.body);
            assert.equal(got.headers.location, undefined);
            const normalised = (text: string, ref: StackRef) =>
              text.replaceAll(ref.id, '<id>').replaceAll(ref.name, '<name>');
            assert.equal(normalised(got.body, bPrivate), normalised(expected.body, missing), foreign);
            assert.equal(got.statusCode, expected.statusCode);
          }
          assert.deepEqual(await snapshotB(), before, 'B’s stacks changed');
        });
      }

      it(`serves A’s own stack (${row.own}): the control, with nothing of B in the answer`, async () => {
        const own = takesStack(row) ? await create(a, `own-${index}`) : { name: 'none', id: 'none' };
        const before = await snapshotB();
        const res = await call(row, a.projectId, fill(row, own), a.token);
        assert.equal(res.statusCode, row.own, res.body);
        assert.deepEqual(leaks(res.body + String(res.headers.location ?? '')), [], res.body);
        if (takesStack(row)) await api.settle(own.id);
        assert.deepEqual(await snapshotB(), before, 'B’s stacks changed');
      });

      if (row.lists) {
        it('lists none of B’s stacks, whatever the filters and paging', async () => {
          const { path } = split(row.route);
          const queries = [
            '',
            '?show_nested=true&show_deleted=true',
            `?id=${bPrivate.id}`,
            '?name=b-private',
            '?name=shared-name',
            '?global_tenant=false',
            '?sort_keys=stack_name&sort_dir=asc&limit=100',
            '?with_count=true',
          ];
          const ownIds = (
            (await api.call('GET', `/v1/${a.projectId}${path}`, { token: a.token })).json() as {
              stacks: { id: string }[];
            }
          ).stacks.map((s) => s.id);
          assert.ok(ownIds.includes(aShared.id));
          for (const query of queries) {
            const res = await api.call('GET', `/v1/${a.projectId}${path}${query}`, { token: a.token });
            assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
            assert.deepEqual(leaks(res.body), [], `${query}: ${res.body}`);
            const body = res.json() as { stacks: { id: string }[]; count?: number };
            for (const s of body.stacks) assert.ok(ownIds.includes(s.id), `${query}: ${s.id} is not A's`);
            if (body.count !== undefined)
              assert.equal(body.count, ownIds.length, 'with_count counts A’s only');
          }
          const byName = (
            (
              await api.call('GET', `/v1/${a.projectId}${path}?name=shared-name`, { token: a.token })
            ).json() as {
              stacks: { id: string }[];
            }
          ).stacks.map((s) => s.id);
          assert.deepEqual(byName, [aShared.id]);
          // B's stack as a paging marker: refused as a marker that does not exist is.
          const marker = await api.call('GET', `/v1/${a.projectId}${path}?marker=${bPrivate.id}`, {
            token: a.token,
          });
          const absent = randomUUID();
          const noMarker = await api.call('GET', `/v1/${a.projectId}${path}?marker=${absent}`, {
            token: a.token,
          });
          assert.equal(marker.statusCode, 400);
          assert.equal(marker.body.replaceAll(bPrivate.id, '<id>'), noMarker.body.replaceAll(absent, '<id>'));
        });

        it('refuses global_tenant without the admin role (403) and lists every project’s with it', async () => {
          const { path } = split(row.route);
          const refused = await api.call('GET', `/v1/${a.projectId}${path}?global_tenant=true`, {
            token: a.token,
          });
          assert.equal(refused.statusCode, 403);
          assert.equal((refused.json() as HeatError).error.type, 'Forbidden');
          assert.deepEqual(leaks(refused.body), []);
          const allowed = await api.call('GET', `/v1/${admin.projectId}${path}?global_tenant=true`, {
            token: admin.token,
          });
          assert.equal(allowed.statusCode, 200, allowed.body);
          const ids = (allowed.json() as { stacks: { id: string }[] }).stacks.map((s) => s.id);
          for (const id of [bPrivate.id, bShared.id, aShared.id]) assert.ok(ids.includes(id), id);
        });
      }
    });
  });

  it('looks a shared name up in A’s own project, and lets A create a name B uses (no 409 telling of B)', async () => {
    const lookup = await api.call('GET', `/v1/${a.projectId}/stacks/shared-name`, { token: a.token });
    assert.equal(lookup.statusCode, 302);
    assert.match(lookup.headers.location as string, new RegExp(`/${aShared.id}$`));
    const before = await snapshotB();
    const made = await create(a, 'b-private');
    assert.notEqual(made.id, bPrivate.id);
    assert.deepEqual(await snapshotB(), before);
  });

  it('leaves B’s stacks as they were after every row, and B can still use them', async () => {
    const shown = await api.call('GET', `/v1/${b.projectId}/stacks/b-private/${bPrivate.id}`, {
      token: b.token,
    });
    assert.equal(shown.statusCode, 200);
    const stack = (shown.json() as { stack: { stack_status: string; parameters: Record<string, string> } })
      .stack;
    assert.equal(stack.stack_status, 'CREATE_COMPLETE');
    assert.equal(stack.parameters.v, 'one');
  });
});
