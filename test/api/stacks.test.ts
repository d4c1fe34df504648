import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi } from './harness.js';

// The stack routes through the whole HTTP stack (noauth: the project is the URL's).
describe('API: stacks', () => {
  let api: TestApi;
  const P = '/v1/proj';
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  async function create(name: string, extra: Record<string, unknown> = {}) {
    const res = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: name, template: SAMPLE_TEMPLATE, ...extra },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { stack } = res.json() as { stack: { id: string; links: { href: string; rel: string }[] } };
    await api.settle(stack.id);
    return stack;
  }

  it('creates a stack: 201 with its id and self link, then shows it with masked parameters and outputs', async () => {
    const stack = await create('one');
    assert.match(stack.links[0]!.href, new RegExp(`/v1/proj/stacks/one/${stack.id}$`));
    const res = await api.call('GET', `${P}/stacks/one/${stack.id}`);
    assert.equal(res.statusCode, 200);
    const shown = (res.json() as { stack: Record<string, unknown> }).stack;
    assert.equal(shown.stack_status, 'CREATE_COMPLETE');
    assert.equal(shown.description, 'a sample');
    assert.deepEqual(shown.parameters, {
      'OS::stack_id': stack.id,
      'OS::project_id': 'proj',
      'OS::stack_name': 'one',
      v: 'one',
      secret: '******',
    });
    assert.deepEqual(shown.outputs, [{ output_key: 'out', description: 'r2 output', output_value: 'one' }]);
    assert.equal(shown.updated_time, null);
    assert.match(shown.creation_time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('redirects a lookup by name (and by name with a sub-path) to the canonical URL', async () => {
    const stack = await create('two');
    const res = await api.call('GET', `${P}/stacks/two`);
    assert.equal(res.statusCode, 302);
    assert.match(res.headers.location as string, new RegExp(`/v1/proj/stacks/two/${stack.id}$`));
    const sub = await api.call('GET', `${P}/stacks/two/resources?nested_depth=1`);
    assert.equal(sub.statusCode, 302);
    assert.match(
      sub.headers.location as string,
      new RegExp(`/stacks/two/${stack.id}/resources\\?nested_depth=1$`),
    );
  });

  it('answers an unknown stack with 404 and Heat’s error body', async () => {
    const res = await api.call('GET', `${P}/stacks/nope`);
    assert.equal(res.statusCode, 404);
    const body = res.json() as HeatError;
    assert.equal(body.code, 404);
    assert.equal(body.title, 'Not Found');
    assert.equal(body.error.type, 'EntityNotFound');
    assert.equal(body.error.traceback, null);
    assert.match(body.error.message, /nope/);
  });

  it('refuses a create without a name, with bad JSON, or with a name taken', async () => {
    const missing = await api.call('POST', `${P}/stacks`, { body: { template: SAMPLE_TEMPLATE } });
    assert.equal(missing.statusCode, 400);
    assert.equal((missing.json() as HeatError).error.message, 'No stack name specified');
    const bad = await api.call('POST', `${P}/stacks`, { body: '{"stack_name": ' });
    assert.equal(bad.statusCode, 400);
    assert.equal((bad.json() as HeatError).error.type, 'HTTPBadRequest');
    await create('taken');
    const taken = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'taken', template: SAMPLE_TEMPLATE },
    });
    assert.equal(taken.statusCode, 409);
    assert.equal((taken.json() as HeatError).error.type, 'StackExists');
  });

  it('lists newest first, filters by status and name, pages with limit and marker', async () => {
    const res = await api.call('GET', `${P}/stacks`);
    const names = (res.json() as { stacks: { stack_name: string }[] }).stacks.map((s) => s.stack_name);
    assert.deepEqual(names.slice(0, 3), ['taken', 'two', 'one']);
    const page1 = (await api.call('GET', `${P}/stacks?limit=2&sort_keys=stack_name&sort_dir=asc`)).json() as {
      stacks: { id: string; stack_name: string }[];
    };
    assert.deepEqual(
      page1.stacks.map((s) => s.stack_name),
      ['one', 'taken'],
    );
    const page2 = (
      await api.call(
        'GET',
        `${P}/stacks?limit=2&sort_keys=stack_name&sort_dir=asc&marker=${page1.stacks[1]!.id}`,
      )
    ).json() as { stacks: { stack_name: string }[] };
    assert.deepEqual(
      page2.stacks.map((s) => s.stack_name),
      ['two'],
    );
    const byStatus = (await api.call('GET', `${P}/stacks?status=CREATE_COMPLETE&name=two`)).json() as {
      stacks: { stack_name: string }[];
    };
    assert.deepEqual(
      byStatus.stacks.map((s) => s.stack_name),
      ['two'],
    );
    const none = (await api.call('GET', `${P}/stacks?status=FAILED`)).json() as { stacks: unknown[] };
    assert.equal(none.stacks.length, 0);
    // heatclient sends Python's booleans.
    const counted = (
      await api.call('GET', `${P}/stacks?show_nested=True&with_count=True&limit=1`)
    ).json() as {
      stacks: unknown[];
      count: number;
    };
    assert.equal(counted.stacks.length, 1);
    assert.equal(counted.count, 3);
    assert.equal((await api.call('GET', `${P}/stacks?show_nested=maybe`)).statusCode, 400);
  });

  it('updates with PATCH (existing template, new parameter) and PUT (new template), then deletes', async () => {
    const stack = await create('upd');
    const url = `${P}/stacks/upd/${stack.id}`;
    const patch = await api.call('PATCH', url, { body: { parameters: { v: 'two' } } });
    assert.equal(patch.statusCode, 202, patch.body);
    await api.settle(stack.id);
    let shown = ((await api.call('GET', url)).json() as { stack: Record<string, unknown> }).stack;
    assert.equal(shown.stack_status, 'UPDATE_COMPLETE');
    assert.deepEqual(shown.outputs, [{ output_key: 'out', description: 'r2 output', output_value: 'two' }]);

    const template = { ...SAMPLE_TEMPLATE, outputs: { out: { value: 'fixed' } } };
    const put = await api.call('PUT', url, { body: { template, parameters: { v: 'three' } } });
    assert.equal(put.statusCode, 202, put.body);
    await api.settle(stack.id);
    shown = ((await api.call('GET', url)).json() as { stack: Record<string, unknown> }).stack;
    assert.equal((shown.parameters as Record<string, string>).v, 'three');
    assert.deepEqual(shown.outputs, [
      { output_key: 'out', description: 'No description given', output_value: 'fixed' },
    ]);

    const del = await api.call('DELETE', url);
    assert.equal(del.statusCode, 204);
    await api.settle(stack.id);
    assert.equal((await api.call('GET', url)).statusCode, 404);
  });

  it('runs actions: check, and refuses an unknown action', async () => {
    const stack = await create('act');
    const url = `${P}/stacks/act/${stack.id}/actions`;
    const check = await api.call('POST', url, { body: { check: null } });
    assert.equal(check.statusCode, 200);
    assert.equal(check.body, 'null');
    const settled = await api.settle(stack.id);
    assert.equal(`${settled?.action}_${settled?.status}`, 'CHECK_COMPLETE');
    const bad = await api.call('POST', url, { body: { frobnicate: null } });
    assert.equal(bad.statusCode, 400);
  });

  it('refuses with 400 a create whose OS::Heat::Stack has an error in its inline template', async () => {
    const template = {
      heat_template_version: '2018-08-31',
      resources: {
        inner: {
          type: 'OS::Heat::Stack',
          properties: {
            template: 'heat_template_version: 2018-08-31\nresources:\n  r: {type: OS::No::Such}\n',
          },
        },
      },
    };
    const res = await api.call('POST', `${P}/stacks`, { body: { stack_name: 'inline', template } });
    assert.equal(res.statusCode, 400, res.body);
    const body = res.json() as HeatError;
    assert.equal(body.error.type, 'StackValidationFailed');
    assert.match(
      body.error.message,
      /Failed validating stack template using Heat endpoint at region "None" due to "ERROR: .*OS::No::Such/,
    );
    assert.equal((await api.call('GET', `${P}/stacks/inline`)).statusCode, 404, 'no stack was made');
  });

  it('creates a CloudFormation-format stack: its pseudo parameters are the AWS:: ones', async () => {
    const template = {
      AWSTemplateFormatVersion: '2010-09-09',
      Parameters: { V: { Type: 'String', Default: 'x' } },
      Resources: { R: { Type: 'OS::Heat::None' } },
      Outputs: { Name: { Value: { 'Fn::Join': ['/', [{ Ref: 'AWS::StackName' }, { Ref: 'V' }]] } } },
    };
    const stack = await create('cfn.one', { template });
    const shown = (
      (await api.call('GET', `${P}/stacks/cfn.one/${stack.id}`)).json() as {
        stack: Record<string, unknown>;
      }
    ).stack;
    assert.equal(shown.stack_status, 'CREATE_COMPLETE');
    assert.deepEqual(shown.parameters, {
      'AWS::StackId': `arn:openstack:heat::proj:stacks/cfn.one/${stack.id}`,
      'AWS::StackName': 'cfn.one',
      'AWS::Region': 'ap-southeast-1',
      V: 'x',
    });
    assert.deepEqual(shown.outputs, [
      { output_key: 'Name', description: 'No description given', output_value: 'cfn.one/x' },
    ]);
  });

  it('leaves the outputs out with resolve_outputs=false (as Heat: a status poll reads no resource)', async () => {
    const stack = await create('quiet');
    // openstackclient sends it twice.
    for (const query of [
      'resolve_outputs=false',
      'resolve_outputs=False',
      'resolve_outputs=False&resolve_outputs=False',
    ]) {
      const res = await api.call('GET', `${P}/stacks/quiet/${stack.id}?${query}`);
      assert.equal(res.statusCode, 200);
      const shown = (res.json() as { stack: Record<string, unknown> }).stack;
      assert.equal(shown.stack_status, 'CREATE_COMPLETE');
      assert.equal('outputs' in shown, false);
    }
    const shown = (await api.call('GET', `${P}/stacks/quiet/${stack.id}?resolve_outputs=true`)).json() as {
      stack: { outputs: unknown[] };
    };
    assert.equal(shown.stack.outputs.length, 1);
    const bad = await api.call('GET', `${P}/stacks/quiet/${stack.id}?resolve_outputs=maybe`);
    assert.equal(bad.statusCode, 400);
  });
});

