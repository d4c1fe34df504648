import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_SAMPLES } from '../support/shared.js';
import { type AbandonEntry as Entry, documentIds } from '../support/abandon-document.js';
import { type HeatError, startApi, type TestApi } from './harness.js';

// Heat's adopt through the API: `POST /stacks` with `adopt_stack_data`, as openstackclient sends
// it (the document as a string, its files, no template), with the document a real Heat printed.

const TEXT = readFileSync(join(API_SAMPLES, 'abandon-document.json'), 'utf8');

describe('API: adopt (POST /stacks with adopt_stack_data)', () => {
  let api: TestApi;
  const P = '/v1/proj';
  before(async () => {
    api = await startApi();
    api.engine.deps.settings.enableStackAdopt = true; // off by default, as Heat
  });
  after(() => api.close());

  /** The body openstackclient's `stack adopt` sends. */
  const body = (name: string, extra: Record<string, unknown> = {}) => ({
    stack_name: name,
    disable_rollback: true,
    adopt_stack_data: TEXT,
    parameters: {},
    files: (JSON.parse(TEXT) as { files: Record<string, string> }).files,
    environment: {},
    timeout: null,
    ...extra,
  });

  async function adopt(name: string, extra: Record<string, unknown> = {}) {
    const res = await api.call('POST', `${P}/stacks`, { body: body(name, extra) });
    assert.equal(res.statusCode, 201, res.body);
    const { stack } = res.json() as { stack: { id: string } };
    await api.settle(stack.id);
    return stack;
  }

  async function outputs(name: string, id: string) {
    const res = await api.call('GET', `${P}/stacks/${name}/${id}/outputs`);
    const listed = (res.json() as { outputs: { output_key: string }[] }).outputs.map((o) => o.output_key);
    const values: Record<string, unknown> = {};
    for (const key of listed) {
      const one = await api.call('GET', `${P}/stacks/${name}/${id}/outputs/${key}`);
      values[key] = (one.json() as { output: { output_value: unknown } }).output.output_value;
    }
    return values;
  }

  it('adopts the document: ADOPT_COMPLETE, its outputs, and abandoned again the same ids', async () => {
    const stack = await adopt('heat');
    const shown = (await api.call('GET', `${P}/stacks/heat/${stack.id}`)).json() as {
      stack: { stack_status: string };
    };
    assert.equal(shown.stack.stack_status, 'ADOPT_COMPLETE');
    assert.deepEqual(await outputs('heat', stack.id), { out: 'one', member: 'm-one-U2TEtD' });
    const events = (await api.call('GET', `${P}/stacks/heat/${stack.id}/events?resource_name=rs`)).json() as {
      events: { resource_status: string }[];
    };
    assert.deepEqual(events.events.map((e) => e.resource_status).sort(), [
      'ADOPT_COMPLETE',
      'ADOPT_IN_PROGRESS',
    ]);

    // Its own abandon document names the physical resources the adopted one did, nested ones too.
    const abandoned = await api.call('DELETE', `${P}/stacks/heat/${stack.id}/abandon`);
    assert.equal(abandoned.statusCode, 200, abandoned.body);
    assert.deepEqual(documentIds(abandoned.json() as Entry), documentIds(JSON.parse(TEXT) as Entry));
  });

  it("takes the document's parameters, under the request's own; the resources keep the document's data", async () => {
    const stack = await adopt('given', { parameters: { v: 'four' } });
    const shown = (await api.call('GET', `${P}/stacks/given/${stack.id}`)).json() as {
      stack: { parameters: Record<string, string> };
    };
    assert.equal(shown.stack.parameters.v, 'four');
    // t1's output is the value its data holds (the document's), as a create would have left it.
    assert.deepEqual(await outputs('given', stack.id), { out: 'one', member: 'm-one-U2TEtD' });
  });

  it('answers a malformed document with a 400 naming what is wrong', async () => {
    const cases: [unknown, RegExp][] = [
      ['{ not json', /^Invalid adopt data: /],
      ['"foo"', /^Invalid adopt data: the document must be an object/],
      ['{"resources": {}}', /^Invalid adopt data: the document has no "template"/],
      [
        JSON.stringify({ template: { heat_template_version: '2018-08-31' }, resources: 'x' }),
        /^Invalid adopt data: "resources" must be an object/,
      ],
      [
        JSON.stringify({
          template: { heat_template_version: '2018-08-31' },
          resources: { a: { resource_data: [] } },
        }),
        /^Invalid adopt data: "resources.a.resource_data" must be an object/,
      ],
    ];
    for (const [data, message] of cases) {
      const res = await api.call('POST', `${P}/stacks`, { body: body('bad', { adopt_stack_data: data }) });
      assert.equal(res.statusCode, 400, `${String(data)}: ${res.body}`);
      assert.match((res.json() as HeatError).error.message, message);
    }
    const list = (await api.call('GET', `${P}/stacks?name=bad`)).json() as { stacks: unknown[] };
    assert.deepEqual(list.stacks, []);
  });

  it('refuses as Heat does when enable_stack_adopt is off', async () => {
    const settings = api.engine.deps.settings;
    settings.enableStackAdopt = false;
    try {
      const res = await api.call('POST', `${P}/stacks`, { body: body('off') });
      assert.equal(res.statusCode, 400);
      const error = (res.json() as HeatError).error;
      assert.deepEqual([error.type, error.message], ['NotSupported', 'Stack Adopt is not supported.']);
    } finally {
      settings.enableStackAdopt = true;
    }
  });
});

