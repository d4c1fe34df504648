import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, startApi, tenant, type TestApi } from './harness.js';

// The software config and deployment routes (Heat's codes and bodies): configs create 200, list
// with limit/marker, show, delete 204; deployments create, list by server, show, update, delete,
// a server's metadata; bad input 400; another project's config or deployment a 404 naming the id.

type Who = { projectId: string; token: string };
type Obj = Record<string, unknown>;

const SCRIPT = {
  name: 'install',
  group: 'script',
  config: '#!/bin/sh\necho "$foo" > $heat_outputs_path.result',
  inputs: [
    { name: 'foo', default: 'bar' },
    { name: 'n', type: 'Number', default: '3', replace_on_change: true },
  ],
  outputs: [{ name: 'result' }, { name: 'oops', error_output: true }],
  options: { verbose: true },
};

describe('API: software configs and deployments', () => {
  let api: TestApi;
  let a: Who;
  let b: Who;
  let admin: Who;
  before(async () => {
    api = await startApi({ auth: 'standalone' });
    a = await tenant(api, 'alpha');
    b = await tenant(api, 'beta');
    admin = await tenant(api, 'operators', ['admin']);
  });
  after(() => api.close());

  const call = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    api.call(method, `/v1/${who.projectId}${path}`, {
      token: who.token,
      ...(body !== undefined ? { body } : {}),
    });
  async function ok(who: Who, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Obj> {
    const res = await call(who, method, path, body);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Obj;
  }
  async function refused(
    res: Promise<{ statusCode: number; json(): unknown; body: string }>,
    status: number,
  ) {
    const r = await res;
    assert.equal(r.statusCode, status, r.body);
    return (r.json() as HeatError).error;
  }

  it('creates a config with Heat’s IO defaults, shows it, lists it (paged), deletes it', async () => {
    const made = (await ok(a, 'POST', '/software_configs', SCRIPT)).software_config as Obj;
    assert.deepEqual(Object.keys(made).sort(), [
      'config',
      'creation_time',
      'group',
      'id',
      'inputs',
      'name',
      'options',
      'outputs',
    ]);
    assert.match(String(made.creation_time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(made.inputs, [
      { name: 'foo', type: 'String', default: 'bar' },
      { name: 'n', type: 'Number', default: 3, replace_on_change: true },
    ]);
    assert.deepEqual(made.outputs, [
      { name: 'result', type: 'String', error_output: false },
      { name: 'oops', type: 'String', error_output: true },
    ]);
    assert.deepEqual(made.options, { verbose: true });
    const shown = (await ok(a, 'GET', `/software_configs/${String(made.id)}`)).software_config;
    assert.deepEqual(shown, made);

    const more = [];
    for (const name of ['two', 'three']) {
      more.push(
        ((await ok(a, 'POST', '/software_configs', { name, config: { k: name } })).software_config as Obj).id,
      );
    }
    const list = (await ok(a, 'GET', '/software_configs')).software_configs as Obj[];
    assert.deepEqual(
      list.map((c) => c.id),
      [made.id, ...more],
    );
    assert.deepEqual(
      Object.keys(list[0]!).sort(),
      ['creation_time', 'group', 'id', 'name'],
      'no detail, no project',
    );
    assert.equal(list[1]!.group, 'Heat::Ungrouped');
    const page = (await ok(a, 'GET', `/software_configs?limit=1&marker=${String(made.id)}`))
      .software_configs as Obj[];
    assert.deepEqual(
      page.map((c) => c.id),
      [more[0]],
    );
    assert.match((await refused(call(a, 'GET', '/software_configs?limit=x'), 400)).message, /integer/);
    assert.match((await refused(call(a, 'GET', '/software_configs?limit=-1'), 400)).message, /non-negative/);

    const del = await call(a, 'DELETE', `/software_configs/${String(more[1])}`);
    assert.equal(del.statusCode, 204, del.body);
    const gone = await refused(call(a, 'GET', `/software_configs/${String(more[1])}`), 404);
    assert.equal(gone.message, `Software config with id ${String(more[1])} not found`);
    assert.equal(gone.type, 'NotFound');
    await refused(call(a, 'DELETE', `/software_configs/${String(more[1])}`), 404);
  });

  it('refuses bad IO schemas and bodies with 400', async () => {
    const bad = [
      { inputs: { name: 'x' } },
      { inputs: ['x'] },
      { inputs: [{ type: 'String' }] },
      { inputs: [{ name: 'x', type: 'Float' }] },
      { inputs: [{ name: 'x', type: 'Number', default: 'many' }] },
      { outputs: [{ name: 'x', error_output: 'perhaps' }] },
      { name: 7 },
      { options: [1] },
    ];
    for (const body of bad) {
      const error = await refused(call(a, 'POST', '/software_configs', body), 400);
      assert.ok(error.message.length > 0, JSON.stringify(body));
    }
    await refused(call(a, 'POST', '/software_configs', '[1, 2]'), 400);
  });

  it('creates, lists by server, shows, updates and deletes deployments; a server’s metadata', async () => {
    const config = (await ok(a, 'POST', '/software_configs', { ...SCRIPT, name: 'b-config' }))
      .software_config as Obj;
    const other = (await ok(a, 'POST', '/software_configs', { ...SCRIPT, name: 'a-config' }))
      .software_config as Obj;
    const made = (
      await ok(a, 'POST', '/software_deployments', {
        config_id: config.id,
        server_id: 'server-1',
        action: 'CREATE',
        status: 'IN_PROGRESS',
        status_reason: 'Deploy data available',
        input_values: { foo: 'x' },
      })
    ).software_deployment as Obj;
    assert.deepEqual(Object.keys(made).sort(), [
      'action',
      'config_id',
      'creation_time',
      'id',
      'input_values',
      'output_values',
      'server_id',
      'status',
      'status_reason',
    ]);
    assert.equal(made.status, 'IN_PROGRESS');
    assert.deepEqual(made.input_values, { foo: 'x' });
    assert.equal(made.status_reason, 'Deploy data available');
    await ok(a, 'POST', '/software_deployments', {
      config_id: other.id,
      server_id: 'server-1',
      action: 'CREATE',
    });
    await ok(a, 'POST', '/software_deployments', {
      config_id: other.id,
      server_id: 'server-2',
      action: 'CREATE',
    });

    const all = (await ok(a, 'GET', '/software_deployments')).software_deployments as Obj[];
    assert.equal(all.length, 3);
    const one = (await ok(a, 'GET', '/software_deployments?server_id=server-1'))
      .software_deployments as Obj[];
    assert.deepEqual(
      one.map((d) => d.server_id),
      ['server-1', 'server-1'],
    );
    const metadata = (await ok(a, 'GET', '/software_deployments/metadata/server-1')).metadata as Obj[];
    assert.deepEqual(
      metadata.map((c) => c.name),
      ['a-config', 'b-config'],
      'sorted by config name',
    );
    assert.equal(metadata[1]!.config, SCRIPT.config);

    const updated = (
      await ok(a, 'PUT', `/software_deployments/${String(made.id)}`, {
        status: 'COMPLETE',
        status_reason: 'Outputs received',
        output_values: { result: 'x' },
        action: null,
      })
    ).software_deployment as Obj;
    assert.equal(updated.status, 'COMPLETE');
    assert.equal(updated.action, 'CREATE', 'a null field is kept');
    assert.deepEqual(updated.output_values, { result: 'x' });
    assert.match(String(updated.updated_time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(
      (await ok(a, 'GET', `/software_deployments/${String(made.id)}`)).software_deployment,
      updated,
    );

    const inUse = await refused(call(a, 'DELETE', `/software_configs/${String(config.id)}`), 400);
    assert.match(inUse.message, /can not be deleted as it is referenced/);
    await refused(call(a, 'PUT', `/software_deployments/${String(made.id)}`, { status: 'DONE' }), 400);
    await refused(call(a, 'PUT', `/software_deployments/${String(made.id)}`, { config_id: 'nope' }), 400);
    await refused(call(a, 'POST', '/software_deployments', { config_id: 'nope', server_id: 's' }), 400);
    await refused(call(a, 'POST', '/software_deployments', { server_id: 's' }), 400);
    await refused(call(a, 'POST', '/software_deployments', { config_id: config.id }), 400);

    const del = await call(a, 'DELETE', `/software_deployments/${String(made.id)}`);
    assert.equal(del.statusCode, 204, del.body);
    const gone = await refused(call(a, 'GET', `/software_deployments/${String(made.id)}`), 404);
    assert.equal(gone.message, `Deployment with id ${String(made.id)} not found`);
    await refused(call(a, 'PUT', `/software_deployments/${String(made.id)}`, { status: 'COMPLETE' }), 404);
    await refused(call(a, 'DELETE', `/software_deployments/${String(made.id)}`), 404);
    assert.equal((await call(a, 'DELETE', `/software_configs/${String(config.id)}`)).statusCode, 204);
  });

  it('another project’s configs and deployments are 404s, absent from its lists; an admin sees every project’s', async () => {
    const config = (await ok(a, 'POST', '/software_configs', { name: 'private', config: 'secret' }))
      .software_config as Obj;
    const deployment = (
      await ok(a, 'POST', '/software_deployments', {
        config_id: config.id,
        server_id: 'server-a',
        action: 'CREATE',
      })
    ).software_deployment as Obj;
    const cid = String(config.id);
    const did = String(deployment.id);
    assert.equal(
      (await refused(call(b, 'GET', `/software_configs/${cid}`), 404)).message,
      `Software config with id ${cid} not found`,
    );
    await refused(call(b, 'DELETE', `/software_configs/${cid}`), 404);
    await refused(call(b, 'GET', `/software_deployments/${did}`), 404);
    await refused(call(b, 'PUT', `/software_deployments/${did}`, { status: 'FAILED' }), 404);
    await refused(call(b, 'DELETE', `/software_deployments/${did}`), 404);
    await refused(call(b, 'POST', '/software_deployments', { config_id: cid, server_id: 'server-b' }), 400);
    assert.deepEqual((await ok(b, 'GET', '/software_configs')).software_configs, []);
    assert.deepEqual((await ok(b, 'GET', '/software_deployments')).software_deployments, []);
    assert.deepEqual((await ok(b, 'GET', '/software_deployments/metadata/server-a')).metadata, []);
    assert.equal(
      (await ok(a, 'GET', `/software_deployments/${did}`)).software_deployment !== undefined,
      true,
    );
    assert.equal(
      ((await ok(a, 'GET', `/software_deployments/${did}`)).software_deployment as Obj).status,
      'COMPLETE',
    );

    const listed = (await ok(admin, 'GET', '/software_configs')).software_configs as Obj[];
    const mine = listed.find((c) => c.id === cid);
    assert.equal(mine?.project, a.projectId, 'an admin’s list shows each config’s project');
    assert.equal(
      ((await ok(admin, 'GET', `/software_configs/${cid}`)).software_config as Obj).config,
      'secret',
    );
    await refused(call(a, 'GET', '/software_configs?global_tenant=true'), 403);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await api.call('GET', '/v1/openapi.json')).json() as { paths: Record<string, object> };
    for (const path of [
      '/v1/{project_id}/software_configs',
      '/v1/{project_id}/software_configs/{config_id}',
      '/v1/{project_id}/software_deployments',
      '/v1/{project_id}/software_deployments/{deployment_id}',
      '/v1/{project_id}/software_deployments/metadata/{server_id}',
    ]) {
      assert.ok(doc.paths[path], `${path} in ${Object.keys(doc.paths).join(', ')}`);
    }
    assert.deepEqual(
      Object.keys(doc.paths['/v1/{project_id}/software_deployments/{deployment_id}']!).sort(),
      ['delete', 'get', 'put'],
    );
  });
});