// Heat's lookup of a stack by its ARN (heat/api/openstack/v1/__init__.py: any method, the path after
// the id kept): a redirect to the stack's canonical URL; only the request's project's stacks.
describe('API: a stack named by its ARN', () => {
  let api: TestApi;
  const P = '/v1/proj';
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  it('redirects a stack named by its ARN (sent as is or encoded, with a path and a query) as Heat does', async () => {
    const res = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'arned', template: SAMPLE_TEMPLATE },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { stack } = res.json() as { stack: { id: string } };
    await api.settle(stack.id);
    const arn = `arn:openstack:heat::proj:stacks/arned/${stack.id}`;
    const canonical = `/v1/proj/stacks/arned/${stack.id}`;
    const plain = await api.call('GET', `${P}/stacks/${arn}`);
    assert.equal(plain.statusCode, 302, plain.body);
    assert.ok((plain.headers.location as string).endsWith(canonical), plain.headers.location as string);
    const sub = await api.call('GET', `${P}/stacks/${arn}/resources?nested_depth=1`);
    assert.equal(sub.statusCode, 302, sub.body);
    assert.ok((sub.headers.location as string).endsWith(`${canonical}/resources?nested_depth=1`));
    const encoded = await api.call('GET', `${P}/stacks/${encodeURIComponent(arn)}`);
    assert.equal(encoded.statusCode, 302, encoded.body);
    assert.ok((encoded.headers.location as string).endsWith(canonical));
    // Any method, as Heat's route: the client follows the redirect with it.
    const deleting = await api.call('DELETE', `${P}/stacks/${arn}`);
    assert.equal(deleting.statusCode, 302);
    assert.ok((deleting.headers.location as string).endsWith(canonical));
    // Followed, it is the stack.
    const shown = await api.call('GET', (sub.headers.location as string).replace(/^https?:\/\/[^/]+/, ''));
    assert.equal(shown.statusCode, 200, shown.body);

    // Another project's ARN, the ARN of a stack under another project's URL, a wrong name or id,
    // and a malformed ARN: not found, with Heat's body.
    for (const url of [
      `/v1/other/stacks/${arn}`,
      `/v1/other/stacks/arn:openstack:heat::other:stacks/arned/${stack.id}`,
      `${P}/stacks/arn:openstack:heat::proj:stacks/wrong/${stack.id}`,
      `${P}/stacks/arn:openstack:heat::proj:stacks/arned/00000000-0000-4000-8000-000000000000`,
      `${P}/stacks/arn:openstack:nova::proj:stacks/arned/${stack.id}`,
    ]) {
      const res = await api.call('GET', url);
      assert.equal(res.statusCode, 404, url);
      assert.equal((res.json() as HeatError).error.type, 'EntityNotFound', url);
    }
    // A path under /stacks that is no ARN stays no route.
    const none = await api.call('GET', `${P}/stacks/a/b/c/d`);
    assert.equal(none.statusCode, 404);
    assert.equal((none.json() as HeatError).error.type, 'HTTPNotFound');
  });
});
