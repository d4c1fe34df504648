import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, startApi, type TestApi } from './harness.js';

// A scaling policy's alarm_url is a pre-signed URL: an alarm service POSTs to it with no
// credentials and the group scales. Its token signals that policy and nothing else.

const P = '/v1/proj';
const TEMPLATE = {
  heat_template_version: '2018-08-31',
  resources: {
    asg: {
      type: 'OS::Heat::AutoScalingGroup',
      properties: { min_size: 1, max_size: 3, resource: { type: 'OS::Heat::TestResource' } },
    },
    up: {
      type: 'OS::Heat::ScalingPolicy',
      properties: {
        auto_scaling_group_id: { get_resource: 'asg' },
        adjustment_type: 'change_in_capacity',
        scaling_adjustment: 1,
      },
    },
  },
  outputs: {
    size: { value: { get_attr: ['asg', 'current_size'] } },
    alarm_url: { value: { get_attr: ['up', 'alarm_url'] } },
    signal_url: { value: { get_attr: ['up', 'signal_url'] } },
  },
};

describe('API: signal URLs', () => {
  let api: TestApi;
  let id: string;
  const outputs = async () => {
    const res = await api.call('GET', `${P}/stacks/s/${id}`);
    const list = (res.json() as { stack: { outputs: { output_key: string; output_value: unknown }[] } }).stack
      .outputs;
    return Object.fromEntries(list.map((o) => [o.output_key, o.output_value]));
  };
  before(async () => {
    api = await startApi();
    const res = await api.call('POST', `${P}/stacks`, { body: { stack_name: 's', template: TEMPLATE } });
    id = (res.json() as { stack: { id: string } }).stack.id;
    await api.settle(id);
  });
  after(() => api.close());

  it('a POST to the alarm_url, with no credentials, scales the group', async () => {
    const before = await outputs();
    assert.equal(before.size, 1);
    assert.match(before.signal_url as string, new RegExp(`/v1/proj/stacks/s/${id}/resources/up/signal$`));
    const url = new URL(before.alarm_url as string);
    assert.match(url.pathname, /^\/v1\/signal\/hsig_/);
    const res = await api.call('POST', url.pathname, { body: { state: 'alarm' } });
    assert.equal(res.statusCode, 200, res.body);
    await api.engine.runUntil(async () => (await api.engine.deps.store.nextWorkTime()) === undefined);
    await api.settle(id);
    assert.equal((await outputs()).size, 2);
  });

  it('a forged or altered alarm URL is refused with 401 and changes nothing', async () => {
    const { alarm_url: alarm } = await outputs();
    const path = new URL(alarm as string).pathname;
    const res = await api.call('POST', `${path.slice(0, -2)}xx`, { body: {} });
    assert.equal(res.statusCode, 401);
    assert.equal((res.json() as HeatError).error.type, 'HTTPUnauthorized');
    assert.equal((await api.call('POST', '/v1/signal/hth_not-a-signal-token', {})).statusCode, 401);
  });

  it('the signal token from the URL grants nothing but its signal route', async () => {
    const { alarm_url: alarm } = await outputs();
    const token = new URL(alarm as string).pathname.split('/').pop()!;
    for (const [method, url] of [
      ['GET', `${P}/stacks`],
      ['GET', `${P}/stacks/s/${id}`],
      ['DELETE', `${P}/stacks/s/${id}`],
      ['POST', `${P}/stacks/s/${id}/resources/asg/signal`],
    ] as const) {
      const res = await api.call(method, url, { token, ...(method === 'POST' ? { body: {} } : {}) });
      assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    }
    assert.equal((await outputs()).size, 2, 'nothing changed');
  });

  it("a PUT to the URL (a deployment's TEMP_URL_SIGNAL) signals as a POST does", async () => {
    const { alarm_url: alarm, size } = await outputs();
    const res = await api.call('PUT', new URL(alarm as string).pathname, { body: { state: 'alarm' } });
    assert.equal(res.statusCode, 200, res.body);
    await api.engine.runUntil(async () => (await api.engine.deps.store.nextWorkTime()) === undefined);
    await api.settle(id);
    assert.equal((await outputs()).size, (size as number) + 1);
  });

  it('the agent identity route logs a signal token in (a deployment’s HEAT_SIGNAL)', async () => {
    const { alarm_url: alarm } = await outputs();
    const token = new URL(alarm as string).pathname.split('/').pop()!;
    const login = (id: string, password: string) =>
      api.call('POST', '/agent-identity/v3/auth/tokens', {
        body: { auth: { identity: { methods: ['password'], password: { user: { id, password } } } } },
      });
    const ok = await login(token.split('.')[0]!, token);
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.headers['x-subject-token'], token);
    const body = ok.json() as { token: { project: { id: string }; catalog: { type: string }[] } };
    assert.equal(body.token.project.id, 'proj');
    assert.ok(body.token.catalog.some((s) => s.type === 'orchestration'));
    assert.equal((await login('someone-else', token)).statusCode, 401);
    assert.equal((await login(token.split('.')[0]!, `${token}x`)).statusCode, 401);
  });
});

