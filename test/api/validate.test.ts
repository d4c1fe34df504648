import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { snapshotDatabase } from '../cli/state-snapshot.js';
import { type HeatError, SAMPLE_TEMPLATE, startApi, tenant, type TestApi } from './harness.js';
import { API_SAMPLES } from '../support/shared.js';

const SAMPLES = API_SAMPLES;

interface ValidateBody {
  Description: string;
  Parameters: Record<string, Record<string, unknown>>;
  ParameterGroups?: unknown;
  NestedParameters?: unknown;
  Environment: unknown;
}

function sampleBody(file: string): ValidateBody {
  const text = readFileSync(`${SAMPLES}/${file}`, 'utf8');
  return JSON.parse(text.slice(text.indexOf('\n{') + 1));
}

const MEMBER = `heat_template_version: 2018-08-31
description: a member
parameters:
  size:
    type: number
    default: 1
  token:
    type: string
    hidden: true
parameter_groups:
  - label: sizing
    parameters: [size]
resources:
  r:
    type: OS::Heat::None
`;

// POST /validate through the whole HTTP stack: Heat's answer for a valid template, Heat's error
// body with the file, line and path for an invalid one, and nothing stored either way.
describe('API: validate', () => {
  let api: TestApi;
  const P = '/v1/proj';
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  /** A validate call that must store nothing. */
  async function validate(body: unknown, query = '') {
    const before = snapshotDatabase(api.dbFile);
    const res = await api.call('POST', `${P}/validate${query}`, { body });
    assert.equal(snapshotDatabase(api.dbFile), before, 'validate stores nothing');
    return res;
  }

  it('answers Heat’s validate body for the recorded sample, the hidden default as written', async () => {
    const res = await validate({ template: readFileSync(`${SAMPLES}/sample-template.yaml`, 'utf8') });
    assert.equal(res.statusCode, 200, res.body);
    // Heat shows a hidden parameter's template default in clear: the template is the caller's text.
    assert.deepEqual(res.json(), sampleBody('validate.txt'));
    assert.equal((res.json() as ValidateBody).Parameters.secret!.Default, 's3cr3t');
  });

  it('shows the values given, hidden ones masked in Parameters and in Environment', async () => {
    const res = await validate({
      template: SAMPLE_TEMPLATE,
      parameters: { v: 'given', secret: 'TopSecret1' },
      environment: {
        parameter_defaults: { secret: 'TopSecret2' },
        resource_registry: { 'My::T': 'OS::Heat::None' },
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as ValidateBody;
    assert.equal(body.Description, 'a sample');
    assert.equal(body.Parameters.v!.Value, 'given');
    assert.equal(body.Parameters.secret!.Value, '******');
    assert.deepEqual(body.Environment, {
      resource_registry: { resources: {}, 'My::T': 'OS::Heat::None' },
      parameters: { v: 'given', secret: '******' },
      parameter_defaults: { secret: '******' },
      event_sinks: [],
    });
    assert.ok(!res.body.includes('TopSecret'));
  });

  it('describes the nested templates’ parameters with show_nested, and the parameter groups', async () => {
    const template = {
      heat_template_version: '2018-08-31',
      parameter_groups: [{ label: 'top', parameters: ['n'] }],
      parameters: { n: { type: 'number', default: 2 } },
      resources: {
        m: { type: 'member.yaml', properties: { size: { get_param: 'n' }, token: 'Sesame1' } },
        plain: { type: 'OS::Heat::None' },
      },
    };
    const body = { template, files: { 'member.yaml': MEMBER } };
    const flat = (await validate(body)).json() as ValidateBody;
    assert.deepEqual(flat.ParameterGroups, [{ label: 'top', parameters: ['n'] }]);
    assert.equal(flat.NestedParameters, undefined);

    const res = await validate(body, '?show_nested=True');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json() as ValidateBody).NestedParameters, {
      m: {
        Type: 'member.yaml',
        Description: 'a member',
        Parameters: {
          size: { Type: 'Number', Description: '', NoEcho: 'false', Label: 'size', Default: 1, Value: 2 },
          token: { Type: 'String', Description: '', NoEcho: 'true', Label: 'token', Value: '******' },
        },
        ParameterGroups: [{ label: 'sizing', parameters: ['size'] }],
      },
    });
    assert.ok(!res.body.includes('Sesame1'));
  });

  it('validates a CloudFormation-format template as Heat does, a HOT one nested in it', async () => {
    const template = {
      AWSTemplateFormatVersion: '2010-09-09',
      Description: 'cfn',
      Parameters: {
        N: { Type: 'Number', Default: 2, MaxValue: 5, ConstraintDescription: 'small' },
        Key: { Type: 'String', NoEcho: 'true', AllowedPattern: '[A-Z].*' },
      },
      Resources: { M: { Type: 'member.yaml', Properties: { size: { Ref: 'N' }, token: { Ref: 'Key' } } } },
    };
    const body = { template, files: { 'member.yaml': MEMBER }, parameters: { Key: 'Sesame1' } };
    const res = await validate(body, '?show_nested=True');
    assert.equal(res.statusCode, 200, res.body);
    const shown = res.json() as ValidateBody;
    assert.equal(shown.Description, 'cfn');
    assert.deepEqual(shown.Parameters, {
      N: {
        Type: 'Number',
        Description: '',
        NoEcho: 'false',
        Label: 'N',
        Default: 2,
        MaxValue: 5,
        ConstraintDescription: 'small',
      },
      Key: {
        Type: 'String',
        Description: '',
        NoEcho: 'true',
        Label: 'Key',
        Value: '******',
        AllowedPattern: '[A-Z].*',
      },
    });
    assert.deepEqual((shown.NestedParameters as Record<string, { Parameters: unknown }>).M!.Parameters, {
      size: { Type: 'Number', Description: '', NoEcho: 'false', Label: 'size', Default: 1, Value: 2 },
      token: { Type: 'String', Description: '', NoEcho: 'true', Label: 'token', Value: '******' },
    });
    assert.ok(!res.body.includes('Sesame1'));

    const bad = {
      ...template,
      Resources: { M: { Type: 'OS::Heat::None', Properties: { x: { Ref: 'nope' } } } },
    };
    const refused = await validate({ template: bad });
    assert.equal(refused.statusCode, 400);
    assert.match(
      (refused.json() as HeatError).error.message,
      /^file:\/\/\/template:\d+:\d+: Resources\.M\.Properties\.x/,
    );
    const section = (await validate({ template: { ...template, Extra: {} } })).json() as HeatError;
    assert.match(section.error.message, /The template section is invalid: Extra/);
  });

  it('refuses an invalid template: 400 StackValidationFailed naming the line and path', async () => {
    // Heat's validate accepted this (validate-bad.txt): Hearth reports the undefined parameter.
    const bad = sampleBody('validate-bad.txt');
    assert.equal(bad.Description, 'No description');
    const template = {
      heat_template_version: '2018-08-31',
      resources: { a: { type: 'OS::Heat::None', properties: { x: { get_param: 'nope' } } } },
    };
    const res = await validate({ template });
    assert.equal(res.statusCode, 400);
    const body = res.json() as HeatError;
    assert.equal(body.title, 'Bad Request');
    assert.equal(body.error.type, 'StackValidationFailed');
    assert.match(body.error.message, /^file:\/\/\/template:\d+:\d+: resources\.a\.properties\.x/);
    assert.match(body.error.message, /nope/);

    const text = 'heat_template_version: 2018-08-31\nresources:\n  a:\n    type: OS::Heat::Nope\n';
    const unknown = (await validate({ template: text })).json() as HeatError;
    assert.match(
      unknown.error.message,
      /^The Resource Type \(OS::Heat::Nope\) could not be found\. \(file:\/\/\/template:4:\d+: resources\.a\.type; did you mean OS::Heat::None\?\)$/,
    );

    const version = (
      await validate({ template: { heat_template_version: '2001-01-01' } })
    ).json() as HeatError;
    assert.equal(version.error.type, 'InvalidTemplateVersion');
  });

  it('leaves a nested template’s required properties to create, as Heat does (issue 21, item 9)', async () => {
    // The nested template needs `password`, which the parent does not give: Heat's validate does
    // not check values; its create does ("property ... is required").
    const files = {
      'service.yaml': `heat_template_version: 2018-08-31
parameters:
  password: {type: string, hidden: true}
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: password}}}
`,
    };
    const template = {
      heat_template_version: '2018-08-31',
      resources: { svc: { type: 'service.yaml' } },
    };
    const res = await validate({ template, files });
    assert.equal(res.statusCode, 200, res.body);

    const create = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'needs-pw', template, files },
    });
    assert.equal(create.statusCode, 400, create.body);
    assert.match(
      (create.json() as HeatError).error.message,
      /resources\.svc\.properties: property "password" is required/,
    );
    const given = {
      heat_template_version: '2018-08-31',
      resources: { svc: { type: 'service.yaml', properties: { password: 'pw' } } },
    };
    const ok = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'has-pw', template: given, files },
    });
    assert.equal(ok.statusCode, 201, ok.body);
    const settled = await api.settle((ok.json() as { stack: { id: string } }).stack.id);
    assert.equal(settled?.status, 'COMPLETE', settled?.reason);
  });

  it('lists the template types it resolved in the environment’s resource_registry, as Heat (issue 21, item 6)', async () => {
    const files = { 'file:///t/member.yaml': MEMBER, 'file:///t/other.yaml': MEMBER };
    const template = {
      heat_template_version: '2018-08-31',
      parameters: { on: { type: 'boolean', default: false } },
      conditions: { on: { get_param: 'on' } },
      resources: {
        a: { type: 'file:///t/member.yaml' },
        b: { type: 'file:///t/member.yaml' },
        // Mapped by the environment: shown as the environment gives it, not registered again.
        c: { type: 'My::Member' },
        // Not in the stack: Heat never looks its type up.
        off: { type: 'file:///t/other.yaml', condition: 'on' },
        plain: { type: 'OS::Heat::None' },
      },
    };
    const environment = { resource_registry: { 'My::Member': 'file:///t/member.yaml' } };
    const res = await validate({ template, files, environment });
    assert.equal(res.statusCode, 200, res.body);
    const env = (res.json() as ValidateBody).Environment as { resource_registry: unknown };
    assert.deepEqual(env.resource_registry, {
      resources: {},
      'My::Member': 'file:///t/member.yaml',
      'file:///t/member.yaml': 'file:///t/member.yaml',
    });
  });

  it('drops a depends_on naming a resource whose condition is false (issue 21, item 12)', async () => {
    const template = `heat_template_version: 2016-10-14
resources:
  one: {type: OS::Heat::None}
  two: {type: OS::Heat::None, condition: false}
  three: {type: OS::Heat::None, depends_on: two}
`;
    assert.equal((await validate({ template })).statusCode, 200);
    const create = await api.call('POST', `${P}/stacks`, { body: { stack_name: 'cond-deps', template } });
    assert.equal(create.statusCode, 201, create.body);
    const id = (create.json() as { stack: { id: string } }).stack.id;
    assert.equal((await api.settle(id))?.status, 'COMPLETE');
    const listed = await api.call('GET', `${P}/stacks/cond-deps/${id}/resources`);
    const names = (listed.json() as { resources: { resource_name: string }[] }).resources.map(
      (r) => r.resource_name,
    );
    assert.deepEqual(names.sort(), ['one', 'three']);
  });

  it('refuses bad input with 400 and Heat’s body', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{}, '', /No template specified/],
      [{ template: 42 }, '', /"template" must be an object or a string/],
      [{ template: SAMPLE_TEMPLATE, files: { 'a.yaml': { x: 1 } } }, '', /files/],
      [{ template: SAMPLE_TEMPLATE, environment_files: ['env.yaml'] }, '', /env\.yaml/],
      ['{"template": ', '', /JSON/i],
      [{ template: SAMPLE_TEMPLATE }, '?show_nested=sometimes', /show_nested/],
      [{ template: SAMPLE_TEMPLATE }, '?ignore_errors=12345', /12345/],
    ];
    for (const [body, query, message] of cases) {
      const res = await validate(body, query);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}${query}: ${res.body}`);
      const err = res.json() as HeatError;
      assert.equal(err.code, 400);
      assert.match(err.error.message, message);
    }
    // Heat's one ignorable code (a missing service) never happens here: nothing to ignore.
    assert.equal((await validate({ template: SAMPLE_TEMPLATE }, '?ignore_errors=99001')).statusCode, 200);
  });

  it('is authenticated like every route: the token’s own project only', async () => {
    const scoped = await startApi({ auth: 'standalone' });
    try {
      const alpha = await tenant(scoped, 'alpha');
      const body = { template: SAMPLE_TEMPLATE };
      const own = await scoped.call('POST', `/v1/${alpha.projectId}/validate`, { token: alpha.token, body });
      assert.equal(own.statusCode, 200, own.body);
      const other = await scoped.call('POST', '/v1/beta/validate', { token: alpha.token, body });
      assert.equal(other.statusCode, 403);
      const anonymous = await scoped.call('POST', `/v1/${alpha.projectId}/validate`, { body });
      assert.equal(anonymous.statusCode, 401);
    } finally {
      await scoped.close();
    }
  });
});
