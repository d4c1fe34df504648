// The worker (src/engine/runtime/worker.ts) knows no kind of unit: it runs each through the
// WorkKinds it is given (engineWorkKinds in production), batches what a batch kind accepts,
// runs long-running kinds beside its rounds, and hands back a unit whose runner failed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type UnitRunner, Worker, type WorkKinds } from '../../src/engine/runtime/worker.js';
import type { WorkItem } from '../../src/store/contract.js';
import { Harness } from './harness.js';

const TRAVERSAL = 'worker-kinds';

async function enqueue(h: Harness, units: [kind: string, node: string][]): Promise<void> {
  await h.deps.store.tx((tx) =>
    tx.work.enqueue(
      units.map(([kind, node]) => ({
        rootStackId: 's',
        stackId: 's',
        traversalId: TRAVERSAL,
        kind,
        node,
        runAt: h.clock.now(),
      })),
    ),
  );
}

async function queued(h: Harness): Promise<WorkItem[]> {
  return h.deps.store.tx((tx) => tx.work.listForTraversal(TRAVERSAL));
}

/** A runner that notes the node it ran and completes the unit. */
function noting(h: Harness, ran: string[]): UnitRunner {
  return async (item) => {
    ran.push(item.node);
    await h.deps.store.tx((tx) => tx.work.complete(item));
  };
}

function kinds(runners: Record<string, UnitRunner>, rest: Partial<WorkKinds> = {}): WorkKinds {
  return { runners: new Map(Object.entries(runners)), longRunning: new Set(), batches: [], ...rest };
}

describe('the worker runs the kinds it is given', () => {
  it('runs each unit with its kind’s runner, and completes a unit no runner knows', async () => {
    const h = await Harness.create();
    const a: string[] = [];
    const b: string[] = [];
    const worker = new Worker(h.deps, kinds({ a: noting(h, a), b: noting(h, b) }));
    await enqueue(h, [
      ['a', 'a1'],
      ['b', 'b1'],
      ['a', 'a2'],
      ['left-by-an-older-version', 'x'],
    ]);
    assert.equal(await worker.runDue(), 4);
    assert.deepEqual(a.sort(), ['a1', 'a2']);
    assert.deepEqual(b, ['b1']);
    assert.deepEqual(await queued(h), []);
  });

  it('gives a batch the units it accepts, and runs one by one what it leaves and what it refuses', async () => {
    const h = await Harness.create();
    const single: string[] = [];
    const batched: string[][] = [];
    const worker = new Worker(
      h.deps,
      kinds(
        { a: noting(h, single) },
        {
          batches: [
            {
              accepts: (item) => item.node !== 'refused',
              start: () => async (items) => {
                batched.push(items.map((item) => item.node).sort());
                const done = items.filter((item) => item.node !== 'left');
                await h.deps.store.tx(async (tx) => {
                  for (const item of done) await tx.work.complete(item);
                });
                return items.filter((item) => item.node === 'left');
              },
            },
          ],
        },
      ),
    );
    await enqueue(h, [
      ['a', 'one'],
      ['a', 'left'],
      ['a', 'refused'],
    ]);
    assert.equal(await worker.runDue(), 3);
    assert.deepEqual(batched, [['left', 'one']]);
    assert.deepEqual(single.sort(), ['left', 'refused']);
    assert.deepEqual(await queued(h), []);
  });

  it('hands back a unit whose runner failed, due again a second later, and tells its observers', async () => {
    const h = await Harness.create();
    const logged: string[] = [];
    const seen: [string, boolean][] = [];
    let fail = true;
    const ran: string[] = [];
    const runner: UnitRunner = async (item, context) => {
      if (fail) throw new Error('the cloud said no');
      await noting(h, ran)(item, context);
    };
    const worker = new Worker(h.deps, kinds({ a: runner }), (message) => logged.push(message));
    worker.observe((kind, ok) => seen.push([kind, ok]));
    await enqueue(h, [['a', 'n']]);

    assert.equal(await worker.runDue(), 1);
    const [item] = await queued(h);
    assert.equal(item?.runAt, h.clock.now() + 1000);
    assert.match(logged.join('\n'), /unit of work \d+ \(a n\) failed: the cloud said no/);
    assert.equal(await worker.runDue(), 0, 'not due before its second');

    fail = false;
    h.clock.t += 1000;
    assert.equal(await worker.runDue(), 1);
    assert.deepEqual(ran, ['n']);
    assert.deepEqual(seen, [
      ['a', false],
      ['a', true],
    ]);
    assert.deepEqual(await queued(h), []);
  });

  it('runs a long-running kind beside its rounds, and stops it when asked', async () => {
    const h = await Harness.create();
    let stopped = false;
    const walk: UnitRunner = async (item, { stop }) => {
      await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
      stopped = true;
      await h.deps.store.tx((tx) => tx.work.complete(item));
    };
    const ran: string[] = [];
    const worker = new Worker(h.deps, kinds({ walk, a: noting(h, ran) }, { longRunning: new Set(['walk']) }));
    await enqueue(h, [
      ['walk', 'w'],
      ['a', 'n'],
    ]);

    assert.equal(await worker.runDue(), 2, 'the round ends while the walk goes on');
    assert.deepEqual(ran, ['n']);
    assert.equal(worker.walking(), 1);
    assert.deepEqual(
      worker.heldClaims().map((item) => item.node),
      ['w'],
    );

    await worker.stopWalks();
    assert.equal(stopped, true);
    assert.equal(worker.walking(), 0);
    assert.deepEqual(await queued(h), []);
  });
});
