import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { params, type ResourceRow, Workdir } from './workdir.js';

// Heat's functional test of OS::Heat::ResourceChain (test_resource_chain.py), end to end through
// the CLI: create with resource_properties from a parameter, update to other types, the list of
// types from a parameter (grown on update), and concurrent members.

const SIMPLE = `heat_template_version: 2016-04-08
parameters:
  string-length: {type: number}
resources:
  my-chain:
    type: OS::Heat::ResourceChain
    properties:
      resources: ['OS::Heat::RandomString', 'OS::Heat::RandomString']
      resource_properties:
        length: {get_param: string-length}
outputs:
  resource-ids: {value: {get_attr: [my-chain, refs]}}
  resource-0-value: {value: {get_attr: [my-chain, resource.0, value]}}
  all-resource-attrs: {value: {get_attr: [my-chain, attributes, value]}}
`;

const UPDATED = `heat_template_version: 2016-04-08
parameters:
  string-length: {type: number}
resources:
  my-chain:
    type: OS::Heat::ResourceChain
    properties:
      resources: ['OS::Heat::None']
`;

const PARAM_DRIVEN = `heat_template_version: 2016-04-08
parameters:
  chain-types: {type: comma_delimited_list}
  concurrent: {type: boolean, default: false}
resources:
  my-chain:
    type: OS::Heat::ResourceChain
    properties:
      resources: {get_param: chain-types}
      concurrent: {get_param: concurrent}
`;

/** The chain's members (its child stack's resources) as name → type. */
async function members(w: Workdir, stack: string): Promise<Record<string, string>> {
  const rows = await w.resources(stack, 1);
  return Object.fromEntries(
    rows.filter((r) => r.stack_name !== stack).map((r) => [r.resource_name, r.resource_type]),
  );
}

/** The member rows of the chain's child stack. */
async function memberRows(w: Workdir, stack: string): Promise<ResourceRow[]> {
  return (await w.resources(stack, 1)).filter((r) => r.stack_name !== stack);
}

describe('OS::Heat::ResourceChain through the CLI (Heat functional tests)', { concurrency: true }, () => {
  it('test_create and test_update: members from resource_properties, then replaced by other types', async () => {
    const w = new Workdir({ 'simple.yaml': SIMPLE, 'updated.yaml': UPDATED });
    assert.equal(
      await w.finished([
        'stack',
        'create',
        's',
        '-t',
        'simple.yaml',
        ...params({ 'string-length': 8 }),
        '--wait',
      ]),
      'CREATE_COMPLETE',
    );
    assert.deepEqual(
      (await w.resources('s')).map((r) => [r.resource_name, r.resource_type]),
      [['my-chain', 'OS::Heat::ResourceChain']],
    );
    assert.deepEqual(await members(w, 's'), { 0: 'OS::Heat::RandomString', 1: 'OS::Heat::RandomString' });
    const out = await w.outputs('s');
    assert.deepEqual(
      out['resource-ids'],
      (await memberRows(w, 's')).map((r) => r.physical_resource_id),
    );
    assert.equal((out['resource-0-value'] as string).length, 8);
    const attrs = out['all-resource-attrs'] as Record<string, string>;
    assert.deepEqual(Object.keys(attrs), ['0', '1']);
    assert.ok(Object.values(attrs).every((v) => v.length === 8));
    assert.equal(attrs['0'], out['resource-0-value']);

    assert.equal(
      await w.finished([
        'stack',
        'update',
        's',
        '-t',
        'updated.yaml',
        ...params({ 'string-length': 8 }),
        '--wait',
      ]),
      'UPDATE_COMPLETE',
    );
    assert.deepEqual(await members(w, 's'), { 0: 'OS::Heat::None' });
  });

  it('test_update_resources and test_resources_param_driven: the types from a parameter', async () => {
    const w = new Workdir({ 'chain.yaml': PARAM_DRIVEN });
    await w.ok([
      'stack',
      'create',
      's',
      '-t',
      'chain.yaml',
      ...params({ 'chain-types': 'OS::Heat::None' }),
      '--wait',
    ]);
    assert.deepEqual(await members(w, 's'), { 0: 'OS::Heat::None' });
    const [first] = await memberRows(w, 's');

    const types = 'OS::Heat::None,OS::Heat::RandomString,OS::Heat::None';
    assert.equal(
      await w.finished(['stack', 'update', 's', '--existing', ...params({ 'chain-types': types }), '--wait']),
      'UPDATE_COMPLETE',
    );
    assert.deepEqual(await members(w, 's'), {
      0: 'OS::Heat::None',
      1: 'OS::Heat::RandomString',
      2: 'OS::Heat::None',
    });
    const grown = await memberRows(w, 's');
    assert.equal(grown[0]!.physical_resource_id, first!.physical_resource_id, 'the first member is kept');

    await w.ok([
      'stack',
      'update',
      's',
      '--existing',
      ...params({ 'chain-types': 'OS::Heat::None' }),
      '--wait',
    ]);
    assert.deepEqual(await members(w, 's'), { 0: 'OS::Heat::None' });
    assert.equal((await memberRows(w, 's'))[0]!.physical_resource_id, first!.physical_resource_id);
  });

  it('concurrent: the members depend on nothing; without it, each waits for the one before', async () => {
    const types = 'OS::Heat::None,OS::Heat::None,OS::Heat::None';
    const w = new Workdir({ 'chain.yaml': PARAM_DRIVEN });
    await w.ok([
      'stack',
      'create',
      'par',
      '-t',
      'chain.yaml',
      ...params({ 'chain-types': types, concurrent: true }),
      '--wait',
    ]);
    await w.ok(['stack', 'create', 'seq', '-t', 'chain.yaml', ...params({ 'chain-types': types }), '--wait']);
    const template = async (stack: string) => {
      const [chain] = await w.resources(stack);
      const shown = await w.ok(['stack', 'template', 'show', chain!.physical_resource_id]);
      return JSON.parse(shown) as { resources: Record<string, { depends_on?: string[] }> };
    };
    const dependsOn = (t: { resources: Record<string, { depends_on?: string[] }> }) =>
      Object.values(t.resources).map((r) => r.depends_on ?? []);
    assert.deepEqual(dependsOn(await template('par')), [[], [], []]);
    assert.deepEqual(dependsOn(await template('seq')), [[], ['0'], ['1']]);
    assert.equal(await w.status('par'), 'CREATE_COMPLETE');
  });
});
