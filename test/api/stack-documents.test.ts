import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApi, type TestApi } from './harness.js';
import { createStack } from './stack-helpers.js';

const YAML_TEMPLATE = `heat_template_version: 2018-08-31
description: kept as written
parameters:
  v:
    type: string
    default: one
  pin:
    type: number
    hidden: true
    default: 123456
resources:
  r1:
    type: OS::Heat::TestResource
    properties: {value: {get_file: data.txt}}
`;

describe('API: a stack’s template, environment and files', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  it('shows the stored YAML template as a JSON object, a hidden parameter’s default masked', async () => {
    const stack = await createStack(api, 'proj', 'docs', {
      template: YAML_TEMPLATE,
      // Keyed as heatclient sends files: absolute URLs.
      files: { 'file:///data.txt': 'file content' },
      environment: { parameter_defaults: { v: 'two' } },
      parameters: { pin: 654321 },
    });
    const res = await api.call('GET', `${stack.url}/template`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      heat_template_version: '2018-08-31',
      description: 'kept as written',
      parameters: {
        v: { type: 'string', default: 'one' },
        pin: { type: 'number', hidden: true, default: '******' },
      },
      resources: { r1: { type: 'OS::Heat::TestResource', properties: { value: { get_file: 'data.txt' } } } },
    });

    const env = await api.call('GET', `${stack.url}/environment`);
    assert.equal(env.statusCode, 200);
    assert.deepEqual(env.json(), {
      resource_registry: { resources: {} },
      parameters: { pin: '******' },
      parameter_defaults: { v: 'two' },
      event_sinks: [],
      encrypted_param_names: [],
    });

    const files = await api.call('GET', `${stack.url}/files`);
    assert.equal(files.statusCode, 200);
    assert.deepEqual(files.json(), { 'file:///data.txt': 'file content' });
  });

  it('shows a JSON template as given and an empty files map as {}', async () => {
    const template = {
      heat_template_version: '2021-04-16',
      resources: { n: { type: 'OS::Heat::None' } },
    };
    const stack = await createStack(api, 'proj', 'json', { template });
    assert.deepEqual((await api.call('GET', `${stack.url}/template`)).json(), template);
    assert.deepEqual((await api.call('GET', `${stack.url}/files`)).json(), {});
  });
});
