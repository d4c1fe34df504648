import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { snapshotDatabase } from '../cli/state-snapshot.js';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi } from './harness.js';
import { API_SAMPLES } from '../support/shared.js';

const SAMPLES = API_SAMPLES;

function sampleBody<T>(file: string): T {
  const text = readFileSync(`${SAMPLES}/${file}`, 'utf8');
  return JSON.parse(text.slice(text.indexOf('\n{') + 1));
}

/** A resource in a preview body (the fields these tests read; the rest compared whole). */
interface Resource {
  [key: string]: unknown;
  resource_name: string;
  resource_action: string;
  physical_resource_id: string;
  parent_resource?: string;
  stack_name: string;
  stack_identity: { stack_id: string };
  required_by: string[];
  attributes: Record<string, unknown>;
  properties: Record<string, unknown>;
}
interface PreviewStack {
  [key: string]: unknown;
  links: { href: string }[];
  creation_time: string;
  outputs: { output_key: string }[];
  resources: (Resource | Resource[])[];
}
type Changes = Record<'unchanged' | 'updated' | 'replaced' | 'added' | 'deleted', Resource[]>;

const MEMBER = `heat_template_version: 2018-08-31
parameters:
  v: {type: string, default: m}
resources:
  inner:
    type: OS::Heat::TestResource
    properties: {value: {get_param: v}}
`;

