import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login, sandboxCloud } from '../sandbox/support.js';
import { serverStack } from './server-stack.js';
import { Workdir } from './workdir.js';

const TEMPLATE = serverStack('convnet', '10.3.0.0/24', {
  more: 'outputs:\n  server_id: {value: {get_resource: server}}\n',
});

const RESTRICTED_ENV = `resource_registry:
  resources:
    server:
      restricted_actions: [replace]
`;

type Live = {
  id: string;
  name: string;
  deletedAt: number | null;
  status?: string;
};

interface EventRow {
  resource_name: string;
  resource_status: string;
  resource_status_reason: string;
}

// `stack update --existing --converge`: changes made behind Hearth's back, through the sandbox's own
// APIs, are put back from the live state although the template did not change.
describe('stack update --converge, on the sandbox cloud', () => {
  const cloud = sandboxCloud();

  const servers = () => cloud.state.list<Live>('server').filter((s) => s.deletedAt === null);
  const network = (name: string) => cloud.state.list<Live>('network').find((n) => n.name === name);

  async function renameNetwork(id: string, name: string): Promise<void> {
    const { token } = await login(cloud.app, 'demo');
    const renamed = await cloud.app.inject({
      method: 'PUT',
      url: `/network/v2.0/networks/${id}`,
      headers: { 'x-auth-token': token },
      payload: { network: { name } },
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
  }

  async function deleteServer(id: string): Promise<void> {
    const deleted = await cloud.app.inject({ method: 'POST', url: `/admin/server/${id}/delete` });
    assert.equal(deleted.statusCode, 200, deleted.body);
  }

  it('renames the network back and recreates the deleted server; a plain --existing update does neither', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    await w.ok(['stack', 'create', 'c', '-t', 't.yaml', '--wait']);
    const shown = await w.json<Record<string, unknown>>(['stack', 'show', 'c']);
    assert.ok(!('observe_interval' in shown), 'an unobserved stack shows what Heat shows');
    const net = network('convnet')!;
    const [first] = servers();
    assert.ok(first);

    await renameNetwork(net.id, 'renamed-by-hand');
    await deleteServer(first.id);

    // Without --converge the stored state says nothing changed: nothing is done.
    await w.ok(['stack', 'update', 'c', '--existing', '--wait']);
    assert.equal(network('renamed-by-hand')?.id, net.id);
    assert.equal(servers().length, 0);

    const out = await w.ok(['stack', 'update', 'c', '--existing', '--converge', '--wait']);
    assert.match(out, /UPDATE_COMPLETE/);
    // The network is updated in place (same id), the server replaced by a new one.
    assert.equal(network('convnet')?.id, net.id, 'the network was renamed back in place');
    const now = servers();
    assert.equal(now.length, 1);
    assert.notEqual(now[0]!.id, first.id);
    const outputs = await w.json<{ output_key: string; output_value: string }>([
      'stack',
      'output',
      'show',
      'c',
      'server_id',
    ]);
    assert.equal(outputs.output_value, now[0]!.id);

    // The events tell what was seen.
    const events = await w.json<EventRow[]>(['stack', 'event', 'list', 'c']);
    const reasons = events.map((e) => `${e.resource_name} ${e.resource_status} ${e.resource_status_reason}`);
    assert.ok(
      reasons.some((r) => /^net UPDATE_IN_PROGRESS net was changed outside Hearth \(name\)/.test(r)),
      reasons.join('\n'),
    );
    assert.ok(
      reasons.some((r) =>
        /^server CREATE_IN_PROGRESS server \(OS::Nova::Server \S+\) was deleted outside Hearth/.test(r),
      ),
      reasons.join('\n'),
    );

    // Reality equals the template again.
    const drift = await w.json<{ summary: Record<string, number> }>(['stack', 'drift', 'detect', 'c']);
    assert.equal(drift.summary.IN_SYNC, 3);
    assert.equal(drift.summary.MODIFIED, 0);
    assert.equal(drift.summary.DELETED, 0);

    await w.ok(['stack', 'delete', 'c', '--yes', '--wait']);
    assert.equal(servers().length, 0);
  });

  it('replaces a server its cloud reports in ERROR', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE.replace('convnet', 'errnet') });
    await w.ok(['stack', 'create', 'e', '-t', 't.yaml', '--wait']);
    const [broken] = servers();
    const set = await cloud.app.inject({
      method: 'POST',
      url: `/admin/server/${broken!.id}/error`,
      payload: { message: 'host failed' },
    });
    assert.equal(set.statusCode, 200, set.body);

    const drift = await w.json<{
      resources: { resource_name: string; drift_status: string; drift_status_reason: string }[];
    }>(['stack', 'drift', 'detect', 'e']);
    const server = drift.resources.find((r) => r.resource_name === 'server')!;
    assert.ok(server, JSON.stringify(drift));
    assert.equal(server.drift_status, 'ERROR');
    assert.match(server.drift_status_reason, /server status ERROR: host failed/);

    await w.ok(['stack', 'update', 'e', '--existing', '--converge', '--wait']);
    const live = servers();
    assert.equal(live.length, 1, 'the broken server was deleted once its replacement was up');
    assert.notEqual(live[0]!.id, broken!.id);
    await w.ok(['stack', 'delete', 'e', '--yes', '--wait']);
  });

  it('fails with what needs a person when the right action is restricted', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE.replace('convnet', 'keepnet'), 'env.yaml': RESTRICTED_ENV });
    await w.ok(['stack', 'create', 'r', '-t', 't.yaml', '-e', 'env.yaml', '--wait']);
    const [server] = servers();
    await deleteServer(server!.id);

    const failed = await w.run(['stack', 'update', 'r', '--existing', '--converge', '--wait']);
    assert.notEqual(failed.code, 0, failed.stdout + (await w.ok(['stack', 'event', 'list', 'r'])));
    const shown = await w.json<{ stack_status: string; stack_status_reason: string }>(['stack', 'show', 'r']);
    assert.equal(shown.stack_status, 'UPDATE_FAILED');
    assert.match(
      shown.stack_status_reason,
      /server \(OS::Nova::Server \S+\) was deleted outside Hearth, and replace is restricted for resource \(restricted_actions\): a person must recreate it or lift the restriction/,
    );
    assert.equal(servers().length, 0, 'nothing was created against the restriction');
    await w.ok(['stack', 'delete', 'r', '--yes', '--wait']);
  });
});
