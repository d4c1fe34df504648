import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Engine } from '../../src/engine/engine.js';
import type { Store, Tx } from '../../src/store/contract.js';
import { Harness } from './harness.js';

// A batch enqueues the dependents it made ready already claimed by its engine (no claim of their
// own): the engine runs them next. An engine that dies between the two leaves them claimed with a
// lease; once it ends, another engine takes them, and nothing is done twice or left out.

/** Two chains of four: each link depends on the one before it. */
const CHAINS = `heat_template_version: 2018-08-31
resources:
${['a', 'b']
  .flatMap((c) =>
    [0, 1, 2, 3].map(
      (i) =>
        `  ${c}${i}: {type: OS::Heat::Value, properties: {value: ${c}${i}}${i > 0 ? `, depends_on: [${c}${i - 1}]` : ''}}`,
    ),
  )
  .join('\n')}
`;

/**
 * The store, with its claims failing while `claimDown` is set (a database restarting between two
 * rounds), and, while `loseClaimingCommit` is set, the next transaction that enqueues units
 * claimed committed but reported failed (a connection lost while the COMMIT's answer was on its way).
 */
function flakyStore(inner: Store): Store & { claimDown: boolean; loseClaimingCommit: boolean } {
  const flaky = {
    claimDown: false,
    loseClaimingCommit: false,
    tx: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
      let claiming = false;
      const result = await inner.tx((tx) =>
        fn(
          withProperty(tx, 'work', (work) =>
            withProperty(work, 'enqueueClaimed', (enqueue) => (...args) => {
              claiming = true;
              return enqueue(...args);
            }),
          ),
        ),
      );
      if (!claiming || !flaky.loseClaimingCommit) return result;
      flaky.loseClaimingCommit = false;
      throw new Error('Connection terminated unexpectedly');
    },
    read: <T>(fn: (tx: Tx) => Promise<T>) => inner.read(fn),
    claimWork: (...args: Parameters<Store['claimWork']>) =>
      flaky.claimDown ? Promise.reject(new Error('connect ECONNREFUSED')) : inner.claimWork(...args),
    nextWorkTime: () => inner.nextWorkTime(),
    onWork: (listener: () => void) => inner.onWork(listener),
    migrate: () => inner.migrate(),
    schemaVersion: () => inner.schemaVersion(),
    close: () => inner.close(),
  };
  return flaky;
}

/** `target` with its `key` replaced by `wrap` of it (methods bound to `target`). */
function withProperty<T extends object, K extends keyof T>(
  target: T,
  key: K,
  wrap: (value: T[K]) => T[K],
): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop, obj) as unknown;
      const bound = typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
      return prop === key ? wrap(bound as T[K]) : bound;
    },
  });
}

/** Each resource's events, in order: what was done to it, and how often. */
/** The names of the resources created so far, sorted. */
async function created(h: Harness): Promise<string[]> {
  return (await h.rows('s'))
    .filter((r) => r.action === 'CREATE' && r.status === 'COMPLETE')
    .map((r) => r.name)
    .sort();
}

async function eventsByResource(h: Harness, stackId: string): Promise<Map<string, string[]>> {
  const events = await h.deps.store.tx((tx) => tx.events.list(stackId));
  const out = new Map<string, string[]>();
  for (const e of events) {
    if (e.resourceType === 'OS::Heat::Stack') continue;
    out.set(e.resourceName, [...(out.get(e.resourceName) ?? []), `${e.action}_${e.status}`]);
  }
  return out;
}

