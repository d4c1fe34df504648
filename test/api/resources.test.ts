import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, startApi, type TestApi, tenant } from './harness.js';
import { type CreatedStack, createStack, type Link, linkPath } from './stack-helpers.js';

interface Resource {
  resource_name: string;
  logical_resource_id: string;
  physical_resource_id: string;
  resource_status: string;
  resource_status_reason: string;
  resource_type: string;
  links: Link[];
  required_by: string[];
  creation_time: string;
  updated_time: string;
  parent_resource?: string;
  description?: string;
  attributes?: Record<string, unknown>;
}

const TEMPLATE = {
  heat_template_version: '2018-08-31',
  parameters: { v: { type: 'string', default: 'one' } },
  resources: {
    r1: {
      type: 'OS::Heat::TestResource',
      description: 'the first',
      metadata: { role: { get_param: 'v' }, size: 3 },
      properties: { value: { get_param: 'v' } },
    },
    r2: { type: 'OS::Heat::TestResource', properties: { value: { get_attr: ['r1', 'output'] } } },
    rs: { type: 'OS::Heat::RandomString', properties: { length: 8 } },
    val: {
      type: 'OS::Heat::Value',
      properties: { value: { list_join: ['-', [{ get_param: 'v' }, { get_resource: 'rs' }]] } },
    },
  },
};

const MEMBER = `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
resources:
  inner:
    type: OS::Heat::Value
    metadata: {parent: {resource_facade: metadata}}
    properties: {value: {get_param: v}}
outputs:
  out: {value: {get_attr: [inner, value]}}
`;

const NESTED = {
  template: {
    heat_template_version: '2018-08-31',
    resources: {
      child: { type: 'member.yaml', metadata: { role: 'front' }, properties: { v: 'hello' } },
      group: {
        type: 'OS::Heat::ResourceGroup',
        properties: { count: 2, resource_def: { type: 'member.yaml', properties: { v: 'm' } } },
      },
    },
  },
  files: { 'member.yaml': MEMBER },
};

/** Heat's keys of a resource in a list, in its order (resources-list.txt). */
const LIST_KEYS = [
  'updated_time',
  'creation_time',
  'logical_resource_id',
  'resource_name',
  'physical_resource_id',
  'resource_status',
  'resource_status_reason',
  'resource_type',
  'links',
  'required_by',
];

