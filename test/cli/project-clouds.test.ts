import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ListeningSandbox, listeningSandbox } from '../sandbox/support.js';
import { workdir } from './helpers.js';
import { type ServeProcess, startServe } from './serve-process.js';

// `hearth serve` with standalone auth: each project's stacks act with the cloud the operator gave
// the project (`hearth manage project set-cloud`); the deployment's login only when shared.

const NET = (name: string) => `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: ${name}}}
`;

interface Project {
  id: string;
  token: string;
}

describe('standalone auth: a cloud per project', () => {
  let cloud: ListeningSandbox;
  let serve: ServeProcess | undefined;
  let w: ReturnType<typeof workdir>;
  let env: Record<string, string>;
  let sandboxUrl: string;
  const projects: Record<string, Project> = {};

  const start = async (extra: Record<string, string> = {}) => {
    await serve?.stop();
    serve = await startServe(['--db', w.db, 'serve', '--port', '0'], { ...env, ...extra });
  };
  const ok = (args: string[]) => {
    const r = w.run(args, env);
    assert.equal(r.code, 0, `hearth ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    cloud = await listeningSandbox({ users: ['alice', 'bob'] });
    sandboxUrl = cloud.env.OS_AUTH_URL!.replace(/\/identity.*$/, '');
    w = workdir({});
    const entry = (user: string) => `  ${user}-cloud:
    auth: {auth_url: ${sandboxUrl}/identity/v3, username: ${user}, password: ${user}, project_name: ${user}, user_domain_name: Default, project_domain_name: Default}
`;
    writeFileSync(join(w.dir, 'clouds.yaml'), `clouds:\n${entry('alice')}${entry('bob')}${entry('demo')}`);
    // No OS_* login in the server's environment: only what the operator configures counts.
    env = { OS_CLIENT_CONFIG_FILE: join(w.dir, 'clouds.yaml'), OS_CLOUD: '', OS_AUTH_URL: '' };
    for (const name of ['alice', 'bob']) {
      const { id } = JSON.parse(ok(['manage', 'project', 'create', name, '-f', 'json'])) as { id: string };
      ok(['manage', 'user', 'create', name, '--project', name]);
      const made = ok(['manage', 'token', 'create', '--project', name, '--user', name, '-f', 'json']);
      projects[name] = { id, token: (JSON.parse(made) as { token: string }).token };
    }
    await start();
  });
  after(async () => {
    await serve?.stop();
    await cloud?.app.close();
    rmSync(w.dir, { recursive: true, force: true });
  });

  async function create(
    who: string,
    name: string,
    template: string,
  ): Promise<{ status: string; reason: string }> {
    const { id, token } = projects[who]!;
    const r = await serve!.request('POST', `/v1/${id}/stacks`, {
      token,
      body: { stack_name: name, template },
    });
    if (r.status !== 201) return { status: `HTTP ${r.status}`, reason: r.text };
    const stackId = (r.body as { stack: { id: string } }).stack.id;
    for (;;) {
      const shown = await serve!.request('GET', `/v1/${id}/stacks/${name}/${stackId}`, { token });
      const stack = (shown.body as { stack: { stack_status: string; stack_status_reason: string } }).stack;
      if (!stack.stack_status.endsWith('IN_PROGRESS'))
        return { status: stack.stack_status, reason: stack.stack_status_reason };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const lastCall = async () =>
    ((await (await fetch(`${sandboxUrl}/admin/calls?since=0`)).json()) as { last: number }).last;
  const networkCallers = async (since: number) =>
    new Set(
      (
        (await (await fetch(`${sandboxUrl}/admin/calls?since=${since}`)).json()) as {
          calls: { service: string; user_name: string }[];
        }
      ).calls
        .filter((c) => c.service === 'network')
        .map((c) => c.user_name),
    );

  it('a project without a cloud gets its OpenStack resources failing with what to configure', async () => {
    const made = await create('alice', 'no-cloud', NET('n0'));
    assert.equal(made.status, 'CREATE_FAILED');
    assert.match(
      made.reason,
      /has no OpenStack cloud: an operator gives it one with "hearth manage project set-cloud/,
    );
    assert.match(made.reason, /openstack_cloud_shared/);
  });

  it('set-cloud refuses a cloud clouds.yaml lacks, and bad arguments', () => {
    const missing = w.run(['manage', 'project', 'set-cloud', 'alice', '--os-cloud', 'nope'], env);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no cloud 'nope'/);
    const neither = w.run(['manage', 'project', 'set-cloud', 'alice'], env);
    assert.notEqual(neither.code, 0);
    assert.match(neither.stderr, /--os-cloud NAME\) or --clear/);
    const unknown = w.run(['manage', 'project', 'set-cloud', 'carol', '--os-cloud', 'alice-cloud'], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /project "carol" not found/);
  });

  it('with set-cloud, each project acts with its own credentials: bob cannot use alice’s network', async () => {
    ok(['manage', 'project', 'set-cloud', 'alice', '--os-cloud', 'alice-cloud']);
    ok(['manage', 'project', 'set-cloud', 'bob', '--os-cloud', 'bob-cloud']);
    const mark = await lastCall();
    assert.equal((await create('alice', 'alice-net', NET('alice-net'))).status, 'CREATE_COMPLETE');
    assert.deepEqual(await networkCallers(mark), new Set(['alice']));
    const port = `heat_template_version: 2018-08-31
resources:
  p: {type: OS::Neutron::Port, properties: {network: alice-net}}
`;
    const refused = await create('bob', 'bob-port', port);
    assert.notEqual(refused.status, 'CREATE_COMPLETE');
    assert.match(refused.reason, /not found|could not be found|No \w+ found/i);
  });

  it('openstack_cloud_shared gives projects without a cloud the deployment’s login', async () => {
    ok(['manage', 'project', 'set-cloud', 'bob', '--clear']);
    assert.equal((await create('bob', 'still-none', NET('b0'))).status, 'CREATE_FAILED');
    await start({ HEARTH_OPENSTACK_CLOUD: 'demo-cloud', HEARTH_OPENSTACK_CLOUD_SHARED: 'true' });
    const mark = await lastCall();
    assert.equal((await create('bob', 'shared', NET('b1'))).status, 'CREATE_COMPLETE');
    assert.deepEqual(await networkCallers(mark), new Set(['demo']));
  });
});
