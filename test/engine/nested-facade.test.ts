import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Harness } from './harness.js';

// resource_facade / Fn::ResourceFacade at run time: a nested stack reads its parent resource's
// metadata, deletion_policy and update_policy, resolved in the parent stack.

const T = 'OS::Heat::TestResource';

/** A HOT child: a resource fed by the parent's metadata, and every section as an output. */
const HOT_CHILD = `heat_template_version: 2018-08-31
resources:
  fed:
    type: ${T}
    properties:
      value: {yaql: {expression: $.data.a, data: {resource_facade: metadata}}}
outputs:
  meta: {value: {resource_facade: metadata}}
  deletion: {value: {resource_facade: deletion_policy}}
  policy: {value: {resource_facade: update_policy}}
  fed: {value: {get_attr: [fed, output]}}
`;

/** The same child in the CloudFormation format. */
const CFN_CHILD = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  fed:
    Type: ${T}
    Properties:
      value: {'Fn::Select': [a, {'Fn::ResourceFacade': Metadata}]}
Outputs:
  meta: {Value: {'Fn::ResourceFacade': Metadata}}
  deletion: {Value: {'Fn::ResourceFacade': DeletionPolicy}}
  policy: {Value: {'Fn::ResourceFacade': UpdatePolicy}}
  fed: {Value: {'Fn::GetAtt': [fed, output]}}
`;

/** The parent: its template resource's sections refer to a parameter and another resource. */
function parent(child: string, sections = true): string {
  const extra = sections
    ? `    metadata: {a: {get_param: x}, id: {get_resource: first}}
    deletion_policy: retain
    update_policy: {pause: {get_param: x}}
`
    : '';
  return `heat_template_version: 2018-08-31
parameters:
  x: {type: string}
resources:
  first: {type: ${T}, properties: {value: one}}
  nested:
    type: ${child}
${extra}outputs:
  meta: {value: {get_attr: [nested, meta]}}
  deletion: {value: {get_attr: [nested, deletion]}}
  policy: {value: {get_attr: [nested, policy]}}
  fed: {value: {get_attr: [nested, fed]}}
  first: {value: {get_resource: first}}
`;
}

const FILES = { 'hot.yaml': HOT_CHILD, 'cfn.yaml': CFN_CHILD };

async function createAndUpdate(h: Harness, child: string): Promise<void> {
  await h.create('s', parent(child), { files: FILES, parameters: { x: 'v1' } });
  await h.settle();
  assert.equal(await h.status('s'), 'CREATE_COMPLETE');
  let out = await h.outputs('s');
  assert.deepEqual(out.meta, { a: 'v1', id: out.first });
  assert.equal(out.deletion, 'Retain');
  assert.deepEqual(out.policy, { pause: 'v1' });
  assert.equal(out.fed, 'v1');

  // Only the template resource's metadata and update_policy change: the child follows.
  await h.update('s', parent(child), { files: FILES, parameters: { x: 'v2' } });
  await h.settle();
  assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
  out = await h.outputs('s');
  assert.deepEqual(out.meta, { a: 'v2', id: out.first });
  assert.deepEqual(out.policy, { pause: 'v2' });
  assert.equal(out.fed, 'v2');
  assert.deepEqual(
    (await h.live()).map((o) => o.properties.value),
    ['one', 'v2'],
    'the fed resource was updated in place',
  );
}

describe('resource_facade in nested stacks', () => {
  it("HOT: the child reads its parent resource's sections; a metadata change updates it", async () => {
    await createAndUpdate(await Harness.create(), 'hot.yaml');
  });

  it('CloudFormation format: Fn::ResourceFacade reads the same sections', async () => {
    await createAndUpdate(await Harness.create(), 'cfn.yaml');
  });

  it('the legacy engine records and updates the facade the same way', async () => {
    await createAndUpdate(await Harness.create({ legacy: true }), 'hot.yaml');
  });

  it("absent sections are Heat's defaults: {} metadata and update_policy, 'Delete'", async () => {
    const h = await Harness.create();
    const child = HOT_CHILD.replace('$.data.a', "'$.data.keys().len()'");
    await h.create('s', parent('hot.yaml', false), { files: { 'hot.yaml': child }, parameters: { x: 'v' } });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const out = await h.outputs('s');
    assert.deepEqual(out.meta, {});
    assert.equal(out.deletion, 'Delete');
    assert.deepEqual(out.policy, {});
    assert.equal(out.fed, '0');
  });

  it("a nested-stack type's child reads its resource's facade too (OS::Heat::Stack, as Heat)", async () => {
    const h = await Harness.create();
    const inner = `heat_template_version: 2018-08-31
outputs:
  meta: {value: {resource_facade: metadata}}
`;
    const top = (role: string) => `heat_template_version: 2018-08-31
resources:
  inner:
    type: OS::Heat::Stack
    metadata: {role: ${role}}
    properties: {template: ${JSON.stringify(inner)}}
outputs:
  meta: {value: {get_attr: [inner, outputs, meta]}}
`;
    await h.create('s', top('db'));
    await h.settle();
    assert.deepEqual((await h.outputs('s')).meta, { role: 'db' });
    await h.update('s', top('web'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual((await h.outputs('s')).meta, { role: 'web' });
  });

  it('a top-level stack has no parent resource: its create is refused, naming why', async () => {
    const h = await Harness.create();
    const top = `heat_template_version: 2018-08-31
resources:
  r: {type: ${T}, properties: {value: {resource_facade: deletion_policy}}}
`;
    await assert.rejects(
      h.create('top', top),
      /resources\.r\.properties\.value: resource_facade is only available in a nested stack/,
    );
  });

  it('a nested stack updated directly keeps the facade its parent recorded', async () => {
    const h = await Harness.create();
    await h.create('s', parent('hot.yaml'), { files: FILES, parameters: { x: 'v1' } });
    await h.settle();
    const top = await h.stack('s');
    const [child] = await h.deps.store.tx((tx) => tx.stacks.children(top.id));
    await h.update(child!.name, HOT_CHILD.replace('$.data.a', '$.data.a + "!"'));
    await h.settle();
    assert.equal(await h.status(child!.name), 'UPDATE_COMPLETE');
    assert.deepEqual(await h.outputs(child!.name), {
      meta: { a: 'v1', id: (await h.outputs('s')).first },
      deletion: 'Retain',
      policy: { pause: 'v1' },
      fed: 'v1!',
    });
  });
});