describe('API: resources', () => {
  let api: TestApi;
  let sample: CreatedStack;
  const P = 'proj';
  before(async () => {
    api = await startApi();
    sample = await createStack(api, P, 'sample', { template: TEMPLATE });
  });
  after(() => api.close());

  async function list(url: string): Promise<Resource[]> {
    const res = await api.call('GET', url);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { resources: Resource[] }).resources;
  }
  const byName = (resources: Resource[]) => new Map(resources.map((r) => [r.resource_name, r]));
  const names = (resources: Resource[]) => resources.map((r) => r.resource_name).sort();

  it('lists the resources in Heat’s shape: links to each and its stack, who requires it', async () => {
    const resources = await list(`${sample.url}/resources`);
    assert.deepEqual(names(resources), ['r1', 'r2', 'rs', 'val']);
    for (const r of resources) {
      assert.deepEqual(Object.keys(r), LIST_KEYS);
      assert.equal(r.logical_resource_id, r.resource_name);
      assert.equal(r.resource_status, 'CREATE_COMPLETE');
      assert.match(r.physical_resource_id, new RegExp(`^sample-${r.resource_name}-`));
      assert.match(r.creation_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(linkPath(r.links, 'self'), `${sample.url}/resources/${r.resource_name}`);
      assert.equal(linkPath(r.links, 'stack'), sample.url);
      assert.equal(r.links.length, 2);
    }
    const shown = byName(resources);
    assert.deepEqual(shown.get('r1')!.required_by, ['r2']);
    assert.deepEqual(shown.get('rs')!.required_by, ['val']);
    assert.deepEqual(shown.get('r2')!.required_by, []);
    assert.equal(shown.get('rs')!.resource_type, 'OS::Heat::RandomString');
  });

  it('adds descriptions and attributes with with_detail (as clients send it: True)', async () => {
    const shown = byName(await list(`${sample.url}/resources?with_detail=True`));
    assert.equal(shown.get('r1')!.description, 'the first');
    assert.equal(shown.get('r2')!.description, '');
    assert.deepEqual(shown.get('r1')!.attributes, { output: 'one' });
    const random = shown.get('rs')!.attributes!.value as string;
    assert.match(random, /^[A-Za-z0-9]{8}$/);
    assert.deepEqual(shown.get('val')!.attributes, { value: `one-${random}` });
    assert.ok(!('attributes' in byName(await list(`${sample.url}/resources?with_detail=false`)).get('r1')!));
  });

  it('filters by name, type (a part of it), status, action, physical id and uuid', async () => {
    const url = `${sample.url}/resources`;
    assert.deepEqual(names(await list(`${url}?name=r1&name=val`)), ['r1', 'val']);
    assert.deepEqual(names(await list(`${url}?type=RandomString`)), ['rs']);
    assert.deepEqual(names(await list(`${url}?type=TestResource&name=r2`)), ['r2']);
    assert.deepEqual(names(await list(`${url}?status=COMPLETE`)), ['r1', 'r2', 'rs', 'val']);
    assert.deepEqual(names(await list(`${url}?status=CREATE_COMPLETE&action=CREATE`)), [
      'r1',
      'r2',
      'rs',
      'val',
    ]);
    assert.deepEqual(await list(`${url}?status=FAILED`), []);
    assert.deepEqual(await list(`${url}?action=UPDATE`), []);
    const rs = byName(await list(url)).get('rs')!;
    assert.deepEqual(names(await list(`${url}?physical_resource_id=${rs.physical_resource_id}`)), ['rs']);
    const [row] = await api.engine.deps.store.tx((tx) => tx.resources.findByName(sample.id, 'val'));
    assert.deepEqual(names(await list(`${url}?id=${row!.uuid}`)), ['val']);
  });

  it('refuses unknown filters and bad values with 400', async () => {
    for (const [query, message] of [
      ['colour=red', /colour/],
      ['nested_depth=-1', /nested_depth/],
      ['nested_depth=deep', /nested_depth/],
      ['with_detail=maybe', /with_detail/],
    ] as const) {
      const res = await api.call('GET', `${sample.url}/resources?${query}`);
      assert.equal(res.statusCode, 400, query);
      const body = res.json() as HeatError;
      assert.equal(body.error.type, 'HTTPBadRequest');
      assert.match(body.error.message, message);
    }
  });

  it('lists nested stacks’ resources after their parent resource with nested_depth', async () => {
    const nest = await createStack(api, P, 'nest', NESTED);
    assert.equal(nest.settled?.status, 'COMPLETE', nest.settled?.reason);
    const top = await list(`${nest.url}/resources`);
    assert.deepEqual(names(top), ['child', 'group']);
    const child = byName(top).get('child')!;
    const childStack = linkPath(child.links, 'nested')!;
    assert.match(childStack, new RegExp(`^/v1/${P}/stacks/nest-child-[^/]+/${child.physical_resource_id}$`));
    assert.ok(!('parent_resource' in child));

    const one = await list(`${nest.url}/resources?nested_depth=1`);
    // Each nested resource follows its parent resource, and names its stack through its links.
    const order = one.map((r) => `${r.parent_resource ?? ''}/${r.resource_name}`);
    assert.deepEqual(order, ['/child', 'child/inner', '/group', 'group/0', 'group/1']);
    const inner = one[1]!;
    assert.equal(linkPath(inner.links, 'stack'), childStack);
    assert.equal(linkPath(inner.links, 'self'), `${childStack}/resources/inner`);
    const members = one.filter((r) => r.parent_resource === 'group');
    assert.ok(members.every((m) => linkPath(m.links, 'nested') !== undefined));

    const two = await list(`${nest.url}/resources?nested_depth=2`);
    assert.equal(two.filter((r) => r.resource_name === 'inner').length, 3);
    // A resource the filter leaves out takes its nested stack's resources with it.
    assert.deepEqual(
      (await list(`${nest.url}/resources?nested_depth=2&name=child&name=inner`)).map((r) => r.resource_name),
      ['child', 'inner'],
    );
    // Its resources read their parent resource's metadata through resource_facade.
    const metadata = await api.call('GET', `${childStack}/resources/inner/metadata`);
    assert.deepEqual(metadata.json(), { metadata: { parent: { role: 'front' } } });
    // A nested stack's own list says which resource of its parent it implements.
    const direct = await list(`${childStack}/resources`);
    assert.deepEqual(
      direct.map((r) => [r.resource_name, r.parent_resource]),
      [['inner', 'child']],
    );
  });

  it('shows one resource with its attributes, those asked for with with_attr, and who requires it', async () => {
    const res = await api.call('GET', `${sample.url}/resources/r1?with_attr=nothing&with_attr=output`);
    assert.equal(res.statusCode, 200, res.body);
    const r1 = (res.json() as { resource: Resource }).resource;
    assert.deepEqual(Object.keys(r1), [...LIST_KEYS, 'description', 'attributes']);
    assert.deepEqual(r1.attributes, { output: 'one', nothing: null });
    assert.deepEqual(r1.required_by, ['r2']);
    assert.equal(r1.description, 'the first');
    assert.equal(linkPath(r1.links, 'self'), `${sample.url}/resources/r1`);

    const missing = await api.call('GET', `${sample.url}/resources/nope`);
    assert.equal(missing.statusCode, 404);
    const body = missing.json() as HeatError;
    assert.equal(body.error.type, 'ResourceNotFound');
    assert.match(body.error.message, /nope/);
  });

  it('shows a resource’s metadata, resolved, and {} for one without', async () => {
    const r1 = await api.call('GET', `${sample.url}/resources/r1/metadata`);
    assert.equal(r1.statusCode, 200);
    assert.deepEqual(r1.json(), { metadata: { role: 'one', size: 3 } });
    assert.deepEqual((await api.call('GET', `${sample.url}/resources/r2/metadata`)).json(), { metadata: {} });
    assert.equal((await api.call('GET', `${sample.url}/resources/nope/metadata`)).statusCode, 404);
  });

  it('refuses resource_facade in a top-level stack with 400: it has no parent resource', async () => {
    const template = {
      heat_template_version: '2018-08-31',
      resources: { r: { type: 'OS::Heat::Value', properties: { value: { resource_facade: 'metadata' } } } },
    };
    const res = await api.call('POST', `/v1/${P}/stacks`, { body: { stack_name: 'top', template } });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(
      (res.json() as HeatError).error.message,
      /resource_facade is only available in a nested stack/,
    );
  });

  it('signals a resource: queued, answered 200, handled by the engine', async () => {
    const waiting = await createStack(
      api,
      P,
      'waiting',
      {
        template: {
          heat_template_version: '2018-08-31',
          resources: {
            handle: { type: 'OS::Heat::WaitConditionHandle' },
            wait: {
              type: 'OS::Heat::WaitCondition',
              properties: { handle: { get_resource: 'handle' }, timeout: 600 },
            },
          },
          outputs: { data: { value: { get_attr: ['wait', 'data'] } } },
        },
      },
      { settle: false },
    );
    // Run the engine until the handle exists (the condition then waits for its signal).
    const store = api.engine.deps.store;
    await api.engine.runUntil(async () => {
      const [row] = await store.tx((tx) => tx.resources.findByName(waiting.id, 'handle'));
      return row?.status === 'COMPLETE';
    });
    const signal = await api.call('POST', `${waiting.url}/resources/handle/signal`, {
      body: { status: 'SUCCESS', id: 'one', data: 'ready' },
    });
    assert.equal(signal.statusCode, 200, signal.body);
    assert.equal(signal.body, 'null');
    const settled = await api.settle(waiting.id);
    assert.equal(settled?.action, 'CREATE');
    assert.equal(settled?.status, 'COMPLETE', settled?.reason);
    const output = await api.call('GET', `${waiting.url}/outputs/data`);
    // The condition's data is a JSON text, as Heat's.
    const value = (output.json() as { output: { output_value: string } }).output.output_value;
    assert.deepEqual(JSON.parse(value), { one: 'ready' });
  });

  it('refuses a signal a resource cannot take, bad details, or an unknown resource', async () => {
    const unsupported = await api.call('POST', `${sample.url}/resources/r1/signal`, { body: {} });
    assert.equal(unsupported.statusCode, 400);
    assert.equal((unsupported.json() as HeatError).error.type, 'ResourceActionNotSupported');
    const bad = await api.call('POST', `${sample.url}/resources/r1/signal`, { body: '[1, 2]' });
    assert.equal(bad.statusCode, 400);
    assert.match((bad.json() as HeatError).error.message, /JSON object/);
    const missing = await api.call('POST', `${sample.url}/resources/nope/signal`, { body: 'null' });
    assert.equal(missing.statusCode, 404);
    assert.equal((missing.json() as HeatError).error.type, 'ResourceNotFound');
  });

  it('marks a resource unhealthy, then healthy again, with events', async () => {
    const marked = await createStack(api, P, 'marked', { template: TEMPLATE });
    const url = `${marked.url}/resources/r2`;
    const res = await api.call('PATCH', url, {
      body: { mark_unhealthy: true, resource_status_reason: 'disk gone' },
    });
    assert.equal(res.statusCode, 200, res.body);
    let r2 = ((await api.call('GET', url)).json() as { resource: Resource }).resource;
    assert.equal(r2.resource_status, 'CHECK_FAILED');
    assert.equal(r2.resource_status_reason, 'disk gone');

    assert.equal((await api.call('PATCH', url, { body: { mark_unhealthy: false } })).statusCode, 200);
    r2 = ((await api.call('GET', url)).json() as { resource: Resource }).resource;
    assert.equal(r2.resource_status, 'CHECK_COMPLETE');
    const events = (
      (await api.call('GET', `${url}/events?resource_action=CHECK&sort_dir=asc`)).json() as {
        events: { resource_status: string; resource_status_reason: string }[];
      }
    ).events;
    assert.deepEqual(
      events.map((e) => [e.resource_status, e.resource_status_reason]),
      [
        ['CHECK_FAILED', 'disk gone'],
        ['CHECK_COMPLETE', 'marked healthy'],
      ],
    );
    // Marking a healthy resource healthy changes nothing.
    assert.equal(
      (await api.call('PATCH', `${marked.url}/resources/r1`, { body: { mark_unhealthy: 'false' } }))
        .statusCode,
      200,
    );
    const r1 = ((await api.call('GET', `${marked.url}/resources/r1`)).json() as { resource: Resource })
      .resource;
    assert.equal(r1.resource_status, 'CREATE_COMPLETE');
  });

  it('refuses a mark-unhealthy body without the flag, with other keys, or with a non-boolean', async () => {
    const url = `${sample.url}/resources/r1`;
    for (const body of [{}, { mark_unhealthy: true, colour: 'red' }, { mark_unhealthy: 'perhaps' }]) {
      const res = await api.call('PATCH', url, { body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal((res.json() as HeatError).error.type, 'HTTPBadRequest');
    }
    const missing = await api.call('PATCH', `${sample.url}/resources/nope`, {
      body: { mark_unhealthy: true },
    });
    assert.equal(missing.statusCode, 404);
  });
});

describe('API: a stack’s sub-resources are its project’s only', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi({ auth: 'standalone' });
  });
  after(() => api.close());

  it('answers 404 on every route for another project’s stack, whose own project sees it', async () => {
    const a = await tenant(api, 'alpha');
    const b = await tenant(api, 'beta');
    const stack = await createStack(api, a.projectId, 'mine', { template: TEMPLATE }, { token: a.token });
    const [event] = await api.engine.deps.store.tx((tx) => tx.events.list(stack.id, { resourceName: 'r1' }));
    const subPaths = [
      ['GET', 'resources'],
      ['GET', 'resources/r1'],
      ['GET', 'resources/r1/metadata'],
      ['POST', 'resources/r1/signal'],
      ['PATCH', 'resources/r1'],
      ['GET', 'events'],
      ['GET', 'resources/r1/events'],
      ['GET', `resources/r1/events/${event!.uuid}`],
      ['GET', 'outputs'],
      ['GET', 'template'],
      ['GET', 'environment'],
      ['GET', 'files'],
    ] as const;
    for (const [method, sub] of subPaths) {
      const body = method === 'PATCH' ? { mark_unhealthy: false } : method === 'POST' ? {} : undefined;
      const theirs = await api.call(method, `/v1/${b.projectId}/stacks/mine/${stack.id}/${sub}`, {
        token: b.token,
        ...(body ? { body } : {}),
      });
      assert.equal(theirs.statusCode, 404, `${method} ${sub}`);
      assert.equal((theirs.json() as HeatError).error.type, 'EntityNotFound', `${method} ${sub}`);
      if (method === 'GET') {
        const own = await api.call(method, `${stack.url}/${sub}`, { token: a.token });
        assert.equal(own.statusCode, 200, `${method} ${sub}: ${own.body}`);
      }
    }
  });
});
