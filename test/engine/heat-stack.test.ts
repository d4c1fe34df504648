import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTemplateError } from '../../src/template/errors.js';
import { Harness } from './harness.js';

// OS::Heat::Stack (local): a child stack from the template text in its `template` property.

const INNER = `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
resources:
  r: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
outputs:
  out: {value: {get_attr: [r, output]}}
`;

function parent(v: string): string {
  return `heat_template_version: 2018-08-31
resources:
  inner:
    type: OS::Heat::Stack
    properties:
      template: ${JSON.stringify(INNER)}
      parameters: {v: ${v}}
  after: {type: OS::Heat::TestResource, properties: {value: {get_attr: [inner, outputs, out]}}}
outputs:
  out: {value: {get_attr: [inner, out]}}
  name: {value: {get_attr: [inner, stack_name]}}
  after: {value: {get_attr: [after, output]}}
`;
}

describe('OS::Heat::Stack', () => {
  it('creates, updates in place and deletes a child stack from template text', async () => {
    const h = await Harness.create();
    await h.create('s', parent('one'));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const top = await h.stack('s');
    const [child, ...others] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
    assert.equal(others.length, 0);
    assert.deepEqual(await h.outputs('s'), { out: 'one', name: child!.name, after: 'one' });
    const ids = (await h.live()).map((o) => o.id).sort();

    await h.update('s', parent('two'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await h.outputs('s'), { out: 'two', name: child!.name, after: 'two' });
    assert.deepEqual((await h.live()).map((o) => o.id).sort(), ids, 'updated in place');

    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
  });
});

describe('OS::Heat::Stack: its template validated with the parent (Heat: RemoteStack.validate)', () => {
  const withInner = (inner: string, parameters = '{v: x}') => `heat_template_version: 2018-08-31
resources:
  src: {type: OS::Heat::TestResource, properties: {value: x}}
  inner:
    type: OS::Heat::Stack
    properties:
      template: ${JSON.stringify(inner)}
      parameters: ${parameters}
`;
  const BROKEN = `heat_template_version: 2018-08-31
resources:
  r: {type: OS::Heat::TestResource, properties: {value: {get_resource: nope}}}
`;

  it('an error in the inline template refuses the create, and the update, storing nothing', async () => {
    const h = await Harness.create();
    await assert.rejects(
      h.create('s', withInner(BROKEN)),
      (err: unknown) =>
        isTemplateError(err) &&
        /resources\.inner\.properties\.template: Failed validating stack template using Heat endpoint at region "None" due to "ERROR: .*resources\.r\.properties\.value.*nope/.test(
          err.message,
        ),
    );
    assert.equal(await h.deps.store.tx((tx) => tx.stacks.findByName('p', 's')), undefined);

    await h.create('s', withInner(INNER));
    await h.settle();
    const rows = await h.rows('s');
    await assert.rejects(h.update('s', withInner(BROKEN)), (err: unknown) => isTemplateError(err));
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.rows('s'), rows);
  });

  it('is validated leniently: a parameter known only at run time, or not given, is no error', async () => {
    const h = await Harness.create();
    await h.create('s', withInner(INNER, '{v: {get_attr: [src, output]}}'));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const missing = await Harness.create();
    await missing.create('m', withInner(INNER, '{}'));
    await missing.settle();
    // The child itself then fails on the missing value, as in Heat.
    assert.equal(await missing.status('m'), 'CREATE_FAILED');
  });
});
