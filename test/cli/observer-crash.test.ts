import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { startServe } from './serve-process.js';
import { serverStack } from './server-stack.js';
import { Workdir } from './workdir.js';

const TEMPLATE = serverStack('crashnet', '10.5.0.0/24');

type Live = { id: string; name: string; deletedAt: number | null };

// Observation is a unit of work in the store, not a timer in a process: the engine that ran it
// is killed, another process on the same store carries on and heals.
describe('observation survives the death of its engine', () => {
  const cloud = sandboxCloud();

  it('a second server process, on the same database, observes and heals after the first is killed', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'hearth-observe-crash-')), 'state.db');
    const env = {
      HEARTH_WORK_LEASE_MS: '2000',
      HEARTH_HEARTBEAT_INTERVAL_MS: '500',
      HEARTH_ENGINE_DEAD_AFTER_MS: '2000',
    };
    const args = ['--db', db, 'serve', '--auth', 'noauth', '--port', '0'];
    const w = new Workdir({ 't.yaml': TEMPLATE });
    const servers = () =>
      cloud.state.list<Live>('server').filter((s) => s.deletedAt === null && s.name.startsWith('crash-'));

    const first = await startServe(args, env);
    const url = `${first.url}/v1/admin`;
    await w.ok([
      '--url',
      url,
      'stack',
      'create',
      'crash',
      '-t',
      't.yaml',
      '--observe',
      '1',
      '--heal',
      '--wait',
    ]);
    const [original] = servers();
    assert.ok(original);
    // Dies without a word (no claim handed back), quite possibly in the middle of an observation.
    await new Promise((r) => setTimeout(r, 1500));
    first.kill();

    await cloud.app.inject({ method: 'POST', url: `/admin/server/${original.id}/delete` });
    const second = await startServe(args, env);
    try {
      const started = Date.now();
      for (;;) {
        const now = servers();
        if (now.length === 1 && now[0]!.id !== original.id) break;
        assert.ok(
          Date.now() - started < 20_000,
          `no heal after the takeover:\n${second.stderr().slice(-2000)}`,
        );
        await new Promise((r) => setTimeout(r, 200));
      }
      const stack = await second.request('GET', '/v1/admin/stacks/crash');
      assert.equal(stack.status, 302, stack.text);
    } finally {
      await second.stop();
    }
  });
});
