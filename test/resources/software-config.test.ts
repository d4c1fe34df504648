import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { cloudConfigPlugin } from '../../src/resources/heat/cloud-config.js';
import { softwareConfigPlugin } from '../../src/resources/heat/software-config.js';
import { softwareService } from '../../src/software/service.js';
import { structuredConfigPlugin } from '../../src/resources/heat/structured-config.js';
import { Harness } from '../engine/harness.js';
import { FakeResource } from './helpers.js';

describe('software config types', () => {
  it('OS::Heat::SoftwareConfig: a stable id, the config as its attribute, Heat defaults', async () => {
    const r = new FakeResource(softwareConfigPlugin);
    const props = r.props({ config: '#!/bin/sh\necho hi\n', inputs: [{ name: 'foo' }] });
    assert.equal(props.group, 'Heat::Ungrouped');
    assert.deepEqual(props.inputs, [{ name: 'foo', type: 'String', replace_on_change: false }]);
    await r.create({ config: '#!/bin/sh\necho hi\n' });
    assert.match(r.physicalId!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(await r.attribute('config'), '#!/bin/sh\necho hi\n');
    const again = new FakeResource(softwareConfigPlugin);
    await again.create({ config: 'x' });
    assert.equal(again.physicalId, r.physicalId, 'derived from the idempotency key: a retry makes the same');
  });

  it('stores its config as Heat does (named by the physical name; IO schemas with defaults), deletes it on delete', async () => {
    const r = new FakeResource(softwareConfigPlugin, { name: 'cfg', stackName: 'st' });
    await r.create({
      group: 'script',
      config: 'echo $foo',
      inputs: [{ name: 'foo', default: 'bar' }],
      outputs: [{ name: 'result', error_output: true }],
      options: { a: 1 },
    });
    const stored = await r.softwareStore.service('project').getConfig(r.physicalId!);
    assert.ok(stored, 'stored under its physical id');
    assert.match(stored.name, /^st-cfg-[a-z2-7]{12}$/);
    assert.equal(stored.group, 'script');
    assert.equal(stored.config, 'echo $foo');
    assert.deepEqual(stored.inputs, [
      { name: 'foo', type: 'String', default: 'bar', replace_on_change: false },
    ]);
    assert.deepEqual(stored.outputs, [{ name: 'result', type: 'String', error_output: true }]);
    assert.deepEqual(stored.options, { a: 1 });
    assert.equal((await r.ctx().softwareConfig(r.physicalId!))?.config, 'echo $foo');
    await r.delete();
    assert.equal(await r.softwareStore.service('project').getConfig(stored.id), undefined);
    await r.delete();
  });

  it('an adopted config is stored under the id the adopt document gives, once', async () => {
    const r = new FakeResource(softwareConfigPlugin);
    r.physicalId = '11111111-2222-4333-8444-555555555555';
    const props = r.props({ group: 'script', config: 'echo adopted' });
    await softwareConfigPlugin.adopt!(r.ctx(), props);
    await softwareConfigPlugin.adopt!(r.ctx(), props);
    const stored = await r.softwareStore.service('project').getConfig(r.physicalId);
    assert.equal(stored?.config, 'echo adopted');
    assert.equal(r.softwareStore.configs.size, 1);
  });

  it('refuses an input or output type Heat does not know', () => {
    const r = new FakeResource(softwareConfigPlugin);
    assert.throws(() => r.props({ inputs: [{ name: 'a', type: 'Float' }] }), /Float/);
    assert.throws(() => r.props({ outputs: [{ description: 'no name' }] }), /name/);
  });

  it('OS::Heat::StructuredConfig keeps its config a map; OS::Heat::CloudConfig renders cloud-config YAML', async () => {
    const s = new FakeResource(structuredConfigPlugin);
    await s.create({ config: { packages: ['nginx'], port: 80 } });
    assert.deepEqual(await s.attribute('config'), { packages: ['nginx'], port: 80 });
    assert.throws(() => s.props({ config: 'text' }), /map/i);

    const c = new FakeResource(cloudConfigPlugin);
    const doc = { package_update: true, runcmd: [['echo', 'hi']] };
    await c.create({ cloud_config: doc });
    const text = (await c.attribute('config')) as string;
    assert.ok(text.startsWith('#cloud-config\n'));
    assert.deepEqual(parse(text), doc);
  });

  it('in a stack: get_attr config feeds others, and any change makes a new config (replacement)', async () => {
    const h = await Harness.create();
    const tpl = (script: string) => `heat_template_version: 2018-08-31
resources:
  config: {type: OS::Heat::SoftwareConfig, properties: {group: script, config: ${JSON.stringify(script)}}}
  cloud: {type: OS::Heat::CloudConfig, properties: {cloud_config: {write_files: [{path: /x, content: {get_attr: [config, config]}}]}}}
outputs:
  script: {value: {get_attr: [config, config]}}
  id: {value: {get_resource: config}}
  cloud: {value: {get_attr: [cloud, config]}}
`;
    await h.create('s', tpl('echo one'));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const first = await h.outputs('s');
    assert.equal(first.script, 'echo one');
    assert.deepEqual(parse(first.cloud as string), { write_files: [{ path: '/x', content: 'echo one' }] });
    await h.update('s', tpl('echo two'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const second = await h.outputs('s');
    assert.equal(second.script, 'echo two');
    assert.notEqual(second.id, first.id, 'a new config');
    assert.deepEqual(parse(second.cloud as string), { write_files: [{ path: '/x', content: 'echo two' }] });
    const software = softwareService(h.deps.store, { projectId: 'p' });
    assert.equal((await software.getConfig(second.id as string))?.config, 'echo two', 'stored');
    assert.equal(await software.getConfig(first.id as string), undefined, 'the replaced config deleted');
    const cloud = (await software.listConfigs({})).find((c) => c.config === second.cloud);
    assert.equal(cloud?.group, 'Heat::Ungrouped', 'CloudConfig stored too');
  });
});