describe('units claimed when they are enqueued', () => {
  it('the next links of a chain run next without a claim; a dead engine’s are taken over once their lease ends', async () => {
    const h = await Harness.create();
    const stack = await h.create('s', CHAINS);
    const traversalId = (await h.stack('s')).traversalId!;
    const queue = () => h.deps.store.tx((tx) => tx.work.listForTraversal(traversalId));

    // Round one claims the two heads; recording them enqueues the second links claimed by engine-1.
    assert.equal(await h.engine.worker.runDue(), 2);
    const preclaimed = await queue();
    assert.deepEqual(
      preclaimed.map((w) => [w.claimedBy, w.attempts, w.claimExpires]),
      [
        ['engine-1#1', 1, h.clock.t + h.deps.settings.workLeaseMs],
        ['engine-1#1', 1, h.clock.t + h.deps.settings.workLeaseMs],
      ],
    );
    assert.deepEqual(
      h.engine.worker.heldClaims().map((w) => w.id),
      preclaimed.map((w) => w.id),
      'held, so that the heartbeat renews their leases',
    );

    // The next round runs them without claiming (nothing else is due), and claims the third links.
    assert.equal(await h.engine.worker.runDue(), 2);
    assert.deepEqual(await created(h), ['a0', 'a1', 'b0', 'b1']);
    const third = await queue();
    assert.equal(third.length, 2);

    // engine-1 dies now. Another engine finds nothing due until the lease ends...
    const rescuer = new Engine({ ...h.deps, engineId: 'engine-2' });
    assert.equal(await rescuer.worker.runDue(), 0);
    assert.equal(await h.deps.store.nextWorkTime(), third[0]!.claimExpires);
    // ...then takes the third links over (a new claim), and runs the rest of the chains.
    h.clock.t = third[0]!.claimExpires!;
    assert.equal(await rescuer.worker.runDue(), 2);
    assert.deepEqual(
      (await queue()).map((w) => w.claimedBy),
      ['engine-2#1', 'engine-2#1'],
      'the last links: claimed by the engine that enqueued them',
    );
    assert.equal(await rescuer.worker.runDue(), 2);
    assert.deepEqual(await queue(), []);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');

    // engine-1 comes back with the third links still in memory: its claims are gone, so what it
    // would record is fenced off.
    assert.equal(await h.engine.worker.runDue(), 2);
    const events = await eventsByResource(h, stack.id);
    assert.equal(events.size, 8);
    for (const [name, told] of events)
      assert.deepEqual(told, ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'], `${name}: created once`);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
  });

  it('units claimed for a round that does not come are handed back when the engine stops running work', async () => {
    const h = await Harness.create();
    await h.create('s', CHAINS);
    const traversalId = (await h.stack('s')).traversalId!;
    // One round (the heads), then stop: the second links, claimed by engine-1, are handed back.
    const stop = new AbortController();
    const unobserve = h.engine.worker.observe(() => stop.abort());
    await h.engine.runUntil(async () => false, { signal: stop.signal });
    unobserve();
    const left = await h.deps.store.tx((tx) => tx.work.listForTraversal(traversalId));
    assert.equal(left.length, 2);
    assert.deepEqual(
      left.map((w) => [w.claimedBy, w.runAt <= h.clock.t]),
      [
        [null, true],
        [null, true],
      ],
      'due at once, for any engine',
    );
    assert.deepEqual(h.engine.worker.heldClaims(), []);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
  });

  it('units claimed for the next round that the store fails to start stay first in line, and run when it is back', async () => {
    const h = await Harness.create();
    const stack = await h.create('s', CHAINS);
    const traversalId = (await h.stack('s')).traversalId!;
    // The claim of the rest of a round is the store's first call of that round: it fails, as
    // when the database restarts between two rounds.
    const store = flakyStore(h.deps.store);
    const engine = new Engine({ ...h.deps, store });
    assert.equal(await engine.worker.runDue(), 2, 'the heads');
    const second = await h.deps.store.tx((tx) => tx.work.listForTraversal(traversalId));
    assert.deepEqual(
      second.map((w) => w.claimedBy),
      ['engine-1#1', 'engine-1#1'],
    );

    store.claimDown = true;
    await assert.rejects(engine.worker.runDue(), /ECONNREFUSED/);
    store.claimDown = false;
    // Held (so renewed) only because the next round runs them: it does, without a claim.
    assert.deepEqual(
      engine.worker.heldClaims().map((w) => w.id),
      second.map((w) => w.id),
    );
    assert.equal(await engine.worker.runDue(), 2, 'the second links, not left claimed and renewed');
    assert.deepEqual(await created(h), ['a0', 'a1', 'b0', 'b1']);
    assert.ok(
      engine.worker.heldClaims().every((w) => !second.some((s) => s.id === w.id)),
      'no longer held once run',
    );
    while ((await engine.worker.runDue()) > 0);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const events = await eventsByResource(h, stack.id);
    for (const [name, told] of events)
      assert.deepEqual(told, ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'], `${name}: created once`);
    assert.deepEqual(engine.worker.heldClaims(), []);
  });

  it('units enqueued claimed by a record whose commit was reported failed, though it happened, are claimed again at lease end', async () => {
    const h = await Harness.create();
    const stack = await h.create('s', CHAINS);
    const traversalId = (await h.stack('s')).traversalId!;
    const queue = () => h.deps.store.tx((tx) => tx.work.listForTraversal(traversalId));
    const store = flakyStore(h.deps.store);
    const engine = new Engine({ ...h.deps, store });
    // The heads' batch: its record commits, and the engine is told it failed.
    store.loseClaimingCommit = true;
    await engine.worker.runDue();
    assert.equal(store.loseClaimingCommit, false, 'the record was the one');
    const second = await queue();
    assert.deepEqual(
      second.map((w) => [w.node, w.claimedBy]),
      [
        [second[0]!.node, 'engine-1#1'],
        [second[1]!.node, 'engine-1#1'],
      ],
      'the second links, enqueued claimed',
    );
    assert.deepEqual(engine.worker.heldClaims(), [], 'held by no one: their leases are not renewed');
    assert.equal(await engine.worker.runDue(), 0, 'not before their leases end');
    h.clock.t = second[0]!.claimExpires!;
    assert.equal(await engine.worker.runDue(), 2, 'claimed again');
    while ((await engine.worker.runDue()) > 0);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const events = await eventsByResource(h, stack.id);
    assert.equal(events.size, 8);
    for (const [name, told] of events)
      assert.deepEqual(told, ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'], `${name}: created once`);
  });
});
