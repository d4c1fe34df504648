import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/index.js';
import { sandboxCloud } from '../sandbox/support.js';
import { Workdir } from './workdir.js';

/** A child stack whose template makes a Neutron net and outputs it. */
const CHILD = `heat_template_version: 2018-08-31
parameters:
  net_name: {type: string}
resources:
  net: {type: OS::Neutron::Net, properties: {name: {get_param: net_name}}}
outputs:
  net_id: {value: {get_resource: net}}
  net_status: {value: {get_attr: [net, status]}}
`;

const parent = (region: string, netName: string) => `heat_template_version: 2018-08-31
resources:
  far:
    type: OS::Heat::Stack
    properties:
      context: {region_name: ${region}}
      parameters: {net_name: ${netName}}
      template: {get_file: child.yaml}
outputs:
  net_id: {value: {get_attr: [far, net_id]}}
  all: {value: {get_attr: [far, outputs]}}
`;

/** A parameter under Heat's keystone.region constraint. */
const REGION_PARAMETER = `heat_template_version: 2018-08-31
parameters:
  region:
    type: string
    constraints: [{custom_constraint: keystone.region}]
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: region}}}
`;

// Issue 21, item 21: OS::Heat::Stack with context.region_name makes its child in that region of
// the owner's cloud (the sandbox's RegionTwo has objects of its own), through the CLI's engine.
describe('OS::Heat::Stack in another region, on the sandbox cloud', () => {
  const cloud = sandboxCloud();
  const netsIn = (region: 'RegionOne' | 'RegionTwo') => {
    const state = region === 'RegionOne' ? cloud.state : cloud.state.region(region);
    return state.list<{ id: string; name: string }>('network').filter((n) => n.name !== 'public');
  };

  it('makes the child’s net in RegionTwo, not RegionOne; outputs reach the parent; delete removes it', async () => {
    const w = new Workdir({ 'child.yaml': CHILD, 'parent.yaml': parent('RegionTwo', 'far-net') });
    await w.ok(['stack', 'create', 'p', '-t', 'parent.yaml', '--wait']);
    const far = netsIn('RegionTwo');
    assert.deepEqual(
      far.map((n) => n.name),
      ['far-net'],
    );
    assert.deepEqual(netsIn('RegionOne'), [], 'nothing made in RegionOne');
    assert.deepEqual(await w.outputs('p'), {
      net_id: far[0]!.id,
      all: { net_id: far[0]!.id, net_status: 'ACTIVE' },
    });

    // The child's own view: its resource's physical id is the RegionTwo net.
    const rows = await w.resources('p', 1);
    assert.deepEqual(
      rows.filter((r) => r.resource_name === 'net').map((r) => r.physical_resource_id),
      [far[0]!.id],
    );

    await w.ok(['stack', 'delete', 'p', '--yes', '--wait']);
    assert.deepEqual(netsIn('RegionTwo'), [], 'deleted from RegionTwo');
  });

  it('replaces the child when the region changes (a stack does not move between regions)', async () => {
    const w = new Workdir({
      'child.yaml': CHILD,
      'two.yaml': parent('RegionTwo', 'moving-net'),
      'one.yaml': parent('RegionOne', 'moving-net'),
    });
    await w.ok(['stack', 'create', 'm', '-t', 'two.yaml', '--wait']);
    assert.deepEqual(
      netsIn('RegionTwo').map((n) => n.name),
      ['moving-net'],
    );
    await w.ok(['stack', 'update', 'm', '-t', 'one.yaml', '--wait']);
    assert.deepEqual(netsIn('RegionTwo'), [], 'the RegionTwo child is deleted');
    const near = netsIn('RegionOne');
    assert.deepEqual(
      near.map((n) => n.name),
      ['moving-net'],
    );
    assert.equal((await w.outputs('m')).net_id, near[0]!.id);
    await w.ok(['stack', 'delete', 'm', '--yes', '--wait']);
    assert.deepEqual(netsIn('RegionOne'), []);
  });

  it('refuses a region the catalog lacks, in Heat’s words, and stores nothing', async () => {
    const w = new Workdir({ 'child.yaml': CHILD, 'parent.yaml': parent('DARKHOLE', 'lost-net') });
    const r = await w.run(['stack', 'create', 'd', '-t', 'parent.yaml', '--wait']);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /Cannot establish connection to Heat endpoint at region "DARKHOLE" due to "publicURL endpoint for orchestration service in DARKHOLE region not found"/,
    );
    const list = await w.json<unknown[]>(['stack', 'list']);
    assert.deepEqual(list, []);
    assert.deepEqual(netsIn('RegionOne'), []);
    assert.deepEqual(netsIn('RegionTwo'), []);
  });

  it('checks a keystone.region parameter against the catalog', async () => {
    const w = new Workdir({ 'region.yaml': REGION_PARAMETER });
    const bad = await w.run(['stack', 'create', 'r', '-t', 'region.yaml', '--parameter', 'region=Nowhere']);
    assert.notEqual(bad.code, 0);
    assert.match(
      bad.stderr,
      /Error validating value 'Nowhere': The KeystoneRegion \(Nowhere\) could not be found\./,
    );
    assert.equal(
      await w.finished([
        'stack',
        'create',
        'r',
        '-t',
        'region.yaml',
        '--parameter',
        'region=RegionTwo',
        '--wait',
      ]),
      'CREATE_COMPLETE',
    );
  });

  it('gives the region to the child’s own nested stacks', async () => {
    const inner = `heat_template_version: 2018-08-31
parameters:
  net_name: {type: string}
resources:
  deep: {type: My::Net, properties: {net_name: {get_param: net_name}}}
outputs:
  net_id: {value: {get_attr: [deep, net_id]}}
`;
    const top = parent('RegionTwo', 'deep-net').replace('{get_file: child.yaml}', '{get_file: inner.yaml}');
    // The environment maps the inner type (the child inherits the parent's registry and files).
    const env = 'resource_registry: {My::Net: net.yaml}\n';
    const w = new Workdir({ 'inner.yaml': inner, 'net.yaml': CHILD, 'top.yaml': top, 'env.yaml': env });
    await w.ok(['stack', 'create', 'deep', '-t', 'top.yaml', '-e', 'env.yaml', '--wait']);
    const far = netsIn('RegionTwo');
    assert.deepEqual(
      far.map((n) => n.name),
      ['deep-net'],
    );
    assert.deepEqual(netsIn('RegionOne'), []);
    assert.equal((await w.outputs('deep')).net_id, far[0]!.id);
    await w.ok(['stack', 'delete', 'deep', '--yes', '--wait']);
    assert.deepEqual(netsIn('RegionTwo'), []);
  });

  it('fails the resource when a region known only at run time is not in the catalog', async () => {
    const late = `heat_template_version: 2018-08-31
resources:
  where: {type: OS::Heat::Value, properties: {value: DARKHOLE}}
  far:
    type: OS::Heat::Stack
    properties:
      context: {region_name: {get_attr: [where, value]}}
      parameters: {net_name: late-net}
      template: {get_file: child.yaml}
`;
    const w = new Workdir({ 'child.yaml': CHILD, 'late.yaml': late });
    await w.run(['stack', 'create', 'late', '-t', 'late.yaml', '--wait']);
    const view = await w.show('late');
    assert.equal(view.stack_status, 'CREATE_FAILED');
    assert.match(
      view.stack_status_reason,
      /Cannot establish connection to Heat endpoint at region "DARKHOLE" due to "publicURL endpoint for orchestration service in DARKHOLE region not found"/,
    );
    assert.deepEqual(netsIn('RegionOne'), []);
    assert.deepEqual(netsIn('RegionTwo'), []);
  });

  it('does the same under the legacy engine (convergence_engine: false)', async () => {
    const w = new Workdir({
      'legacy.yaml': 'convergence_engine: false\n',
      'child.yaml': CHILD,
      'parent.yaml': parent('RegionTwo', 'legacy-net'),
      'one.yaml': parent('RegionOne', 'legacy-net'),
    });
    const legacy = ['--config', 'legacy.yaml'];
    await w.ok([...legacy, 'stack', 'create', 'old', '-t', 'parent.yaml', '--wait']);
    const far = netsIn('RegionTwo');
    assert.deepEqual(
      far.map((n) => n.name),
      ['legacy-net'],
    );
    assert.deepEqual(netsIn('RegionOne'), []);
    assert.equal((await w.outputs('old')).net_id, far[0]!.id);
    // The legacy walk does not replace a child: a changed region fails the update, touching nothing.
    await w.run([...legacy, 'stack', 'update', 'old', '-t', 'one.yaml', '--wait']);
    const failed = await w.show('old');
    assert.equal(failed.stack_status, 'UPDATE_FAILED');
    assert.match(failed.stack_status_reason, /region of a legacy stack’s OS::Heat::Stack cannot change/);
    assert.equal(netsIn('RegionTwo').length, 1);
    await w.ok([...legacy, 'stack', 'delete', 'old', '--yes', '--wait']);
    assert.deepEqual(netsIn('RegionTwo'), []);
  });

  it('keeps a child made before regions were recorded when it names the default region', async () => {
    const w = new Workdir({
      'child.yaml': CHILD,
      'a.yaml': parent('RegionOne', 'kept-net'),
      'b.yaml': parent('RegionOne', 'renamed-net'),
    });
    await w.ok(['stack', 'create', 'k', '-t', 'a.yaml', '--wait']);
    const before = netsIn('RegionOne');
    assert.equal(before.length, 1);
    // As a child made before this release: its credentials name no region.
    const store = await openStore(w.db);
    try {
      await store.tx(async (tx) => {
        const top = (await tx.stacks.findByName('local', 'k'))!;
        const [child] = await tx.stacks.children(top.id);
        assert.equal(child!.credentials?.region, 'RegionOne');
        await tx.stacks.update(child!.id, null, { credentials: { kind: 'deployment' } });
      });
    } finally {
      await store.close();
    }
    await w.ok(['stack', 'update', 'k', '-t', 'b.yaml', '--wait']);
    assert.deepEqual(
      netsIn('RegionOne').map((n) => [n.id, n.name]),
      [[before[0]!.id, 'renamed-net']],
      'updated in place, not replaced',
    );
    await w.ok(['stack', 'delete', 'k', '--yes', '--wait']);
  });
});
