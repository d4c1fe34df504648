import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Cloud } from '../../src/openstack/index.js';
import { caller, userId } from '../sandbox/keystone-helpers.js';
import { type ListeningSandbox, listeningSandbox, login } from '../sandbox/support.js';
import { type ServeProcess, startServe } from './serve-process.js';

// `hearth serve --auth keystone` (a real process) against the sandbox's Keystone: each stack acts
// through a trust its creator made, so the cloud itself keeps projects apart, after restarts too.

const ALICE_STACK = `heat_template_version: 2018-08-31
parameters:
  name: {type: string, default: web}
  size: {type: number, default: 1}
resources:
  net: {type: OS::Neutron::Net, properties: {name: alice-net}}
  subnet: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.71.0.0/24}}
  port:
    type: OS::Neutron::Port
    depends_on: subnet
    properties: {name: alice-port, network: {get_resource: net}}
  server:
    type: OS::Nova::Server
    properties:
      name: {get_param: name}
      image: cirros-0.6.2-x86_64-disk
      flavor: m1.tiny
      networks: [{port: {get_resource: port}}]
  volume: {type: OS::Cinder::Volume, properties: {name: alice-volume, size: {get_param: size}}}
  attach:
    type: OS::Cinder::VolumeAttachment
    properties: {instance_uuid: {get_resource: server}, volume_id: {get_resource: volume}}
`;

const bobStack = (resources: string) => `heat_template_version: 2018-08-31
resources:
${resources}`;

interface Stack {
  id: string;
  stack_status: string;
  stack_status_reason: string;
}