// The previews of a create and of an update through the whole HTTP stack: Heat's bodies, the
// engine's classification, and nothing stored.
describe('API: previews', () => {
  let api: TestApi;
  // Heat's recording was made in project admin: the same here, so its bodies compare as they are.
  const P = '/v1/admin';
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  /** A request that must store nothing. */
  async function preview(method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown) {
    const before = snapshotDatabase(api.dbFile);
    const res = await api.call(method, `${P}${url}`, { body });
    assert.equal(snapshotDatabase(api.dbFile), before, 'a preview stores nothing');
    return res;
  }

  async function create(name: string, body: Record<string, unknown>) {
    const res = await api.call('POST', `${P}/stacks`, { body: { stack_name: name, ...body } });
    assert.equal(res.statusCode, 201, res.body);
    const { id } = (res.json() as { stack: { id: string } }).stack;
    const settled = await api.settle(id);
    assert.equal(`${settled?.action}_${settled?.status}`, 'CREATE_COMPLETE');
    return id;
  }

  it('previews a create of the recorded sample as Heat does', async () => {
    const template = readFileSync(`${SAMPLES}/sample-template.yaml`, 'utf8');
    const res = await preview('POST', '/stacks/preview', { stack_name: 'prev', template });
    assert.equal(res.statusCode, 200, res.body);
    const stack = (res.json() as { stack: PreviewStack }).stack;
    const heat = sampleBody<{ stack: PreviewStack }>('preview.txt').stack;
    assert.deepEqual(Object.keys(stack).sort(), Object.keys(heat).sort());
    for (const key of [
      'stack_name',
      'id',
      'parameters',
      'description',
      'disable_rollback',
      'tags',
      'stack_owner',
    ]) {
      assert.deepEqual(stack[key], heat[key], key);
    }
    assert.match(stack.links[0]!.href, /\/v1\/admin\/stacks\/prev\/None$/);
    assert.match(stack.creation_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(
      [...stack.outputs].sort((a, b) => a.output_key.localeCompare(b.output_key)),
      heat.outputs,
    );

    const ours = new Map((stack.resources as Resource[]).map((r) => [r.resource_name, r]));
    for (const theirs of heat.resources as Resource[]) {
      const expected = structuredClone(theirs);
      // Heat resolves what a preview cannot know to a default or a made-up id; Hearth says null.
      if (expected.resource_name === 'r2') expected.properties.value = null;
      if (expected.resource_name === 'val') {
        expected.properties.value = null;
        expected.attributes.value = null;
      }
      assert.deepEqual(ours.get(expected.resource_name), expected, expected.resource_name);
    }
    assert.equal(ours.size, heat.resources.length);
  });

  it('shows a template resource as the list of its nested resources', async () => {
    const template = {
      heat_template_version: '2018-08-31',
      resources: { m: { type: 'member.yaml', properties: { v: 'given' } }, top: { type: 'OS::Heat::None' } },
    };
    const res = await preview('POST', '/stacks/preview', {
      stack_name: 'nest',
      template,
      files: { 'member.yaml': MEMBER },
    });
    assert.equal(res.statusCode, 200, res.body);
    const [nested, top] = (res.json() as { stack: PreviewStack }).stack.resources as [Resource[], Resource];
    assert.equal(top.resource_name, 'top');
    assert.ok(Array.isArray(nested));
    assert.equal(nested.length, 1);
    const [inner] = nested as [Resource];
    assert.equal(inner.resource_name, 'inner');
    assert.equal(inner.parent_resource, 'm');
    assert.equal(inner.stack_name, 'nest-m');
    assert.equal(inner.properties.value, 'given');
  });

  it('lists a ResourceGroup’s members nested under it, their unknown values null (issue 21, item 5)', async () => {
    const template = {
      heat_template_version: '2018-08-31',
      parameters: { n: { type: 'number', default: 2 } },
      resources: {
        word: { type: 'OS::Heat::RandomString' },
        group: {
          type: 'OS::Heat::ResourceGroup',
          properties: {
            count: { get_param: 'n' },
            resource_def: {
              type: 'OS::Heat::TestResource',
              properties: {
                value: 'm%index%',
                update_replace_value: { get_attr: ['word', 'value'] },
              },
            },
          },
        },
        // Members that are template resources: a list in the group's list.
        nested: {
          type: 'OS::Heat::ResourceGroup',
          properties: {
            count: 1,
            resource_def: { type: 'member.yaml', properties: { v: { get_resource: 'word' } } },
          },
        },
        // How many members is not known before the create: the group shows as itself.
        later: {
          type: 'OS::Heat::ResourceGroup',
          properties: { count: { get_attr: ['word', 'value'] }, resource_def: { type: 'OS::Heat::None' } },
        },
      },
    };
    const res = await preview('POST', '/stacks/preview', {
      stack_name: 'grp',
      template,
      files: { 'member.yaml': MEMBER },
    });
    assert.equal(res.statusCode, 200, res.body);
    const [word, group, nested, later] = (res.json() as { stack: PreviewStack }).stack.resources as [
      Resource,
      Resource[],
      Resource[][],
      Resource,
    ];
    assert.equal(word.resource_name, 'word');
    assert.deepEqual(word.required_by.sort(), ['group', 'later', 'nested']);
    assert.ok(Array.isArray(group), JSON.stringify(group));
    assert.deepEqual(
      group.map((m) => [m.resource_name, m.stack_name, m.parent_resource, m.properties.value]),
      [
        ['0', 'grp-group', 'group', 'm0'],
        ['1', 'grp-group', 'group', 'm1'],
      ],
    );
    for (const m of group) assert.equal(m.properties.update_replace_value, null);
    assert.ok(Array.isArray(nested) && Array.isArray(nested[0]), JSON.stringify(nested));
    const [inner] = nested[0] as [Resource];
    assert.deepEqual(
      [inner.resource_name, inner.stack_name, inner.parent_resource, inner.properties.value],
      ['inner', 'grp-nested-0', '0', null],
    );
    assert.equal(later.resource_name, 'later');
    assert.equal(later.resource_type, 'OS::Heat::ResourceGroup');
  });

  it('refuses a create preview as the create would be refused', async () => {
    await create('taken', { template: SAMPLE_TEMPLATE });
    const cases: [Record<string, unknown>, number, string, RegExp][] = [
      [{ template: SAMPLE_TEMPLATE }, 400, 'HTTPBadRequest', /No stack name/],
      [{ stack_name: 'taken', template: SAMPLE_TEMPLATE }, 409, 'StackExists', /taken/],
      [{ stack_name: '1bad', template: SAMPLE_TEMPLATE }, 400, 'StackValidationFailed', /1bad/],
      [{ stack_name: 'x' }, 400, 'HTTPBadRequest', /No template specified/],
      [
        { stack_name: 'x', template: { ...SAMPLE_TEMPLATE, resources: { a: { type: 'OS::Nope' } } } },
        400,
        'StackValidationFailed',
        /resources\.a\.type/,
      ],
    ];
    for (const [body, status, type, message] of cases) {
      const res = await preview('POST', '/stacks/preview', body);
      assert.equal(res.statusCode, status, res.body);
      const err = res.json() as HeatError;
      assert.equal(err.error.type, type);
      assert.match(err.error.message, message);
    }
  });

  it('previews an update (PUT): each resource in its category, in Heat’s shape', async () => {
    const id = await create('upd', { template: SAMPLE_TEMPLATE });
    const template = {
      ...SAMPLE_TEMPLATE,
      resources: {
        r1: SAMPLE_TEMPLATE.resources.r1,
        r3: { type: 'OS::Heat::TestResource', properties: { value: 'new' } },
      },
      outputs: {},
    };
    const res = await preview('PUT', `/stacks/upd/${id}/preview`, { template, parameters: { v: 'changed' } });
    assert.equal(res.statusCode, 200, res.body);
    const changes = (res.json() as { resource_changes: Changes }).resource_changes;
    const names = Object.fromEntries(
      Object.entries(changes).map(([k, list]) => [k, list.map((r) => r.resource_name)]),
    );
    assert.deepEqual(names, { unchanged: [], updated: ['r1'], replaced: [], added: ['r3'], deleted: ['r2'] });

    const heat = sampleBody<{ resource_changes: Changes }>('update-preview.txt').resource_changes;
    assert.deepEqual(Object.keys(changes), Object.keys(heat));
    const [r1] = changes.updated;
    assert.deepEqual(Object.keys(r1!).sort(), Object.keys(heat.updated[0]!).sort());
    assert.equal(r1!.resource_action, 'CREATE');
    assert.equal(r1!.resource_status, 'COMPLETE');
    assert.match(r1!.physical_resource_id, /^upd-r1-/);
    assert.deepEqual(r1!.attributes, { output: 'one' });
    assert.deepEqual(r1!.resource_identity, {
      tenant: 'admin',
      stack_name: 'upd',
      stack_id: id,
      path: '/resources/r1',
    });
    assert.deepEqual(r1!.required_by, []);
    const [r3] = changes.added;
    assert.equal(r3!.resource_action, 'INIT');
    assert.equal(r3!.physical_resource_id, '');
    assert.deepEqual(r3!.attributes, { output: null });
    assert.match(changes.deleted[0]!.physical_resource_id, /^upd-r2-/);
  });

  it('previews a PATCH on the stored template and environment', async () => {
    const id = await create('pat', { template: SAMPLE_TEMPLATE, parameters: { v: 'first' } });
    const url = `/stacks/pat/${id}/preview`;
    const same = (await preview('PATCH', url, {})).json() as { resource_changes: Changes };
    assert.deepEqual(
      same.resource_changes.unchanged.map((r) => r.resource_name).sort(),
      ['r1', 'r2'],
      'the stored parameters are kept',
    );
    const changed = (await preview('PATCH', url, { parameters: { v: 'second' } })).json() as {
      resource_changes: Changes;
    };
    assert.deepEqual(
      changed.resource_changes.updated.map((r) => r.resource_name),
      ['r1', 'r2'],
    );
    // heatclient's `stack update --existing --dry-run` sends a PATCH with a null template.
    const nullTemplate = await preview('PATCH', url, { template: null, parameters: { v: 'first' } });
    assert.equal(nullTemplate.statusCode, 200, nullTemplate.body);
    // clear_parameters puts v back to its default ("one"): a change.
    const cleared = (await preview('PATCH', url, { clear_parameters: ['v'] })).json() as {
      resource_changes: Changes;
    };
    assert.deepEqual(
      cleared.resource_changes.updated.map((r) => r.resource_name),
      ['r1', 'r2'],
    );
  });

  it('shows the nested stacks’ resources with show_nested', async () => {
    const template = {
      heat_template_version: '2018-08-31',
      resources: { m: { type: 'member.yaml', properties: { v: 'a' } } },
    };
    const files = { 'member.yaml': MEMBER };
    const id = await create('nst', { template, files });
    const next = { ...template, resources: { m: { type: 'member.yaml', properties: { v: 'b' } } } };
    const url = `/stacks/nst/${id}/preview`;
    const flat = (await preview('PUT', url, { template: next, files })).json() as {
      resource_changes: Changes;
    };
    assert.deepEqual(
      flat.resource_changes.updated.map((r) => r.resource_name),
      ['m'],
    );
    const res = await preview('PUT', `${url}?show_nested=True`, { template: next, files });
    assert.equal(res.statusCode, 200, res.body);
    const updated = (res.json() as { resource_changes: Changes }).resource_changes.updated;
    const inner = updated.find((r) => r.resource_name === 'inner')!;
    assert.equal(inner.parent_resource, 'm');
    const child = await api.engine.deps.store.tx((tx) => tx.stacks.get(inner.stack_identity.stack_id));
    assert.equal(child?.parentId, id);
    assert.equal(inner.stack_name, child?.name);
    assert.equal(updated.find((r) => r.resource_name === 'm')!.parent_resource, undefined);

    const bad = await preview('PUT', `${url}?show_nested=often`, { template: next, files });
    assert.equal(bad.statusCode, 400);
  });

  it('lists a new group’s members with show_nested, their values not known yet null', async () => {
    const template = {
      heat_template_version: '2018-08-31',
      resources: { word: { type: 'OS::Heat::RandomString', properties: { length: 4 } } },
    };
    const id = await create('grow', { template });
    const group = (count: number) => ({
      type: 'OS::Heat::ResourceGroup',
      properties: {
        count,
        resource_def: {
          type: 'OS::Heat::TestResource',
          properties: { value: { get_attr: ['word', 'value'] } },
        },
      },
    });
    // `word` is replaced (a new length), so what its members get is not known before the update.
    const next = {
      ...template,
      resources: { word: { type: 'OS::Heat::RandomString', properties: { length: 6 } }, group: group(2) },
    };
    const res = await preview('PUT', `/stacks/grow/${id}/preview?show_nested=True`, { template: next });
    assert.equal(res.statusCode, 200, res.body);
    const changes = (res.json() as { resource_changes: Changes }).resource_changes;
    assert.deepEqual(
      changes.replaced.map((r) => r.resource_name),
      ['word'],
    );
    assert.deepEqual(
      changes.added.map((r) => [r.resource_name, r.parent_resource ?? null, r.stack_name]),
      [
        ['group', null, 'grow'],
        ['0', 'group', 'grow-group'],
        ['1', 'group', 'grow-group'],
      ],
    );
  });

  it('answers an unknown stack with 404', async () => {
    const res = await preview('PUT', '/stacks/ghost/00000000-0000-0000-0000-000000000000/preview', {
      template: SAMPLE_TEMPLATE,
    });
    assert.equal(res.statusCode, 404);
    assert.equal((res.json() as HeatError).error.type, 'EntityNotFound');
  });
});