// Project B may not take over project A's resources by naming their ids, whether through adopt or
// external_id: nothing of B's ever holds A's id, and A's objects outlive B's stacks.
describe('API: adopted and external ids across projects', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    api.engine.deps.settings.enableStackAdopt = true;
  });
  after(() => api.close());

  const TEST = 'OS::Heat::TestResource';
  const template = (resource: Record<string, unknown>) => ({
    heat_template_version: '2018-08-31',
    resources: { t: { type: TEST, ...resource } },
  });
  async function create(project: string, name: string, tmpl: unknown) {
    const res = await api.call('POST', `/v1/${project}/stacks`, {
      body: { stack_name: name, template: tmpl },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { stack } = res.json() as { stack: { id: string } };
    return (await api.settle(stack.id))!;
  }
  const resource = async (project: string, name: string, id: string) =>
    (
      (await api.call('GET', `/v1/${project}/stacks/${name}/${id}/resources/t`)).json() as {
        resource: { physical_resource_id: string; resource_status: string; resource_status_reason: string };
      }
    ).resource;
  const adoptBody = (name: string, resources: Record<string, unknown>) => ({
    stack_name: name,
    adopt_stack_data: JSON.stringify({ template: template({ properties: { value: 'x' } }), resources }),
  });

  it("refuses another project's id with a 400, nested entries too, and stores nothing", async () => {
    const a = await create('proj-a', 'a', template({ properties: { value: 'secret' } }));
    const id = (await resource('proj-a', 'a', a.id)).physical_resource_id;
    assert.ok(id);
    for (const resources of [
      { t: { resource_id: id } },
      { g: { resources: { '0': { resource_id: id } } }, t: { resource_id: 'other' } },
    ]) {
      const res = await api.call('POST', '/v1/proj-b/stacks', { body: adoptBody('b', resources) });
      assert.equal(res.statusCode, 400, res.body);
      assert.match((res.json() as HeatError).error.message, /cannot be adopted by this project/);
      assert.doesNotMatch(res.body, /"a"/, "A's stack is not named to B");
    }
    const listed = (await api.call('GET', '/v1/proj-b/stacks')).json() as { stacks: unknown[] };
    assert.deepEqual(listed.stacks, []);
    // A itself is told which stack holds it.
    const own = await api.call('POST', '/v1/proj-a/stacks', {
      body: adoptBody('again', { t: { resource_id: id } }),
    });
    assert.equal(own.statusCode, 400, own.body);
    assert.match(
      (own.json() as HeatError).error.message,
      /is a resource of stack "a": abandon that stack first/,
    );

    // B's external_id naming A's resource fails as a missing object; B's delete leaves A's alone.
    const b = await create('proj-b', 'ext', template({ external_id: id }));
    assert.equal(`${b.action}_${b.status}`, 'CREATE_FAILED');
    const bt = await resource('proj-b', 'ext', b.id);
    assert.match(bt.resource_status_reason, /Resource \S+ \(OS::Heat::TestResource\) can not be found/);
    assert.equal((await api.call('DELETE', `/v1/proj-b/stacks/ext/${b.id}`)).statusCode, 204);
    await api.settle(b.id);
    const at = await resource('proj-a', 'a', a.id);
    assert.equal(at.resource_status, 'CREATE_COMPLETE');
    assert.ok(await api.engine.deps.reality.get(TEST, id), "A's object is still there");
  });
});
