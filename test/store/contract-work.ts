import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClaimLostError, type Store } from '../../src/store/contract.js';
import { withStore, work } from './fixtures.js';

export interface WorkContractOptions {
  /** Two stores on one database (two processes' view), for the concurrent-claim test. */
  openPair?: () => Promise<[Store, Store]>;
}

const LEASE = 30_000;

export function workContract(open: () => Promise<Store>, options: WorkContractOptions = {}): void {
  describe('work queue', () => {
    it('enqueues with defaults and lists by traversal', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.work.enqueue([
            work('t1', 's1', 'u:1'),
            work('t1', 's1', 'u:2', { payload: { step: 1 }, runAt: 500 }),
          ]),
        );
        const items = await store.tx((tx) => tx.work.listForTraversal('t1'));
        assert.deepEqual(
          items.map(({ id: _id, ...rest }) => rest),
          [
            {
              ...work('t1', 's1', 'u:1'),
              payload: null,
              runAt: 0,
              attempts: 0,
              claimedBy: null,
              claimExpires: null,
              waitingFor: null,
              inputs: null,
            },
            {
              ...work('t1', 's1', 'u:2'),
              payload: { step: 1 },
              runAt: 500,
              attempts: 0,
              claimedBy: null,
              claimExpires: null,
              waitingFor: null,
              inputs: null,
            },
          ],
        );
        assert.ok(items[0]!.id < items[1]!.id);
        await store.tx((tx) => tx.work.enqueue([]));
      }));

    it('claims due, unclaimed items in run order, up to the limit, for a lease', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.work.enqueue([
            work('t1', 's1', 'late', { runAt: 300 }),
            work('t1', 's1', 'early', { runAt: 100 }),
            work('t1', 's1', 'mid', { runAt: 200 }),
            work('t1', 's1', 'future', { runAt: 100_000 }),
          ]),
        );
        const first = await store.claimWork('e1', 1000, 2, LEASE);
        assert.deepEqual(
          first.map((w) => [w.node, w.claimedBy, w.claimExpires, w.attempts]),
          [
            ['early', 'e1#1', 1000 + LEASE, 1],
            ['mid', 'e1#1', 1000 + LEASE, 1],
          ],
        );
        assert.deepEqual(
          (await store.claimWork('e2', 1000, 10, LEASE)).map((w) => w.node),
          ['late'],
        );
        assert.deepEqual(await store.claimWork('e3', 1000, 10, LEASE), [], 'live claims are not claimable');
        assert.deepEqual(await store.claimWork('e3', 1000, 0, LEASE), []);
        // A dead engine's lease runs out: the item is claimable again, and counts another attempt.
        const reclaimed = await store.claimWork('e3', 1000 + LEASE, 10, LEASE);
        assert.deepEqual(
          reclaimed.map((w) => [w.node, w.claimedBy, w.attempts]),
          [
            ['early', 'e3#2', 2],
            ['mid', 'e3#2', 2],
            ['late', 'e3#2', 2],
          ],
        );
      }));

    it('complete removes an item only under its current claim, else rolls the transaction back', () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.work.enqueue([work('t1', 's1', 'u:1')]));
        const [item] = await store.claimWork('e1', 1000, 1, LEASE);
        const [stolen] = await store.claimWork('e2', 1000 + LEASE, 1, LEASE);
        assert.equal(stolen?.id, item?.id);
        // The old claimer's outcome is fenced off: nothing it wrote in that transaction stays.
        await assert.rejects(
          store.tx(async (tx) => {
            await tx.work.enqueue([work('t1', 's1', 'written-by-e1')]);
            await tx.work.complete(item!);
          }),
          ClaimLostError,
        );
        assert.deepEqual(
          (await store.tx((tx) => tx.work.listForTraversal('t1'))).map((w) => w.node),
          ['u:1'],
        );
        // Its own engine claiming it again is another claim too.
        const [mine] = await store.claimWork('e2', 1000 + 2 * LEASE, 1, LEASE);
        assert.equal(mine?.claimedBy, 'e2#3');
        await assert.rejects(
          store.tx((tx) => tx.work.complete(stolen!)),
          ClaimLostError,
        );
        await store.tx((tx) => tx.work.complete(mine!));
        await assert.rejects(
          store.tx((tx) => tx.work.complete(mine!)),
          ClaimLostError,
          'already gone',
        );
        assert.deepEqual(await store.tx((tx) => tx.work.listForTraversal('t1')), []);
      }));

    it('completeMany removes the items its caller holds, or none if one was lost', () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.work.enqueue(['u:1', 'u:2', 'u:3'].map((n) => work('t1', 's1', n))));
        const mine = await store.claimWork('e1', 1000, 2, LEASE);
        const [theirs] = await store.claimWork('e2', 1000, 1, LEASE);
        await assert.rejects(
          store.tx((tx) => tx.work.completeMany([...mine, { id: theirs!.id, claimedBy: 'e1#1' }])),
          (error: unknown) => error instanceof ClaimLostError && error.itemId === theirs!.id,
        );
        assert.equal((await store.tx((tx) => tx.work.listForTraversal('t1'))).length, 3);
        await store.tx((tx) => tx.work.completeMany(mine));
        await assert.rejects(
          store.tx((tx) => tx.work.completeMany(mine)),
          ClaimLostError,
          'already gone',
        );
        await store.tx((tx) => tx.work.completeMany([]));
        assert.deepEqual(
          (await store.tx((tx) => tx.work.listForTraversal('t1'))).map((i) => i.id),
          [theirs!.id],
        );
      }));

    it('enqueueClaimed: items claimed at enqueue by one engine, claimed again by another once the lease ends', () =>
      withStore(open, async (store) => {
        const nodes = ['u:1', 'u:2', 'u:3'];
        // Progress all the same: a watch (the console's feed) wakes on it as on any enqueue.
        let woken = 0;
        const stop = store.onWork(() => woken++);
        const items = await store.tx((tx) =>
          tx.work.enqueueClaimed(
            nodes.map((n) => work('t1', 's1', n, { runAt: 1000 })),
            'e1',
            1000 + LEASE,
          ),
        );
        assert.deepEqual(
          items.map((i) => [i.node, i.claimedBy, i.claimExpires, i.attempts, i.runAt, i.payload]),
          nodes.map((n) => [n, 'e1#1', 1000 + LEASE, 1, 1000, null]),
        );
        stop();
        // At commit; on PostgreSQL the channel's notification may tell them a second time.
        assert.ok(woken >= 1, 'the work listeners were told at commit');
        // Exactly the stored rows (ids included), as claimWork would have returned them.
        const listed = await store.tx((tx) => tx.work.listForTraversal('t1'));
        assert.deepEqual(listed, items);
        assert.deepEqual(await store.claimWork('e2', 1000 + LEASE - 1, 10, LEASE), [], 'held by e1');
        assert.equal(await store.nextWorkTime(), 1000 + LEASE);
        // Its engine completes one; then it dies: the others go to the next claimer, attempt 2.
        await store.tx((tx) => tx.work.completeMany([items[0]!]));
        const taken = await store.claimWork('e2', 1000 + LEASE, 10, LEASE);
        assert.deepEqual(
          taken.map((i) => [i.node, i.claimedBy]),
          [
            ['u:2', 'e2#2'],
            ['u:3', 'e2#2'],
          ],
        );
        // The dead engine's late outcome is fenced off.
        await assert.rejects(
          store.tx((tx) => tx.work.complete(items[1]!)),
          ClaimLostError,
        );
        assert.deepEqual(await store.tx((tx) => tx.work.enqueueClaimed([], 'e1', 0)), []);
      }));

    it('enqueueClaimed items are released with their engine’s other claims', () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.work.enqueueClaimed([work('t1', 's1', 'u:1')], 'e1', 1000 + LEASE));
        assert.equal(await store.tx((tx) => tx.work.releaseClaimsOf('e1', 2000)), 1);
        assert.deepEqual(
          (await store.claimWork('e2', 2000, 10, LEASE)).map((i) => [i.node, i.claimedBy]),
          [['u:1', 'e2#2']],
        );
      }));

    it('reschedule releases the claim until the new run time, optionally with a new payload', () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.work.enqueue([work('t1', 's1', 'u:1', { payload: { poll: 0 } })]));
        const [item] = await store.claimWork('e1', 1000, 1, LEASE);
        await assert.rejects(
          store.tx((tx) => tx.work.reschedule({ id: item!.id, claimedBy: 'e2#1' }, 5000)),
          ClaimLostError,
          'not its claim',
        );
        await store.tx((tx) => tx.work.reschedule(item!, 5000, { poll: 1 }));
        assert.equal(await store.nextWorkTime(), 5000);
        assert.deepEqual(await store.claimWork('e2', 4999, 1, LEASE), []);
        const [again] = await store.claimWork('e2', 5000, 1, LEASE);
        assert.deepEqual([again?.payload, again?.runAt, again?.attempts], [{ poll: 1 }, 5000, 2]);
        await store.tx((tx) => tx.work.reschedule(again!, 6000));
        assert.deepEqual((await store.tx((tx) => tx.work.listForTraversal('t1')))[0]?.payload, { poll: 1 });
      }));

    it('a unit carries its inputs: enqueued, enqueued claimed, claimed again, kept by a reschedule', () =>
      withStore(open, async (store) => {
        const inputs = { 'u:1': { rowId: 1, ref: 'a' }, 'u:0': null };
        await store.tx((tx) => tx.work.enqueue([work('t1', 's1', 'u:2', { inputs })]));
        const [item] = await store.claimWork('e1', 1000, 1, LEASE);
        assert.deepEqual(item?.inputs, inputs);
        // A poll's new payload leaves the inputs as they were.
        await store.tx((tx) => tx.work.reschedule(item!, 2000, { phase: 'poll', row: 2, polls: 1 }));
        const [again] = await store.claimWork('e1', 2000, 1, LEASE);
        assert.deepEqual([again?.payload, again?.inputs], [{ phase: 'poll', row: 2, polls: 1 }, inputs]);
        const [claimed] = await store.tx((tx) =>
          tx.work.enqueueClaimed([work('t2', 's1', 'u:3', { inputs: { 'u:2': 'x' } })], 'e1', 1000 + LEASE),
        );
        assert.deepEqual(claimed?.inputs, { 'u:2': 'x' });
        assert.deepEqual(await store.tx((tx) => tx.work.listForTraversal('t2')), [claimed]);
      }));

    it('renewClaims extends the leases of running claims; releaseClaimsOf frees an engine’s', () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.work.enqueue(['a', 'b', 'c', 'd'].map((n) => work('t1', 's1', n))));
        const mine = await store.claimWork('e1', 1000, 3, LEASE);
        await store.claimWork('e10', 1000, 1, LEASE);
        const lost = { id: mine[2]!.id, claimedBy: 'e1#0' };
        assert.equal(await store.tx((tx) => tx.work.renewClaims([mine[0]!, mine[1]!, lost], 90_000)), 2);
        assert.deepEqual(
          (await store.tx((tx) => tx.work.listForTraversal('t1'))).map((w) => [w.node, w.claimExpires]),
          [
            ['a', 90_000],
            ['b', 90_000],
            ['c', 1000 + LEASE],
            ['d', 1000 + LEASE],
          ],
        );
        assert.equal(await store.tx((tx) => tx.work.renewClaims([], 90_000)), 0);
        assert.equal(
          await store.tx((tx) => tx.work.renewClaims([mine[0]!, mine[1]!], 95_000, 90_000)),
          0,
          'leases ending at or after renewBefore are left as they are',
        );
        assert.equal(await store.tx((tx) => tx.work.renewClaims([mine[0]!], 95_000, 90_001)), 1);
        assert.equal(await store.tx((tx) => tx.work.releaseClaimsOf('e1', 2000)), 3, 'not e10’s');
        assert.deepEqual(
          (await store.claimWork('e2', 2000, 10, LEASE)).map((w) => [w.node, w.claimedBy]),
          [
            ['a', 'e2#2'],
            ['b', 'e2#2'],
            ['c', 'e2#2'],
          ],
        );
      }));

    it('wake makes a node’s waiting items due now, and is not lost on an item being run', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.work.enqueue([
            work('t1', 's1', 'u:1', { runAt: 90_000 }),
            work('t1', 's1', 'u:2', { runAt: 90_000 }),
            work('t2', 's1', 'u:1', { runAt: 90_000 }),
          ]),
        );
        assert.equal(await store.tx((tx) => tx.work.wake('t1', 'u:1', 2000)), 1);
        assert.equal(await store.nextWorkTime(), 2000);
        const [woken] = await store.claimWork('e1', 2000, 10, LEASE);
        assert.equal(woken?.node, 'u:1');
        assert.equal(woken?.traversalId, 't1');
        // Woken while its worker runs it: the worker's later "poll again in a minute" becomes "now".
        assert.equal(await store.tx((tx) => tx.work.wake('t1', 'u:1', 3000)), 1);
        await store.tx((tx) => tx.work.reschedule(woken!, 63_000));
        const [rerun] = await store.claimWork('e1', 3000, 10, LEASE);
        assert.equal(rerun?.id, woken?.id);
        // Without a wake, a reschedule is what it says; a wake never delays an item already due.
        await store.tx((tx) => tx.work.reschedule(rerun!, 63_000));
        assert.deepEqual(await store.claimWork('e1', 62_999, 10, LEASE), []);
        await store.tx((tx) => tx.work.enqueue([work('t3', 's1', 'due', { runAt: 10 })]));
        await store.tx((tx) => tx.work.wake('t3', 'due', 5000));
        assert.equal((await store.tx((tx) => tx.work.listForTraversal('t3')))[0]?.runAt, 10);
        assert.equal(await store.tx((tx) => tx.work.wake('t3', 'nothing', 5000)), 0);
      }));

    it('a parked item waits for its key: woken at once by wakeWaiting, else due at its safety deadline', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.work.enqueue([work('t1', 's1', 'u:1'), work('t1', 's1', 'u:2'), work('t2', 's2', 'u:3')]),
        );
        const claimed = await store.claimWork('e1', 1000, 10, LEASE);
        const [a, b, c] = claimed;
        assert.equal(claimed.length, 3);
        await store.tx(async (tx) => {
          await tx.work.reschedule(a!, 301_000, { wait: 'a' }, 'stack:x');
          await tx.work.reschedule(b!, 301_000, { wait: 'b' }, 'stack:x');
          await tx.work.reschedule(c!, 301_000, { wait: 'c' }, 'stack:y');
        });
        const parked = await store.tx((tx) => tx.work.listForTraversal('t1'));
        assert.deepEqual(
          parked.map((w) => [w.waitingFor, w.payload, w.runAt, w.claimedBy]),
          [
            ['stack:x', { wait: 'a' }, 301_000, null],
            ['stack:x', { wait: 'b' }, 301_000, null],
          ],
        );
        assert.deepEqual(await store.claimWork('e1', 2000, 10, LEASE), [], 'parked: nothing is due');
        assert.equal(await store.tx((tx) => tx.work.wakeWaiting('stack:nothing', 2000)), 0);
        assert.equal(await store.tx((tx) => tx.work.wakeWaiting('stack:x', 2000)), 2);
        assert.equal(await store.nextWorkTime(), 2000);
        const woken = await store.claimWork('e2', 2000, 10, LEASE);
        assert.deepEqual(
          woken.map((w) => [w.id, w.payload, w.waitingFor]),
          [
            [a!.id, { wait: 'a' }, 'stack:x'],
            [b!.id, { wait: 'b' }, 'stack:x'],
          ],
        );
        // A reschedule without a key clears it: a later event does not wake the item.
        await store.tx(async (tx) => {
          await tx.work.complete(woken[0]!);
          await tx.work.reschedule(woken[1]!, 900_000);
        });
        assert.equal(await store.tx((tx) => tx.work.wakeWaiting('stack:x', 3000)), 0);
        // The item on another key is still parked, until its safety deadline.
        assert.deepEqual(await store.claimWork('e2', 300_999, 10, LEASE), []);
        assert.deepEqual(
          (await store.claimWork('e2', 301_000, 10, LEASE)).map((w) => w.id),
          [c!.id],
        );
        const [bItem] = (await store.tx((tx) => tx.work.listForTraversal('t1'))).filter(
          (w) => w.id === b!.id,
        );
        assert.deepEqual([bItem?.runAt, bItem?.waitingFor], [900_000, null]);
      }));

    it('an event that arrives while the parked item runs is not lost: its next park is due at once', () =>
      withStore(open, async (store) => {
        await store.tx((tx) => tx.work.enqueue([work('t1', 's1', 'u:1')]));
        const [item] = await store.claimWork('e1', 1000, 1, LEASE);
        await store.tx((tx) => tx.work.reschedule(item!, 301_000, null, 'stack:x'));
        assert.equal(await store.tx((tx) => tx.work.wakeWaiting('stack:x', 2000)), 1);
        const [running] = await store.claimWork('e1', 2000, 1, LEASE);
        assert.equal(running?.id, item?.id);
        // The worker looked (the child was still running) and is about to park again; meanwhile
        // the child finishes and wakes the key.
        assert.equal(await store.tx((tx) => tx.work.wakeWaiting('stack:x', 3000)), 1);
        await store.tx((tx) => tx.work.reschedule(running!, 303_000, null, 'stack:x'));
        const [again] = await store.claimWork('e1', 3000, 1, LEASE);
        assert.equal(again?.id, item?.id, 'due at the time of the wake, not at the deadline');
        // A wake never delays an item that is already due.
        await store.tx((tx) => tx.work.reschedule(again!, 10, null, 'stack:x'));
        await store.tx((tx) => tx.work.wakeWaiting('stack:x', 5000));
        assert.equal((await store.tx((tx) => tx.work.listForTraversal('t1')))[0]?.runAt, 10);
        // Parked in the same transaction as the event: due at once.
        const [last] = await store.claimWork('e1', 5000, 1, LEASE);
        await store.tx(async (tx) => {
          await tx.work.reschedule(last!, 305_000, null, 'stack:z');
          await tx.work.wakeWaiting('stack:z', 5000);
        });
        assert.equal((await store.claimWork('e1', 5000, 1, LEASE))[0]?.id, item?.id);
      }));

    it('nextWorkTime: the earliest claimable time, a lease end included', () =>
      withStore(open, async (store) => {
        assert.equal(await store.nextWorkTime(), undefined);
        await store.tx((tx) =>
          tx.work.enqueue([work('t1', 's1', 'a', { runAt: 700 }), work('t1', 's1', 'b', { runAt: 900 })]),
        );
        assert.equal(await store.nextWorkTime(), 700);
        await store.claimWork('e1', 1000, 10, 100);
        assert.equal(await store.nextWorkTime(), 1100);
      }));

    it('stats: items due, claimed and scheduled, and the earliest claimable time', () =>
      withStore(open, async (store) => {
        const stats = (now: number) => store.tx((tx) => tx.work.stats(now));
        assert.deepEqual(await stats(0), { due: 0, claimed: 0, scheduled: 0, nextAvailableAt: undefined });
        await store.tx((tx) =>
          tx.work.enqueue([
            work('t1', 's1', 'a', { runAt: 100 }),
            work('t1', 's1', 'b', { runAt: 200 }),
            work('t1', 's1', 'c', { runAt: 300 }),
            work('t1', 's1', 'later', { runAt: 5000 }),
          ]),
        );
        assert.deepEqual(await stats(250), { due: 2, claimed: 0, scheduled: 2, nextAvailableAt: 100 });
        // Claimed at 1000 for 100 ms: held until 1100, then due again (its engine died).
        await store.claimWork('e1', 1000, 2, 100);
        assert.deepEqual(await stats(1000), { due: 1, claimed: 2, scheduled: 1, nextAvailableAt: 300 });
        assert.deepEqual(await stats(1200), { due: 3, claimed: 0, scheduled: 1, nextAvailableAt: 300 });
        // A parked item waits for its event: scheduled, not due, until its deadline.
        const [parked] = await store.claimWork('e1', 1200, 1, LEASE);
        await store.tx((tx) => tx.work.reschedule(parked!, 9000, null, 'stack:x'));
        assert.deepEqual(await stats(1200), { due: 2, claimed: 0, scheduled: 2, nextAvailableAt: 1100 });
      }));

    it('signalQueuedBefore: an earlier signal item of the same node, and only signal items', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.work.enqueue([
            work('sig-1', 's1', 'signal:7', { kind: 'signal' }),
            work('t1', 's1', 'signal:8'),
            work('sig-2', 's1', 'signal:7', { kind: 'signal' }),
            work('sig-3', 's1', 'signal:8', { kind: 'signal' }),
          ]),
        );
        const id = async (t: string) => (await store.tx((tx) => tx.work.listForTraversal(t)))[0]!.id;
        const [first, second, other] = [await id('sig-1'), await id('sig-2'), await id('sig-3')];
        const before = (node: string, item: number) =>
          store.tx((tx) => tx.work.signalQueuedBefore(node, item));
        assert.equal(await before('signal:7', first), false);
        assert.equal(await before('signal:7', second), true);
        assert.equal(await before('signal:8', other), false, 'a non-signal item of that node does not count');
        await store.tx((tx) => tx.work.deleteForTraversal('sig-1'));
        assert.equal(await before('signal:7', second), false, 'its turn once the earlier one is done');
      }));

    it('counts a stack’s items and deletes a traversal’s', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.work.enqueue([
            work('t1', 's1', 'a'),
            work('t1', 's1', 'b'),
            work('t2', 's1', 'c'),
            work('t9', 's9', 'd'),
          ]),
        );
        await store.claimWork('e1', 0, 1, LEASE);
        assert.equal(await store.tx((tx) => tx.work.countForStack('s1')), 3, 'queued or running');
        await store.tx((tx) => tx.work.deleteForTraversal('t1'));
        assert.equal(await store.tx((tx) => tx.work.countForStack('s1')), 1);
        assert.equal(await store.tx((tx) => tx.work.countForStack('nope')), 0);
      }));

    it('concurrent claimers of one store never share an item', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.work.enqueue(Array.from({ length: 200 }, (_, i) => work('t1', 's1', `u:${i}`))),
        );
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) => store.claimWork(`e${i}`, 1000, 30, LEASE)),
        );
        const ids = claims.flat().map((w) => w.id);
        assert.equal(ids.length, 200);
        assert.equal(new Set(ids).size, 200);
      }));

    if (options.openPair) {
      const openPair = options.openPair;
      it('two stores on one database never claim the same item', async () => {
        const [a, b] = await openPair();
        try {
          await a.tx((tx) =>
            tx.work.enqueue(Array.from({ length: 500 }, (_, i) => work('t1', 's1', `u:${i}`))),
          );
          const claimed: number[][] = [[], []];
          const drain = async (store: Store, into: number[], engine: string) => {
            while (true) {
              const items = await store.claimWork(engine, 1000, 7, LEASE);
              if (items.length === 0) return;
              into.push(...items.map((w) => w.id));
            }
          };
          await Promise.all([drain(a, claimed[0]!, 'a'), drain(b, claimed[1]!, 'b')]);
          const all = [...claimed[0]!, ...claimed[1]!];
          assert.equal(all.length, 500);
          assert.equal(new Set(all).size, 500);
          assert.ok(claimed[0]!.length > 0 && claimed[1]!.length > 0, 'both claimed some');
        } finally {
          await a.close();
          await b.close();
        }
      });
    }
  });
}
