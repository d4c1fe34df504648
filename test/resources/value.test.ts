import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceFailure } from '../../src/resources/contract.js';
import { typedValue, valuePlugin } from '../../src/resources/heat/value.js';
import { TemplateError } from '../../src/template/errors.js';
import { UNKNOWN, type Value } from '../../src/template/functions/types.js';
import { FakeResource, rejection } from './helpers.js';

async function valueOf(props: Record<string, Value>): Promise<Value> {
  const r = new FakeResource(valuePlugin);
  await r.create(props);
  return r.attribute('value');
}

describe('OS::Heat::Value', () => {
  it('creates with a physical resource name and exposes the value', async () => {
    const r = new FakeResource(valuePlugin, { name: 'val', stackName: 'sample' });
    const run = await r.create({ value: { a: [1, 2] } });
    assert.equal(run.polls, 0);
    assert.match(r.physicalId!, /^sample-val-[a-z2-7]{12}$/);
    assert.deepEqual(await r.attribute('value'), { a: [1, 2] });
    assert.equal(r.referenceId(), r.physicalId);
    assert.deepEqual(await valuePlugin.getReality(r.ctx()), {
      state: 'present',
      properties: { value: { a: [1, 2] } },
    });
  });

  it('requires value', () => {
    const r = new FakeResource(valuePlugin);
    assert.throws(() => r.props({}), /Property value not assigned/);
  });

  it('converts the value to its type, as Heat', async () => {
    assert.equal(await valueOf({ value: '42', type: 'number' }), 42);
    assert.equal(await valueOf({ value: '1.5', type: 'number' }), 1.5);
    assert.equal(await valueOf({ value: 42, type: 'string' }), '42');
    assert.equal(await valueOf({ value: true, type: 'string' }), 'True');
    assert.equal(await valueOf({ value: 'TRUE', type: 'boolean' }), true);
    assert.deepEqual(await valueOf({ value: ['a', 'b'], type: 'comma_delimited_list' }), ['a', 'b']);
    assert.deepEqual(await valueOf({ value: { k: 'v' }, type: 'json' }), { k: 'v' });
    assert.deepEqual(await valueOf({ value: [1, 'x'] }), [1, 'x']);
  });

  it('fails an action whose value does not convert', async () => {
    const r = new FakeResource(valuePlugin);
    const err = await rejection(() => r.create({ value: 'abc', type: 'number' }));
    assert.ok(err instanceof ResourceFailure);
    assert.match(err.message, /Value "abc" is not a number/);
    await r.create({ value: 'abc', type: 'string' });
    const failed = await rejection(() => r.update({ value: 'abc', type: 'json' }));
    assert.ok(failed instanceof ResourceFailure);
  });

  it('refuses a type that is not a parameter type', () => {
    const r = new FakeResource(valuePlugin);
    assert.throws(() => r.props({ value: 1, type: 'integer' }), /"integer" is not an allowed value/);
  });

  it('validates the value against its type, leaving unknown values alone', () => {
    const validate = valuePlugin.validate!;
    assert.throws(
      () => validate({ value: [1], type: 'string' }, ['resources', 'v', 'properties']),
      (err: unknown) =>
        err instanceof TemplateError &&
        err.kind === 'property' &&
        err.path.join('.') === 'resources.v.properties.value',
    );
    validate({ value: UNKNOWN, type: 'number' }, []);
    validate({ value: 'x', type: UNKNOWN }, []);
    assert.equal(typedValue({ value: UNKNOWN, type: 'number' }, []), UNKNOWN);
  });

  it('updates both properties in place', async () => {
    const r = new FakeResource(valuePlugin);
    await r.create({ value: '1', type: 'string' });
    const id = r.physicalId;
    const outcome = await r.update({ value: '2', type: 'number' });
    assert.ok('polls' in outcome);
    assert.equal(r.physicalId, id);
    assert.equal(await r.attribute('value'), 2);
  });
});
