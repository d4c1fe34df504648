import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { workdir } from './helpers.js';
import { type ServeProcess, serveForClients } from './serve-process.js';
import { OPENSTACK_CLIENT_SKIP } from '../support/openstack-client.js';

// The real OpenStack client against `hearth serve` (standalone auth): `openstack stack snapshot
// create|list|show|restore|delete` (issue 21, item 24). A restore brings the stack back to the
// snapshot's template and parameters; a RandomString keeps the value recorded in the snapshot.

const skip = OPENSTACK_CLIENT_SKIP;

const TEMPLATE = `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
  secret: {type: string, hidden: true, default: ''}
resources:
  word: {type: OS::Heat::RandomString, properties: {length: 12}}
  thing: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
outputs:
  value: {value: {get_attr: [thing, output]}}
  word: {value: {get_attr: [word, value]}}
`;

const CHANGED = `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
resources:
  thing: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  extra: {type: OS::Heat::TestResource, properties: {value: extra}}
`;

interface Snapshot {
  id: string;
  name: string | null;
  status: string;
  status_reason: string;
  data: Record<string, unknown> | null;
  creation_time: string;
}

describe('the real openstack CLI: stack snapshots', { skip }, () => {
  let server: ServeProcess;
  let dir: string;
  let env: Record<string, string> = {};

  before(async () => {
    const w = workdir({ 'stack.yaml': TEMPLATE, 'changed.yaml': CHANGED });
    dir = w.dir;
    const served = await serveForClients(w);
    server = served.server;
    env = served.envOf.alice!;
  });
  after(async () => {
    await server?.stop();
  });

  function run(args: string[]) {
    return spawnSync('openstack', args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
  }
  function ok(...args: string[]): string {
    const r = run(args);
    assert.equal(r.status, 0, `openstack ${args.join(' ')} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  }
  const json = <T>(...args: string[]): T => {
    const out = ok(...args, '-f', 'json');
    const start = out.search(/^[[{]/m);
    assert.ok(start >= 0, `no JSON in:\n${out}`);
    return JSON.parse(out.slice(start)) as T;
  };
  const outputs = (): Record<string, unknown> => {
    const list = json<{ output_key: string; output_value?: unknown }[]>('stack', 'output', 'list', 's');
    const values: Record<string, unknown> = {};
    for (const { output_key: key } of list) {
      values[key] = json<{ output_value: unknown }>('stack', 'output', 'show', 's', key).output_value;
    }
    return values;
  };
  /** Polls until the snapshot leaves IN_PROGRESS (the client has no --wait for it). */
  async function settled(id: string): Promise<Snapshot> {
    for (let i = 0; i < 300; i++) {
      const { snapshot } = json<{ snapshot: Snapshot }>('stack', 'snapshot', 'show', 's', id);
      if (snapshot.status !== 'IN_PROGRESS') return snapshot;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail(`snapshot ${id} never left IN_PROGRESS`);
  }
  async function stackSettled(): Promise<{ stack_status: string; stack_status_reason: string }> {
    for (let i = 0; i < 300; i++) {
      const stack = json<{ stack_status: string; stack_status_reason: string }>('stack', 'show', 's');
      if (!stack.stack_status.endsWith('IN_PROGRESS')) return stack;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail('the stack never settled');
  }

  it('takes, lists, shows, restores and deletes a snapshot', async () => {
    ok(
      'stack',
      'create',
      '--wait',
      '-t',
      join(dir, 'stack.yaml'),
      '--parameter',
      'v=first',
      '--parameter',
      'secret=hunter2x',
      's',
    );
    const before = outputs();
    assert.equal(before.value, 'first');

    // The client prints the id under `ID`.
    const made = json<Omit<Snapshot, 'id'> & { ID: string }>(
      'stack',
      'snapshot',
      'create',
      '--name',
      'snap1',
      's',
    );
    assert.equal(made.name, 'snap1');
    assert.match(made.ID, /^[0-9a-f-]{36}$/);
    const snapshot = await settled(made.ID);
    assert.equal(snapshot.status, 'COMPLETE', snapshot.status_reason);
    assert.equal((await stackSettled()).stack_status, 'SNAPSHOT_COMPLETE');
    // Heat's document: the template, environment (hidden values masked) and each resource's data.
    const data = snapshot.data as {
      template: { resources: Record<string, unknown> };
      environment: { parameters: Record<string, unknown> };
      resources: Record<string, { type: string; resource_data: Record<string, unknown> }>;
    };
    assert.deepEqual(Object.keys(data.template.resources).sort(), ['thing', 'word']);
    assert.equal(data.environment.parameters.v, 'first');
    assert.equal(data.environment.parameters.secret, '******');
    assert.equal(data.resources.word?.type, 'OS::Heat::RandomString');
    assert.equal(data.resources.word?.resource_data.value, before.word);
    assert.ok(!JSON.stringify(snapshot).includes('hunter2x'), 'a hidden value is never shown');

    const listed = json<{ id: string; name: string; status: string }[]>('stack', 'snapshot', 'list', 's');
    assert.deepEqual(
      listed.map((s) => [s.id, s.name, s.status]),
      [[made.ID, 'snap1', 'COMPLETE']],
    );

    // Change the stack: another template, another value; the random string goes.
    ok('stack', 'update', '--wait', '-t', join(dir, 'changed.yaml'), '--parameter', 'v=second', 's');
    assert.deepEqual(
      json<{ resource_name: string }[]>('stack', 'resource', 'list', 's')
        .map((r) => r.resource_name)
        .sort(),
      ['extra', 'thing'],
    );

    ok('stack', 'snapshot', 'restore', 's', made.ID);
    const restored = await stackSettled();
    assert.match(restored.stack_status, /_COMPLETE$/, restored.stack_status_reason);
    assert.deepEqual(
      json<{ resource_name: string }[]>('stack', 'resource', 'list', 's')
        .map((r) => r.resource_name)
        .sort(),
      ['thing', 'word'],
    );
    const after = outputs();
    assert.equal(after.value, 'first', 'the parameters are the snapshot’s');
    assert.equal(typeof after.word, 'string');

    // A second snapshot, then delete the first: only the second is listed; the first is gone.
    const second = json<{ ID: string }>('stack', 'snapshot', 'create', 's');
    assert.equal((await settled(second.ID)).status, 'COMPLETE');
    ok('stack', 'snapshot', 'delete', '--yes', 's', made.ID);
    assert.deepEqual(
      json<{ id: string }[]>('stack', 'snapshot', 'list', 's').map((s) => s.id),
      [second.ID],
    );
    const gone = run(['stack', 'snapshot', 'show', 's', made.ID]);
    assert.notEqual(gone.status, 0);
    assert.match(gone.stderr, /not found/i);
    const notThere = run(['stack', 'snapshot', 'restore', 's', made.ID]);
    assert.notEqual(notThere.status, 0);
  });
});
