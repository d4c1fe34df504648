import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, startApi, tenant, type TestApi } from './harness.js';

// GET /services (Heat's service list, admin only), GET / (Heat's versions) and
// GET /stacks/{name}/{id}/export (Heat's export: abandon's document, nothing removed) through the
// whole HTTP stack (issue 21, item 25).

const MEMBER = `heat_template_version: 2018-08-31
resources:
  inner: {type: OS::Heat::RandomString, properties: {length: 4}}
`;

const TEMPLATE = {
  heat_template_version: '2018-08-31',
  resources: {
    word: { type: 'OS::Heat::RandomString', properties: { length: 8 } },
    group: {
      type: 'OS::Heat::ResourceGroup',
      properties: { count: 2, resource_def: { type: 'OS::Heat::Value', properties: { value: 'v%index%' } } },
    },
    nested: { type: 'member.yaml' },
  },
};

describe('API: services and stack export', () => {
  let api: TestApi;
  let member: { projectId: string; token: string };
  let admin: { projectId: string; token: string };
  before(async () => {
    api = await startApi({ auth: 'standalone' });
    member = await tenant(api, 'members');
    admin = await tenant(api, 'operators', ['admin']);
  });
  after(() => api.close());

  it('lists the engines as Heat’s service list, up or down by their heartbeat, to an admin only', async () => {
    const now = Date.now();
    const { engineDeadAfterMs } = api.engine.deps.settings;
    // Engines of another host: their heartbeat alone tells whether they are alive.
    await api.engine.deps.store.tx(async (tx) => {
      await tx.services.heartbeat({
        engineId: 'far:1:live',
        host: 'far-host',
        pid: 1,
        startedAt: now - 60_000,
        heartbeatAt: now,
      });
      await tx.services.heartbeat({
        engineId: 'far:2:dead',
        host: 'far-host',
        pid: 2,
        startedAt: now - 120_000,
        heartbeatAt: now - 2 * engineDeadAfterMs,
      });
    });
    const res = await api.call('GET', `/v1/${admin.projectId}/services`, { token: admin.token });
    assert.equal(res.statusCode, 200, res.body);
    const { services } = res.json() as { services: Record<string, unknown>[] };
    const byId = new Map(services.map((s) => [s.engine_id, s]));
    const live = byId.get('far:1:live');
    assert.deepEqual(live, {
      id: 'far:1:live',
      binary: 'heat-engine',
      engine_id: 'far:1:live',
      host: 'far-host',
      hostname: 'far-host',
      topic: 'engine',
      report_interval: Math.round((api.engine.deps.settings.heartbeatIntervalMs ?? 1000) / 1000),
      created_at: new Date(now - 60_000).toISOString().slice(0, 19),
      updated_at: new Date(now).toISOString().slice(0, 19),
      deleted_at: null,
      status: 'up',
    });
    assert.equal(byId.get('far:2:dead')?.status, 'down');

    const refused = await api.call('GET', `/v1/${member.projectId}/services`, { token: member.token });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal((refused.json() as HeatError).error.type, 'Forbidden');
    assert.doesNotMatch(refused.body, /far-host/);
  });

  it('answers GET / with Heat’s version list (300 Multiple Choices), without a token', async () => {
    const res = await api.call('GET', '/', { headers: { host: 'heat.example:8004' } });
    assert.equal(res.statusCode, 300, res.body);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.deepEqual(res.json(), {
      versions: [
        { id: 'v1.0', status: 'CURRENT', links: [{ rel: 'self', href: 'http://heat.example:8004/v1/' }] },
      ],
    });
  });

  it('exports a stack as abandon would describe it, and leaves it as it was', async () => {
    const P = `/v1/${member.projectId}`;
    const created = await api.call('POST', `${P}/stacks`, {
      token: member.token,
      body: { stack_name: 'exp', template: TEMPLATE, files: { 'member.yaml': MEMBER } },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = (created.json() as { stack: { id: string } }).stack;
    const settled = await api.settle(id);
    assert.equal(`${settled?.action}_${settled?.status}`, 'CREATE_COMPLETE', settled?.reason);

    const exported = await api.call('GET', `${P}/stacks/exp/${id}/export`, { token: member.token });
    assert.equal(exported.statusCode, 200, exported.body);
    const doc = exported.json() as Record<string, unknown> & {
      resources: Record<string, Record<string, unknown>>;
    };
    assert.equal(doc.id, id);
    assert.equal(doc.name, 'exp');
    assert.equal(doc.action, 'CREATE');
    assert.equal(doc.status, 'COMPLETE');
    assert.deepEqual(Object.keys(doc.resources).sort(), ['group', 'nested', 'word']);
    const group = doc.resources.group as { resources: Record<string, { resource_data: unknown }> };
    assert.deepEqual(Object.keys(group.resources).sort(), ['0', '1']);
    assert.equal(typeof (doc.resources.word as { resource_id: unknown }).resource_id, 'string');

    // Nothing was removed: the stack is still there, and abandon then gives the same document.
    const shown = await api.call('GET', `${P}/stacks/exp/${id}`, { token: member.token });
    assert.equal(shown.statusCode, 200, shown.body);
    assert.equal((shown.json() as { stack: { stack_status: string } }).stack.stack_status, 'CREATE_COMPLETE');
    const again = await api.call('GET', `${P}/stacks/exp/${id}/export`, { token: member.token });
    assert.deepEqual(again.json(), doc);
    const abandoned = await api.call('DELETE', `${P}/stacks/exp/${id}/abandon`, { token: member.token });
    assert.equal(abandoned.statusCode, 200, abandoned.body);
    assert.deepEqual(abandoned.json(), doc);

    const gone = await api.call('GET', `${P}/stacks/exp/${id}/export`, { token: member.token });
    assert.equal(gone.statusCode, 404, gone.body);
    assert.equal((gone.json() as HeatError).error.type, 'EntityNotFound');
  });
});