describe('keystone auth: every cloud call as the stack’s owner, through its trust', () => {
  let cloud: ListeningSandbox;
  let serve: ServeProcess;
  let env: Record<string, string>;
  let dir: string;
  const ids: Record<string, string> = {};
  let alice: { token: string; projectId: string };
  let bob: { token: string; projectId: string };
  let admin: { token: string; projectId: string };
  let sandboxUrl: string;

  const start = async (extra: Record<string, string> = {}) =>
    (serve = await startServe(['--db', join(dir, 'state.db'), 'serve', '--auth', 'keystone', '--port', '0'], {
      ...env,
      ...extra,
    }));

  before(async () => {
    cloud = await listeningSandbox({ users: ['alice', 'bob'], noise: { bootDelayMs: 0 } });
    sandboxUrl = cloud.env.OS_AUTH_URL!.replace(/\/identity.*$/, '');
    dir = mkdtempSync(join(tmpdir(), 'hearth-trusts-'));
    env = {
      HEARTH_KEYSTONE_URL: `${sandboxUrl}/identity/v3`,
      HEARTH_KEYSTONE_SERVICE_USER: 'hearth',
      HEARTH_KEYSTONE_SERVICE_PASSWORD: 'hearth',
      HEARTH_KEYSTONE_SERVICE_PROJECT: 'service',
      HEARTH_ACTION_RETRY_LIMIT: '0',
      // The deployment's login must play no part: none is configured.
      OS_CLOUD: '',
      OS_AUTH_URL: '',
    };
    alice = await login(cloud.app, 'alice');
    bob = await login(cloud.app, 'bob');
    admin = await login(cloud.app, 'admin');
    for (const name of ['alice', 'bob', 'hearth']) ids[name] = await userId(cloud.app, admin.token, name);
    await start();
  });
  after(async () => {
    await serve?.stop();
    await cloud?.app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const api = (who: { token: string; projectId: string }, method: string, path: string, body?: unknown) =>
    serve.request(method, `/v1/${who.projectId}${path}`, { token: who.token, ...(body ? { body } : {}) });

  async function settled(who: typeof alice, name: string, id: string): Promise<Stack> {
    for (;;) {
      const r = await api(who, 'GET', `/stacks/${name}/${id}`);
      if (r.status === 404) return { id, stack_status: 'GONE', stack_status_reason: '' };
      assert.equal(r.status, 200, r.text);
      const stack = (r.body as { stack: Stack }).stack;
      if (!stack.stack_status.endsWith('IN_PROGRESS')) return stack;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function create(who: typeof alice, name: string, template: string): Promise<Stack | string> {
    const r = await api(who, 'POST', '/stacks', { stack_name: name, template });
    if (r.status !== 201) return (r.body as { error: { message: string } }).error.message;
    return settled(who, name, (r.body as { stack: { id: string } }).stack.id);
  }

  const trustsOf = async (user: string) => {
    const r = await caller(cloud.app)(
      'GET',
      `/identity/v3/OS-TRUST/trusts?trustor_user_id=${ids[user]}`,
      admin.token,
    );
    assert.equal(r.statusCode, 200, r.body);
    return r.json().trusts as {
      id: string;
      trustee_user_id: string;
      project_id: string;
      impersonation: boolean;
    }[];
  };
  const calls = async (since: number) =>
    (await (await fetch(`${sandboxUrl}/admin/calls?since=${since}`)).json()) as {
      calls: { service: string; method: string; path: string; user_id: string; trust_id: string | null }[];
      last: number;
    };

  let aliceStack: Stack;
  let physical: Record<string, string>;

  it('alice’s create makes a trust from alice to Hearth’s user on her project, and her resources are made as her through it', async () => {
    const mark = (await calls(0)).last;
    const made = await create(alice, 'alice-web', ALICE_STACK);
    assert.ok(typeof made !== 'string', made as string);
    aliceStack = made;
    assert.equal(aliceStack.stack_status, 'CREATE_COMPLETE', aliceStack.stack_status_reason);
    const [trust, ...others] = await trustsOf('alice');
    assert.ok(trust && others.length === 0, 'one trust');
    assert.equal(trust.trustee_user_id, ids.hearth);
    assert.equal(trust.project_id, alice.projectId);
    assert.equal(trust.impersonation, true);
    const cloudCalls = (await calls(mark)).calls.filter((c) =>
      ['compute', 'network', 'volume'].includes(c.service),
    );
    assert.ok(cloudCalls.length > 0);
    for (const c of cloudCalls) {
      assert.equal(c.user_id, ids.alice, `${c.method} ${c.path}`);
      assert.equal(c.trust_id, trust.id, `${c.method} ${c.path}`);
    }
    const listed = await api(alice, 'GET', `/stacks/alice-web/${aliceStack.id}/resources`);
    physical = Object.fromEntries(
      (listed.body as { resources: { resource_name: string; physical_resource_id: string }[] }).resources.map(
        (r) => [r.resource_name, r.physical_resource_id],
      ),
    );
  });

  it('bob’s stacks cannot use alice’s network, port, server or volume, by name or by id; alice’s objects are untouched', async () => {
    const attempts: [string, string][] = [
      ['by-name', '  p: {type: OS::Neutron::Port, properties: {network: alice-net}}\n'],
      ['net-id', `  p: {type: OS::Neutron::Port, properties: {network: ${physical.net}}}\n`],
      [
        'server-port',
        `  s:\n    type: OS::Nova::Server\n    properties: {image: cirros-0.6.2-x86_64-disk, flavor: m1.tiny, networks: [{port: ${physical.port}}]}\n`,
      ],
      [
        'attach',
        `  s: {type: OS::Nova::Server, properties: {image: cirros-0.6.2-x86_64-disk, flavor: m1.tiny}}\n` +
          `  a: {type: OS::Cinder::VolumeAttachment, properties: {instance_uuid: {get_resource: s}, volume_id: ${physical.volume}}}\n`,
      ],
      ['adopt-server', `  s: {type: OS::Nova::Server, external_id: ${physical.server}}\n`],
    ];
    for (const [name, resources] of attempts) {
      const result = await create(bob, `bob-${name}`, bobStack(resources));
      const reason =
        typeof result === 'string' ? result : `${result.stack_status}: ${result.stack_status_reason}`;
      // Refused at the create (a constraint looked up as bob: 400) or failed by the cloud (404).
      assert.ok(!/COMPLETE/.test(reason), `${name} must fail: ${reason}`);
      assert.match(
        reason,
        /not found|could not be found|can not be found|No \w+ found/i,
        `${name}: ${reason}`,
      );
    }
    // Refused creates leave no trust behind; each stored stack keeps its own.
    const listed = await api(bob, 'GET', '/stacks');
    const stored = (listed.body as { stacks: unknown[] }).stacks.length;
    assert.equal((await trustsOf('bob')).length, stored);

    const asAlice: Cloud = cloud.open('alice');
    const server = (
      await asAlice.request<{ server: { status: string } }>('compute', 'GET', `/servers/${physical.server}`)
    ).body;
    assert.equal(server.server.status, 'ACTIVE');
    const port = (
      await asAlice.request<{ port: { device_id: string } }>('network', 'GET', `/ports/${physical.port}`)
    ).body;
    assert.equal(port.port.device_id, physical.server);
    const volume = (
      await asAlice.request<{ volume: { status: string; attachments: { server_id: string }[] } }>(
        'volume',
        'GET',
        `/volumes/${physical.volume}`,
      )
    ).body;
    assert.equal(volume.volume.status, 'in-use');
    assert.deepEqual(
      volume.volume.attachments.map((a) => a.server_id),
      [physical.server],
    );
  });

  it('after a kill and a restart, alice’s update and delete still act as alice through her trust, which the delete removes', async () => {
    const [trust] = await trustsOf('alice');
    serve.kill();
    await start();
    const mark = (await calls(0)).last;
    const patched = await api(alice, 'PATCH', `/stacks/alice-web/${aliceStack.id}`, {
      parameters: { name: 'web2', size: 2 },
    });
    assert.equal(patched.status, 202, patched.text);
    const updated = await settled(alice, 'alice-web', aliceStack.id);
    assert.equal(updated.stack_status, 'UPDATE_COMPLETE', updated.stack_status_reason);
    assert.equal((await api(alice, 'DELETE', `/stacks/alice-web/${aliceStack.id}`)).status, 204);
    const deleted = await settled(alice, 'alice-web', aliceStack.id);
    assert.ok(['DELETE_COMPLETE', 'GONE'].includes(deleted.stack_status), deleted.stack_status_reason);

    const made = (await calls(mark)).calls.filter((c) =>
      ['compute', 'network', 'volume'].includes(c.service),
    );
    for (const service of ['compute', 'network', 'volume'])
      assert.ok(
        made.some((c) => c.service === service && c.method !== 'GET'),
        `${service} changed`,
      );
    for (const c of made) {
      assert.equal(c.user_id, ids.alice, `${c.service} ${c.method} ${c.path}`);
      assert.equal(c.trust_id, trust!.id, `${c.service} ${c.method} ${c.path}`);
    }
    // The trust goes once the delete has completed (a unit of work right after it).
    for (let i = 0; ; i++) {
      const r = await caller(cloud.app)('GET', `/identity/v3/OS-TRUST/trusts/${trust!.id}`, admin.token);
      if (r.statusCode === 404) break;
      assert.equal(r.statusCode, 200, r.body);
      assert.ok(i < 150, 'the trust was not deleted');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it('a trust Keystone refuses fails the create with its reason, and nothing is stored', async () => {
    await serve.stop();
    const before = (await trustsOf('alice')).length;
    await start({ HEARTH_TRUSTS_DELEGATED_ROLES: 'admin' });
    const refused = await api(alice, 'POST', '/stacks', { stack_name: 'no-trust', template: ALICE_STACK });
    assert.ok([400, 403].includes(refused.status), refused.text);
    assert.match(
      refused.text,
      /Keystone refused the trust the stack needs \(user alice delegating roles admin on project/,
    );
    assert.ok(!refused.text.includes(alice.token));
    assert.equal((await api(alice, 'GET', '/stacks/no-trust')).status, 404);
    assert.equal((await trustsOf('alice')).length, before);
  });
});
