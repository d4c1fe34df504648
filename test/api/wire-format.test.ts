import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi } from './harness.js';
import { createStack } from './stack-helpers.js';

// Heat's wire format around the bodies (docs/api.md, "Heat's wire format"), through the whole HTTP
// stack; wire-format-clients.test.ts meets the same through the real clients.
describe('API: Heat’s wire format', () => {
  let api: TestApi;
  const P = '/v1/proj';
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  const UNDESCRIBED = {
    heat_template_version: '2013-05-23',
    parameters: { secret: { type: 'string', default: 'InTheTemplate3', hidden: true } },
    resources: { r: { type: 'OS::Heat::None' } },
    outputs: { o: { Description: 'CFN style', value: 1 } },
  };

  it('every JSON answer, errors included, says exactly application/json', async () => {
    const stack = await createStack(api, 'proj', 'typed', { template: SAMPLE_TEMPLATE });
    const answers = {
      list: await api.call('GET', `${P}/stacks`),
      show: await api.call('GET', stack.url),
      create: await api.call('POST', `${P}/stacks`, {
        body: { stack_name: 'typed2', template: SAMPLE_TEMPLATE },
      }),
      action: await api.call('POST', `${stack.url}/actions`, { body: { check: null } }),
      validate: await api.call('POST', `${P}/validate`, { body: { template: SAMPLE_TEMPLATE } }),
      'stack not found': await api.call('GET', `${P}/stacks/nope/none`),
      'no route': await api.call('GET', `${P}/nowhere`),
      'bad JSON': await api.call('POST', `${P}/stacks`, { body: '{"stack_name": ' }),
      'invalid template': await api.call('POST', `${P}/validate`, {
        body: { template: { heat_template_version: '2013-05-23', resources: { r: {} } } },
      }),
      'bad URL (before routing)': await api.call('GET', `${P}/stacks/%zz`),
      healthz: await api.call('GET', '/healthz'),
    };
    for (const [what, res] of Object.entries(answers)) {
      assert.equal(res.headers['content-type'], 'application/json', `${what}: ${res.statusCode} ${res.body}`);
      JSON.parse(res.body);
    }
    assert.equal(answers['bad URL (before routing)'].statusCode, 400);
    assert.equal((answers['bad URL (before routing)'].json() as HeatError).error.type, 'HTTPBadRequest');
  });

  it('create answers 201 with Location: the new stack’s URL, its self link, which shows it', async () => {
    const res = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'located', template: SAMPLE_TEMPLATE },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { stack } = res.json() as { stack: { id: string; links: { href: string; rel: string }[] } };
    const location = res.headers.location as string;
    assert.equal(location, `http://localhost:80${P}/stacks/located/${stack.id}`);
    assert.deepEqual(stack.links, [{ href: location, rel: 'self' }]);
    await api.settle(stack.id);
    const shown = await api.call('GET', new URL(location).pathname);
    assert.equal(shown.statusCode, 200);
    assert.equal((shown.json() as { stack: { id: string } }).stack.id, stack.id);
    // A lookup by name answers 302 to the same URL.
    const lookup = await api.call('GET', `${P}/stacks/located`);
    assert.equal(lookup.statusCode, 302);
    assert.equal(lookup.headers.location, location);
  });

  it('takes a null field of create, preview, update and validate as absent', async () => {
    const NULLS = {
      environment_files: null,
      files: null,
      environment: null,
      parameters: null,
      template_url: null,
      tags: null,
      disable_rollback: null,
      timeout_mins: null,
    };
    const UPDATE_NULLS = { ...NULLS, clear_parameters: null, existing: null, converge: null };
    const created = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'nulls', template: SAMPLE_TEMPLATE, ...NULLS },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = (created.json() as { stack: { id: string } }).stack;
    assert.equal((await api.settle(id))?.status, 'COMPLETE');
    const url = `${P}/stacks/nulls/${id}`;
    const shown = (await api.call('GET', url)).json() as { stack: Record<string, unknown> };
    // Absent, not false: the default (rollback disabled), as a create without it.
    assert.equal(shown.stack.disable_rollback, true);
    assert.deepEqual(shown.stack.tags, []);

    const preview = await api.call('POST', `${P}/stacks/preview`, {
      body: { stack_name: 'nulls-preview', template: SAMPLE_TEMPLATE, ...NULLS },
    });
    assert.equal(preview.statusCode, 200, preview.body);
    const validate = await api.call('POST', `${P}/validate`, {
      body: { template: SAMPLE_TEMPLATE, ...NULLS },
    });
    assert.equal(validate.statusCode, 200, validate.body);

    for (const method of ['PUT', 'PATCH'] as const) {
      const body = { template: SAMPLE_TEMPLATE, ...UPDATE_NULLS, parameters: { v: method } };
      const previewed = await api.call(method, `${url}/preview`, { body });
      assert.equal(previewed.statusCode, 200, previewed.body);
      const updated = await api.call(method, url, { body });
      assert.equal(updated.statusCode, 202, updated.body);
      assert.equal((await api.settle(id))?.status, 'COMPLETE');
    }
    // heatclient's `--existing` without a template: `"template": null`, the stored one kept.
    const patched = await api.call('PATCH', url, {
      body: { ...UPDATE_NULLS, template: null, parameters: { v: 'kept' } },
    });
    assert.equal(patched.statusCode, 202, patched.body);
    assert.equal((await api.settle(id))?.status, 'COMPLETE');
    const after = (await api.call('GET', url)).json() as { stack: { parameters: Record<string, string> } };
    assert.equal(after.stack.parameters.v, 'kept');
  });

  it('still refuses a null template or name, and a null section inside an environment (as Heat)', async () => {
    const res = await api.call('POST', `${P}/stacks`, { body: { stack_name: 'none', template: null } });
    assert.equal(res.statusCode, 400);
    assert.equal((res.json() as HeatError).error.message, 'No template specified');
    const named = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: null, template: SAMPLE_TEMPLATE },
    });
    assert.equal(named.statusCode, 400);
    assert.equal((named.json() as HeatError).error.message, 'No stack name specified');
    // A null section inside an environment stays Heat's error.
    const env = await api.call('POST', `${P}/validate`, {
      body: { template: SAMPLE_TEMPLATE, environment: { parameter_defaults: null } },
    });
    assert.equal(env.statusCode, 400);
    assert.match((env.json() as HeatError).error.message, /empty section "parameter_defaults"/);
  });

  it('describes a template without a description as "No description" (the list: empty, as Heat)', async () => {
    for (const [name, template] of [
      ['undescribed', UNDESCRIBED],
      ['empty-description', { ...UNDESCRIBED, description: '' }],
    ] as const) {
      const stack = await createStack(api, 'proj', name, { template });
      assert.equal(stack.settled?.status, 'COMPLETE');
      const shown = (await api.call('GET', stack.url)).json() as { stack: Record<string, unknown> };
      assert.equal(shown.stack.description, 'No description', name);
      assert.equal(shown.stack.template_description, 'No description', name);
      const preview = (
        await api.call('POST', `${P}/stacks/preview`, { body: { stack_name: `${name}-p`, template } })
      ).json() as { stack: Record<string, unknown> };
      assert.equal(preview.stack.description, 'No description', name);
      assert.equal(preview.stack.template_description, 'No description', name);
      const validated = (await api.call('POST', `${P}/validate`, { body: { template } })).json() as {
        Description: string;
      };
      assert.equal(validated.Description, 'No description', name);
    }
    const listed = (await api.call('GET', `${P}/stacks?name=undescribed`)).json() as {
      stacks: { description: string }[];
    };
    assert.deepEqual(
      listed.stacks.map((s) => s.description),
      [''],
    );
  });

  it('validate shows a hidden parameter’s template default, nested ones too; given values masked', async () => {
    const nested = {
      heat_template_version: '2018-08-31',
      parameters: { token: { type: 'string', hidden: true, default: 'NestedDefault4' } },
      resources: {},
    };
    const res = await api.call('POST', `${P}/validate?show_nested=True`, {
      body: {
        template: {
          ...UNDESCRIBED,
          resources: { m: { type: 'member.yaml', properties: { token: 'GivenToNested8' } } },
        },
        files: { 'member.yaml': JSON.stringify(nested) },
        environment: { parameter_defaults: { secret: 'GivenDefault6' } },
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as {
      Parameters: Record<string, Record<string, unknown>>;
      NestedParameters: Record<string, { Parameters: Record<string, Record<string, unknown>> }>;
      Environment: { parameter_defaults: Record<string, string> };
    };
    assert.equal(body.Parameters.secret!.Default, 'InTheTemplate3');
    assert.equal(body.NestedParameters.m!.Parameters.token!.Default, 'NestedDefault4');
    assert.equal(body.NestedParameters.m!.Parameters.token!.Value, '******');
    assert.deepEqual(body.Environment.parameter_defaults, { secret: '******' });
    assert.doesNotMatch(res.body, /GivenToNested8|GivenDefault6/);
  });

  it('accepts an output’s CFN-style Description under 2013-05-23 and ignores it, as Heat', async () => {
    const stack = await createStack(api, 'proj', 'cfn-output', { template: UNDESCRIBED });
    assert.equal(stack.settled?.status, 'COMPLETE');
    const shown = (await api.call('GET', stack.url)).json() as { stack: { outputs: unknown } };
    assert.deepEqual(shown.stack.outputs, [
      { output_key: 'o', description: 'No description given', output_value: 1 },
    ]);
    // Other keys the version lacks are still refused.
    const res = await api.call('POST', `${P}/validate`, {
      body: { template: { ...UNDESCRIBED, outputs: { o: { value: 1, condition: true } } } },
    });
    assert.equal(res.statusCode, 400);
    assert.match((res.json() as HeatError).error.message, /"condition" is not a valid keyword/);
  });
});
