import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HeatClient } from '../../src/client/heat-client.js';
import type { StackId } from '../../src/client/types.js';
import { SAMPLE_TEMPLATE, startApi, type TestApi } from '../api/harness.js';

// The client's methods for the detail routes (resources, events, outputs, documents, catalog,
// previews), written from Heat's recorded answers (heat-api-samples), against Hearth's server.
describe('HeatClient: resources, events, outputs, templates, types, previews', () => {
  let api: TestApi;
  let client: HeatClient;
  let sample: StackId;

  before(async () => {
    api = await startApi();
    const origin = await api.app.listen({ host: '127.0.0.1', port: 0 });
    client = new HeatClient({ url: `${origin}/v1/proj` });
    const created = await client.createStack({ stack_name: 'sample', template: SAMPLE_TEMPLATE });
    sample = { name: 'sample', id: created.id };
    await api.settle(created.id);
  });
  after(() => api.close());

  it('lists and shows resources, with their links, required_by and attributes', {}, async () => {
    const listed = await client.listResources(sample);
    const byName = Object.fromEntries(listed.map((r) => [r.resource_name, r]));
    assert.deepEqual(Object.keys(byName).sort(), ['r1', 'r2']);
    assert.equal(byName.r1!.resource_status, 'CREATE_COMPLETE');
    assert.deepEqual(byName.r1!.required_by, ['r2']);
    assert.ok(
      byName.r1!.links!.some((l) => l.rel === 'stack' && l.href.endsWith(`/stacks/sample/${sample.id}`)),
    );
    const shown = await client.showResource(sample, 'r1');
    assert.equal(shown.attributes!.output, 'one');
    assert.deepEqual(shown.required_by, ['r2']);
    assert.deepEqual(await client.resourceMetadata(sample, 'r1'), {});
  });

  it('lists the resources of nested stacks with nested_depth', {}, async () => {
    const nested = {
      heat_template_version: '2018-08-31',
      resources: { member: { type: 'member.yaml' } },
    };
    const member = 'heat_template_version: 2018-08-31\nresources:\n  inner: {type: OS::Heat::None}\n';
    const made = await client.createStack({
      stack_name: 'nest',
      template: nested,
      files: { 'member.yaml': member },
    });
    await api.settle(made.id);
    const top = { name: 'nest', id: made.id };
    assert.deepEqual(
      (await client.listResources(top)).map((r) => r.resource_name),
      ['member'],
    );
    const deep = await client.listResources(top, { nested_depth: 1 });
    const inner = deep.find((r) => r.resource_name === 'inner');
    assert.ok(inner, 'the nested stack’s resource is listed');
    const stackLink = inner.links!.find((l) => l.rel === 'stack')!.href;
    assert.match(stackLink, /\/stacks\/nest-member-[^/]+\/[0-9a-f-]{36}$/);
  });

  it('marks a resource unhealthy (CHECK_FAILED with the reason)', {}, async () => {
    const made = await client.createStack({ stack_name: 'sick', template: SAMPLE_TEMPLATE });
    await api.settle(made.id);
    const sick = { name: 'sick', id: made.id };
    await client.markUnhealthy(sick, 'r1', true, 'broken disk');
    const shown = await client.showResource(sick, 'r1');
    assert.equal(shown.resource_status, 'CHECK_FAILED');
    assert.equal(shown.resource_status_reason, 'broken disk');
  });

  it('refuses a signal to a resource that takes none, with the server’s message', {}, async () => {
    await assert.rejects(client.signalResource(sample, 'r1', { x: 1 }), {
      name: 'HeatApiError',
      status: 400,
      message: /signal is not supported/,
    });
  });

  it('lists events in order, after a marker, limited; a resource’s events; one event', {}, async () => {
    const all = await client.listEvents(sample, { sort_dir: 'asc' });
    assert.equal(all[0]!.resource_name, 'sample');
    assert.equal(all[0]!.resource_status, 'CREATE_IN_PROGRESS');
    assert.equal(all.at(-1)!.resource_status_reason, 'Stack CREATE completed successfully');
    const after = await client.listEvents(sample, { sort_dir: 'asc', marker: all[0]!.id });
    assert.deepEqual(
      after.map((e) => e.id),
      all.slice(1).map((e) => e.id),
    );
    assert.equal((await client.listEvents(sample, { sort_dir: 'asc', limit: 2 })).length, 2);
    const [latest] = await client.listEvents(sample, { sort_dir: 'desc', limit: 1 });
    assert.equal(latest!.id, all.at(-1)!.id);

    const r1 = await client.listResourceEvents(sample, 'r1', { sort_dir: 'asc' });
    assert.deepEqual(
      r1.map((e) => e.resource_status),
      ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
    );
    const one = await client.showEvent(sample, 'r1', r1[1]!.id);
    assert.equal(one.resource_status, 'CREATE_COMPLETE');
  });

  it('lists outputs (keys and descriptions) and shows one with its value', {}, async () => {
    assert.deepEqual(await client.listOutputs(sample), [{ output_key: 'out', description: 'r2 output' }]);
    assert.deepEqual(await client.showOutput(sample, 'out'), {
      output_key: 'out',
      description: 'r2 output',
      output_value: 'one',
    });
  });

  it('shows the stack’s template, environment and files', {}, async () => {
    // The stored template, a hidden parameter's default masked.
    const secret = { ...SAMPLE_TEMPLATE.parameters.secret, default: '******' };
    const masked = { ...SAMPLE_TEMPLATE, parameters: { ...SAMPLE_TEMPLATE.parameters, secret } };
    assert.deepEqual(await client.getTemplate(sample), masked);
    const environment = await client.getEnvironment(sample);
    assert.deepEqual(environment.resource_registry, { resources: {} });
    assert.deepEqual(environment.parameters, {});
    assert.deepEqual(await client.getFiles(sample), {});
  });

  it('validates a template (Heat’s parameter view)', async () => {
    const result = await client.validate({ template: SAMPLE_TEMPLATE });
    assert.equal(result.Description, 'a sample');
    assert.equal(result.Parameters.v!.Type, 'String');
    assert.equal(result.Parameters.v!.Default, 'one');
    assert.equal(result.Parameters.secret!.NoEcho, 'true');
  });

  it('lists and shows resource types', async () => {
    assert.ok((await client.listResourceTypes()).includes('OS::Heat::TestResource'));
    const schema = await client.showResourceType('OS::Heat::TestResource');
    assert.equal(schema.resource_type, 'OS::Heat::TestResource');
    assert.equal(schema.properties.value!.type, 'string');
    assert.ok('output' in schema.attributes);
  });

  it('lists template versions and a version’s functions', {}, async () => {
    const versions = await client.listTemplateVersions();
    assert.deepEqual(
      versions.find((v) => v.version === 'heat_template_version.2018-08-31'),
      {
        version: 'heat_template_version.2018-08-31',
        type: 'hot',
        aliases: ['heat_template_version.rocky'],
      },
    );
    const functions = await client.listTemplateFunctions('heat_template_version.2018-08-31');
    assert.ok(functions.some((f) => f.functions === 'get_attr'));
  });

  it('previews a create and an update', async () => {
    const preview = await client.previewCreate({ stack_name: 'prev', template: SAMPLE_TEMPLATE });
    assert.equal(preview.stack_name, 'prev');
    const names = preview.resources.flat().map((r) => (Array.isArray(r) ? '' : r.resource_name));
    assert.deepEqual(names.sort(), ['r1', 'r2']);
    const changes = await client.previewUpdate(sample, { parameters: { v: 'two' } }, { patch: true });
    assert.deepEqual(changes.updated.map((r) => r.resource_name).sort(), ['r1', 'r2']);
    assert.deepEqual(changes.added, []);
    assert.equal(changes.updated[0]!.resource_action, 'CREATE');
  });
});