describe('API: a wait condition handle’s token and endpoint (curl_cli)', () => {
  it('a server signals the handle with its token, and the stack completes', async () => {
    const api = await startApi();
    try {
      const template = {
        heat_template_version: '2018-08-31',
        resources: {
          handle: { type: 'OS::Heat::WaitConditionHandle' },
          wait: {
            type: 'OS::Heat::WaitCondition',
            properties: { handle: { get_resource: 'handle' }, timeout: 600 },
          },
        },
        outputs: {
          curl: { value: { get_attr: ['handle', 'curl_cli'] } },
          data: { value: { get_attr: ['wait', 'data'] } },
        },
      };
      const res = await api.call('POST', `${P}/stacks`, { body: { stack_name: 'w', template } });
      const id = (res.json() as { stack: { id: string } }).stack.id;
      // Run until the condition waits (the handle is created; the condition parks on its signals).
      await api.engine.runUntil(async () => {
        const shown = (await api.call('GET', `${P}/stacks/w/${id}/resources/handle`)).json() as {
          resource: { resource_status: string };
        };
        return shown.resource.resource_status === 'CREATE_COMPLETE';
      });
      const handle = (await api.call('GET', `${P}/stacks/w/${id}/resources/handle`)).json() as {
        resource: { attributes: { curl_cli: string; token: string; endpoint: string } };
      };
      const { curl_cli: curl, token, endpoint } = handle.resource.attributes;
      assert.equal(
        curl,
        `curl -i -X POST -H 'X-Auth-Token: ${token}' -H 'Content-Type: application/json' ` +
          `-H 'Accept: application/json' ${endpoint}`,
      );
      const path = new URL(endpoint).pathname;
      assert.equal(path, `${P}/stacks/w/${id}/resources/handle/signal`);
      const signalled = await api.call('POST', path, { token, body: { status: 'SUCCESS', data: 'ready' } });
      assert.equal(signalled.statusCode, 200, signalled.body);
      const done = await api.settle(id);
      assert.equal(`${done?.action}_${done?.status}`, 'CREATE_COMPLETE');
      const shown = (await api.call('GET', `${P}/stacks/w/${id}`)).json() as {
        stack: { outputs: { output_key: string; output_value: unknown }[] };
      };
      assert.equal(shown.stack.outputs.find((o) => o.output_key === 'data')?.output_value, '{"1": "ready"}');
      // The token signals its handle only: not the condition, not another stack's handle.
      const other = await api.call('POST', `${P}/stacks/w/${id}/resources/wait/signal`, { token, body: {} });
      assert.equal(other.statusCode, 403);
    } finally {
      await api.close();
    }
  });
});
