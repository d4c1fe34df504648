import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApi, type TestApi } from './harness.js';
import { type CreatedStack, createStack, type Link, linkPath } from './stack-helpers.js';

const SECRET = 'TOPSECRET-4711';
const DEFAULT_SECRET = 'DEFAULTPIN99';

// A property check quotes the value it refuses: a length computed from the secret fails with it.
const FAILING = { list_join: ['', [{ get_param: 'secret' }, { get_attr: ['r1', 'output'] }]] };

const FLAT = {
  heat_template_version: '2018-08-31',
  parameters: {
    secret: { type: 'string', hidden: true },
    pin: { type: 'string', hidden: true, default: DEFAULT_SECRET },
  },
  resources: {
    r1: { type: 'OS::Heat::TestResource', properties: { value: 'plain' } },
    holder: {
      type: 'OS::Heat::None',
      metadata: { note: 'nothing secret' },
      properties: { a: { get_param: 'secret' }, b: { get_param: 'pin' } },
    },
    rs: { type: 'OS::Heat::RandomString', properties: { length: FAILING } },
  },
  outputs: { out: { value: { get_attr: ['r1', 'output'] } } },
};

// The child's parameter is not hidden: its value is the parent's secret all the same.
const CHILD = `heat_template_version: 2018-08-31
parameters:
  s: {type: string}
resources:
  r1: {type: OS::Heat::TestResource, properties: {value: plain}}
  bad:
    type: OS::Heat::RandomString
    properties:
      length: {list_join: ['', [{get_param: s}, {get_attr: [r1, output]}]]}
`;

const PARENT = {
  heat_template_version: '2018-08-31',
  parameters: { secret: { type: 'string', hidden: true } },
  resources: {
    holder: { type: 'OS::Heat::None', properties: { a: { get_param: 'secret' } } },
    child: { type: 'child.yaml', properties: { s: { get_param: 'secret' } } },
  },
};

describe('API: hidden parameters’ values appear in no response about resources, events, outputs or documents', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  async function get(path: string): Promise<string> {
    const res = await api.call('GET', path);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.body;
  }

  /** Every GET route of a stack's resources, events, outputs and documents, nested ones included. */
  async function everyResponse(stack: string): Promise<Map<string, string>> {
    const bodies = new Map<string, string>();
    const fetch = async (path: string) => {
      if (!bodies.has(path)) bodies.set(path, await get(path));
      return JSON.parse(bodies.get(path)!) as unknown;
    };
    // The stack itself (its reason repeats a failed resource's), and the lists it is in.
    await fetch(stack);
    await fetch('/v1/proj/stacks');
    await fetch('/v1/proj/stacks/detail?show_nested=true');
    for (const sub of ['template', 'environment', 'files', 'resources', 'resources?with_detail=true']) {
      await fetch(`${stack}/${sub}`);
    }
    const { resources } = (await fetch(`${stack}/resources?nested_depth=3&with_detail=true`)) as {
      resources: { resource_name: string; links: Link[] }[];
    };
    for (const r of resources) {
      const self = linkPath(r.links, 'self')!;
      await fetch(self);
      await fetch(`${self}/metadata`);
      await fetch(`${self}/events`);
      const nested = linkPath(r.links, 'nested');
      if (nested)
        for (const sub of ['template', 'environment', 'files', 'events']) await fetch(`${nested}/${sub}`);
    }
    const { events } = (await fetch(`${stack}/events?nested_depth=3`)) as { events: { links: Link[] }[] };
    for (const e of events) await fetch(linkPath(e.links, 'self')!);
    const { outputs } = (await fetch(`${stack}/outputs`)) as { outputs: { output_key: string }[] };
    for (const o of outputs) await fetch(`${stack}/outputs/${o.output_key}`);
    return bodies;
  }

  async function recordedReasons(): Promise<string> {
    const stacks = await api.engine.deps.store.tx((tx) => tx.stacks.list({}));
    const reasons: string[] = [];
    for (const s of stacks) {
      reasons.push(s.reason);
      for (const e of await api.engine.deps.store.tx((tx) => tx.events.list(s.id))) reasons.push(e.reason);
    }
    return reasons.join('\n');
  }

  function assertClean(bodies: Map<string, string>): void {
    for (const [path, body] of bodies) {
      for (const secret of [SECRET, DEFAULT_SECRET])
        assert.ok(!body.includes(secret), `${path} shows ${secret}`);
    }
  }

  it('masks them in the reasons of a failure that quotes them, the template and the environment', async () => {
    const flat: CreatedStack = await createStack(api, 'proj', 'flat', {
      template: FLAT,
      parameters: { secret: SECRET },
    });
    assert.equal(flat.settled?.status, 'FAILED');
    // What is recorded does carry the value: the routes are what keep it out.
    assert.ok((await recordedReasons()).includes(SECRET));
    const bodies = await everyResponse(flat.url);
    assertClean(bodies);
    const rs = JSON.parse(bodies.get(`${flat.url}/resources/rs`)!) as {
      resource: { resource_status: string; resource_status_reason: string };
    };
    assert.equal(rs.resource.resource_status, 'CREATE_FAILED');
    assert.match(rs.resource.resource_status_reason, /\*\*\*\*\*\*/);
    const env = JSON.parse(bodies.get(`${flat.url}/environment`)!) as { parameters: Record<string, string> };
    assert.deepEqual(env.parameters, { secret: '******' });
  });

  it('masks a parent’s hidden value passed to a nested stack, in the nested stack’s routes too', async () => {
    const parent = await createStack(api, 'proj', 'parent', {
      template: PARENT,
      files: { 'file:///child.yaml': CHILD },
      parameters: { secret: SECRET },
    });
    assert.equal(parent.settled?.status, 'FAILED');
    const [child] = await api.engine.deps.store.tx((tx) => tx.stacks.children(parent.id));
    const events = await api.engine.deps.store.tx((tx) => tx.events.list(child!.id));
    assert.ok(events.some((e) => e.reason.includes(SECRET)));
    const bodies = await everyResponse(parent.url);
    const childUrl = `/v1/proj/stacks/${child!.name}/${child!.id}`;
    assert.ok(bodies.has(`${childUrl}/environment`) && bodies.has(`${childUrl}/resources/bad`));
    assertClean(bodies);
    assertClean(await everyResponse(childUrl));
    const env = JSON.parse(bodies.get(`${childUrl}/environment`)!) as { parameters: Record<string, string> };
    assert.deepEqual(env.parameters, { s: '******' });
  });
});
