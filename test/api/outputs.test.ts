import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, startApi, type TestApi } from './harness.js';
import { type CreatedStack, createStack } from './stack-helpers.js';

const TEMPLATE = {
  heat_template_version: '2018-08-31',
  parameters: { v: { type: 'string', default: 'one' } },
  conditions: { never: false },
  resources: {
    r1: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'v' } } },
  },
  outputs: {
    out: { description: 'r1 output', value: { get_attr: ['r1', 'output'] } },
    joined: { value: { list_join: ['-', [{ get_param: 'v' }, { get_attr: ['r1', 'output'] }]] } },
    broken: { value: { str_split: [',', { get_attr: ['r1', 'output'] }, 5] } },
    off: { condition: 'never', value: 'unseen' },
  },
};

describe('API: outputs', () => {
  let api: TestApi;
  let stack: CreatedStack;
  before(async () => {
    api = await startApi();
    stack = await createStack(api, 'proj', 'outs', { template: TEMPLATE });
  });
  after(() => api.close());

  it('lists every output’s key and description, resolving none', async () => {
    const res = await api.call('GET', `${stack.url}/outputs`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      outputs: [
        { output_key: 'out', description: 'r1 output' },
        { output_key: 'joined', description: 'No description given' },
        { output_key: 'broken', description: 'No description given' },
        { output_key: 'off', description: 'No description given' },
      ],
    });
  });

  it('shows one output’s value, or the error resolving it', async () => {
    const show = async (key: string) => {
      const res = await api.call('GET', `${stack.url}/outputs/${key}`);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { output: Record<string, unknown> }).output;
    };
    assert.deepEqual(await show('out'), { output_key: 'out', description: 'r1 output', output_value: 'one' });
    assert.equal((await show('joined')).output_value, 'one-one');
    assert.equal((await show('off')).output_value, null);
    const broken = await show('broken');
    assert.equal(broken.output_value, undefined);
    assert.equal(typeof broken.output_error, 'string');
  });

  it('answers 404 NotFound for an output the template lacks', async () => {
    const res = await api.call('GET', `${stack.url}/outputs/nope`);
    assert.equal(res.statusCode, 404);
    const body = res.json() as HeatError;
    assert.equal(body.error.type, 'NotFound');
    assert.match(body.error.message, /nope/);
  });
});
