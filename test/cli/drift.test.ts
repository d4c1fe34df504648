import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login, sandboxCloud } from '../sandbox/support.js';
import { serverStack } from './server-stack.js';
import { Workdir } from './workdir.js';

const TEMPLATE = serverStack('driftnet', '10.2.0.0/24', { more: '  marker: {type: OS::Heat::None}\n' });

interface DriftDoc {
  summary: Record<string, unknown>;
  resources: {
    resource_name: string;
    drift_status: string;
    property_diff: { property: string; expected: unknown; actual: unknown }[];
    drift_status_reason: string;
    physical_resource_id: string;
  }[];
}

// Changes made behind Hearth's back, through the sandbox's own APIs, then `stack drift` sees them.
describe('stack drift through the CLI, on the sandbox cloud', () => {
  const cloud = sandboxCloud();

  it('detects a network renamed out of band (MODIFIED, name expected and actual) and a deleted server (DELETED)', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    await w.ok(['stack', 'create', 'd', '-t', 't.yaml', '--wait']);

    const clean = await w.json<DriftDoc>(['stack', 'drift', 'detect', 'd']);
    assert.deepEqual(
      clean.resources.map((r) => [r.resource_name, r.drift_status]),
      [['marker', 'NOT_CHECKED']],
    );
    assert.equal(clean.summary.IN_SYNC, 3);

    const net = cloud.state.list<{ id: string; name: string }>('network').find((n) => n.name === 'driftnet')!;
    const { token } = await login(cloud.app, 'demo');
    const renamed = await cloud.app.inject({
      method: 'PUT',
      url: `/network/v2.0/networks/${net.id}`,
      headers: { 'x-auth-token': token },
      payload: { network: { name: 'renamed-by-hand' } },
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const server = cloud.state
      .list<{ id: string; deletedAt: number | null }>('server')
      .find((s) => s.deletedAt === null)!;
    const deleted = await cloud.app.inject({ method: 'POST', url: `/admin/server/${server.id}/delete` });
    assert.equal(deleted.statusCode, 200, deleted.body);

    const drift = await w.json<DriftDoc>(['stack', 'drift', 'detect', 'd']);
    assert.deepEqual(
      { ...drift.summary, detected_time: typeof drift.summary.detected_time },
      {
        stack_name: 'd',
        detected_time: 'string',
        IN_SYNC: 1,
        MODIFIED: 1,
        DELETED: 1,
        ERROR: 0,
        NOT_CHECKED: 1,
        FAILED: 0,
      },
    );
    const byName = new Map(drift.resources.map((r) => [r.resource_name, r]));
    assert.deepEqual([...byName.keys()].sort(), ['marker', 'net', 'server'], 'IN_SYNC resources left out');
    assert.equal(byName.get('net')!.drift_status, 'MODIFIED');
    assert.deepEqual(byName.get('net')!.property_diff, [
      { property: 'name', expected: 'driftnet', actual: 'renamed-by-hand' },
    ]);
    assert.equal(byName.get('server')!.drift_status, 'DELETED');
    assert.equal(byName.get('server')!.physical_resource_id, server.id);

    const table = await w.ok(['stack', 'drift', 'detect', 'd']);
    assert.match(table, /name: "driftnet" -> "renamed-by-hand"/);
    assert.match(table, /\| MODIFIED +\|/);

    // `show` reads the stored results (every resource's) without calling the cloud.
    const shown = await w.json<DriftDoc>(['stack', 'drift', 'show', 'd']);
    assert.deepEqual(shown.resources.map((r) => [r.resource_name, r.drift_status]).sort(), [
      ['marker', 'NOT_CHECKED'],
      ['net', 'MODIFIED'],
      ['server', 'DELETED'],
      ['subnet', 'IN_SYNC'],
    ]);
    const yaml = await w.ok(['stack', 'drift', 'show', 'd', '-f', 'yaml']);
    assert.match(yaml, /drift_status: DELETED/);

    const missing = await w.run(['stack', 'drift', 'show', 'nope']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /not found/);
  });
});
