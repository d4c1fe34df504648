import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Engine } from '../../src/engine/engine.js';
import type { Store } from '../../src/store/contract.js';
import { Harness } from './harness.js';

// A lost connection or a database restart shows up as store calls that fail. An engine must ride
// it out: back off, carry on when the store answers again, and lose no unit of work on the way.

/** The store, failing every call while `down` is set, as a database that went away does. */
function flakyStore(inner: Store): Store & { down: boolean; failures: number } {
  const outage = <T>(call: () => Promise<T>): Promise<T> => {
    if (!flaky.down) return call();
    flaky.failures++;
    return Promise.reject(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    );
  };
  const flaky = {
    down: false,
    failures: 0,
    tx: (fn) => outage(() => inner.tx(fn)),
    read: (fn) => outage(() => inner.read(fn)),
    claimWork: (...args) => outage(() => inner.claimWork(...args)),
    nextWorkTime: () => outage(() => inner.nextWorkTime()),
    onWork: (listener) => inner.onWork(listener),
    migrate: () => outage(() => inner.migrate()),
    schemaVersion: () => outage(() => inner.schemaVersion()),
    close: () => inner.close(),
  } satisfies Store & { down: boolean; failures: number };
  return flaky;
}

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
${Array.from({ length: 30 }, (_, i) => `  r${i}: {type: OS::Heat::TestResource, properties: {value: v${i}, wait_secs: 0.05}${i > 0 ? `, depends_on: [r${i - 1}]` : ''}}`).join('\n')}
`;

describe('the store goes away during a traversal', () => {
  it('the engine backs off, carries on when it is back, and the stack completes with nothing lost', async () => {
    const h = await Harness.create();
    // Real time: the engine's backoff and the units' retries are real waits here.
    h.clock.now = () => Date.now();
    const store = flakyStore(h.deps.store);
    const logs: string[] = [];
    // Leases of five minutes: only units handed back at once can finish within the bound below.
    const settings = { ...h.deps.settings, workLeaseMs: 300_000 };
    const engine = new Engine({ ...h.deps, engineId: 'engine-2', store, settings }, (m) => logs.push(m));
    await h.create('s', TEMPLATE);
    const finished = engine.runUntil(async () => (await h.status('s')) !== 'CREATE_IN_PROGRESS');
    // Let some of the chain run, then take the store away in the middle of it.
    while ((await h.rows('s')).filter((r) => `${r.action}_${r.status}` === 'CREATE_COMPLETE').length < 5) {
      await pause(5);
    }
    store.down = true;
    await pause(600);
    assert.ok(store.failures > 0, 'the engine kept trying while the store was away');
    store.down = false;
    const back = Date.now();
    await finished;
    // Well before the units' leases run out: what failed was handed back at once.
    assert.ok(Date.now() - back < 60_000, `finished ${Date.now() - back} ms after the store came back`);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.ok(logs.some((m) => /store error: .*ECONNREFUSED.*trying again in \d+ ms/.test(m)));
    assert.ok(logs.includes('the store is reachable again'));
    const created = h.reality.created.filter((o) => o.type === 'OS::Heat::TestResource');
    assert.equal(created.length, 30, 'each resource made once');
    assert.equal(await h.deps.store.nextWorkTime(), undefined, 'no unit left claimed or queued');
  });
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
