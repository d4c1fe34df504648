import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cancelStack } from '../../src/engine/operations/lifecycle.js';
import { retryDelayMs } from '../../src/engine/nodes/retry.js';
import type { EngineDeps } from '../../src/engine/core/deps.js';
import type { EventRecord, Tx } from '../../src/store/contract.js';
import { Harness, type HarnessOptions } from './harness.js';

// Heat's action_retry_limit: a create failing with ResourceInError is deleted and made again after
// a backoff; a delete failing so is made again. The harness's reality fails creates on demand
// (the object goes to status ERROR) and refuses deletes (a conflict).

const T = 'OS::Heat::TestResource';

const TEMPLATE = `heat_template_version: 2018-08-31
parameters:
  word: {type: string, default: hello}
resources:
  server: {type: ${T}, properties: {value: {get_param: word}}}
  after: {type: ${T}, properties: {value: {get_attr: [server, output]}}}
`;

async function harness(options: HarnessOptions = { actionRetryLimit: 5 }): Promise<Harness> {
  return Harness.create(options);
}

async function events(h: Harness, resourceName: string): Promise<EventRecord[]> {
  const stack = await h.stack('s');
  return h.deps.store.tx((tx) => tx.events.list(stack.id, { resourceName }));
}

/** Events as `ACTION_STATUS reason`, for comparing sequences. */
async function eventLines(h: Harness, resourceName: string): Promise<string[]> {
  return (await events(h, resourceName)).map((e) => `${e.action}_${e.status} ${e.reason}`);
}

async function row(h: Harness, name: string) {
  return (await h.rows('s')).find((r) => r.name === name)!;
}

/** The objects ever made for the resource (the reality names them `<stack>-<resource>-<id>`). */
function madeFor(h: Harness, name: string) {
  return h.reality.created.filter((o) => o.id.startsWith(`s-${name}-`));
}

/** The event lines of a create that fails `failures` times, then succeeds, with a limit of `limit`. */
function retriedCreate(ids: string[], failures: number, limit: number): string[] {
  const lines = ['CREATE_IN_PROGRESS state changed'];
  for (let i = 0; i < failures; i++) {
    lines.push(
      `CREATE_FAILED ResourceInError: resources.server: Went to status ERROR due to "Unknown" (${T} ${ids[i]})`,
      `DELETE_IN_PROGRESS Deleting what the failed create made, before retry ${i + 1}`,
      'DELETE_COMPLETE state changed',
      `CREATE_IN_PROGRESS Retrying CREATE (retry ${i + 1} of ${limit})`,
    );
  }
  return [...lines, 'CREATE_COMPLETE state changed'];
}

describe('action_retry_limit: retries of failed resource actions', () => {
  it('a create that fails twice, then succeeds: COMPLETE, one live object, the failed ones deleted', async () => {
    const h = await harness();
    h.reality.failCreates(2);
    await h.create('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');

    const server = await row(h, 'server');
    assert.equal(`${server.action}_${server.status}`, 'CREATE_COMPLETE');
    assert.equal(server.createRetries, 2);
    const made = madeFor(h, 'server');
    assert.deepEqual(
      made.map((o) => [o.key, o.status]),
      [
        [server.uuid, 'ERROR'],
        [`${server.uuid}/retry-1`, 'ERROR'],
        [`${server.uuid}/retry-2`, 'ACTIVE'],
      ],
      'each attempt has its own idempotency key',
    );
    const live = h.reality.list().filter((o) => o.id.startsWith('s-server-'));
    assert.deepEqual(
      live.map((o) => o.id),
      [made[2]!.id],
    );
    assert.equal(server.physicalId, made[2]!.id);
    assert.equal((await row(h, 'after')).attributes.output, 'hello', 'dependents ran after the retry');

    const lines = await eventLines(h, 'server');
    assert.deepEqual(
      lines,
      retriedCreate(
        made.map((o) => o.id),
        2,
        5,
      ),
    );
    // Heat's backoff: retry n waits 2^n s plus up to 2 s.
    const all = await events(h, 'server');
    const waited = (i: number) => Date.parse(all[i]!.createdAt) - Date.parse(all[i - 1]!.createdAt);
    const retryStarts = all.flatMap((e, i) => (e.reason.startsWith('Retrying') ? [i] : []));
    assert.equal(retryStarts.length, 2);
    const [first, second] = retryStarts.map(waited);
    assert.ok(first! >= 2000 && first! < 4000, `first backoff ${first}`);
    assert.ok(second! >= 4000 && second! < 6000, `second backoff ${second}`);
  });

  it('a create that keeps failing ends CREATE_FAILED after limit+1 attempts, with the last reason', async () => {
    const h = await harness({ actionRetryLimit: 3 });
    h.reality.failCreates(100);
    await h.create('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');

    const made = madeFor(h, 'server');
    assert.equal(made.length, 4, 'limit + 1 attempts');
    const last = `ResourceInError: resources.server: Went to status ERROR due to "Unknown" (${T} ${made[3]!.id})`;
    const server = await row(h, 'server');
    assert.equal(`${server.action}_${server.status}`, 'CREATE_FAILED');
    assert.equal(server.reason, last);
    assert.equal(server.createRetries, 3);
    assert.equal((await h.stack('s')).reason, `Resource CREATE failed: ${last}`);
    assert.equal((await row(h, 'after')).action, 'INIT', 'a dependent of a failed resource never starts');
    const lines = await eventLines(h, 'server');
    assert.equal(lines.filter((l) => l.startsWith('CREATE_FAILED')).length, 4);
    assert.equal(lines.at(-1), `CREATE_FAILED ${last}`);
    // The attempts that were retried were deleted; the last one's object stays until the stack goes.
    assert.deepEqual(
      h.reality.list().map((o) => o.id),
      [made[3]!.id],
    );
    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(h.reality.list(), [], 'found by its key, though its create never returned an id');
  });

  it('with action_retry_limit 0 a failed create fails at once', async () => {
    const h = await harness({ actionRetryLimit: 0 });
    h.reality.failCreates(1);
    await h.create('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.equal(madeFor(h, 'server').length, 1);
    const made = madeFor(h, 'server')[0]!;
    assert.deepEqual(await eventLines(h, 'server'), [
      'CREATE_IN_PROGRESS state changed',
      `CREATE_FAILED ResourceInError: resources.server: Went to status ERROR due to "Unknown" (${T} ${made.id})`,
    ]);
  });

  it('other failures are not retried (TestResource fail: true, as in Heat)', async () => {
    const h = await harness();
    await h.create(
      's',
      `heat_template_version: 2018-08-31\nresources:\n  server: {type: ${T}, properties: {fail: true}}\n`,
    );
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.deepEqual(await eventLines(h, 'server'), [
      'CREATE_IN_PROGRESS state changed',
      'CREATE_FAILED ValueError: resources.server: Test Resource failed server',
    ]);
  });

  it('a crash at any moment neither adds attempts nor duplicates objects or events', async () => {
    const reference = await harness();
    reference.reality.failCreates(2);
    await reference.create('s', TEMPLATE);
    const count = countTransactions(reference);
    await reference.settle();
    const total = count();
    assert.ok(total > 10, `${total} transactions`);

    for (let n = 0; n < total; n++) {
      for (const when of ['before', 'after'] as const) {
        const h = await harness();
        h.reality.failCreates(2);
        await h.create('s', TEMPLATE);
        const crashed = crashAt(h, n, when);
        await h.settle();
        const where = `crash ${when} transaction ${n}`;
        assert.ok(crashed(), where);
        assert.equal(await h.status('s'), 'CREATE_COMPLETE', where);
        const server = await row(h, 'server');
        assert.equal(server.createRetries, 2, where);
        const made = madeFor(h, 'server');
        assert.equal(made.length, 3, `${where}: one object per attempt`);
        const live = h.reality.list().filter((o) => o.id.startsWith('s-server-'));
        assert.deepEqual(
          live.map((o) => o.id),
          [server.physicalId],
          where,
        );
        // A resumed step announces its IN_PROGRESS again, as any resumed operation does.
        const lines = (await eventLines(h, 'server')).filter((l, i, all) => l !== all[i - 1]);
        const ids = made.map((o) => o.id);
        assert.deepEqual(lines, retriedCreate(ids, 2, 5), where);
      }
    }
  });

  it('the delete before a retry is retried too when it is refused', async () => {
    const h = await harness();
    h.reality.failCreates(1);
    h.reality.failDeletes(1);
    await h.create('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const [failed] = madeFor(h, 'server');
    assert.deepEqual(await eventLines(h, 'server'), [
      'CREATE_IN_PROGRESS state changed',
      `CREATE_FAILED ResourceInError: resources.server: Went to status ERROR due to "Unknown" (${T} ${failed!.id})`,
      'DELETE_IN_PROGRESS Deleting what the failed create made, before retry 1',
      `DELETE_FAILED ResourceInError: resources.server: ${T} ${failed!.id} cannot be deleted now (conflict)`,
      'DELETE_IN_PROGRESS Retrying DELETE (retry 1 of 5)',
      'DELETE_COMPLETE state changed',
      'CREATE_IN_PROGRESS Retrying CREATE (retry 1 of 5)',
      'CREATE_COMPLETE state changed',
    ]);
    assert.equal(h.reality.list().filter((o) => o.id.startsWith('s-server-')).length, 1);
  });

  it('the create of a replacement is retried', async () => {
    const h = await harness();
    const replaceable = (v: string) =>
      `heat_template_version: 2018-08-31\nresources:\n  server: {type: ${T}, properties: {update_replace_value: ${v}}}\n`;
    await h.create('s', replaceable('one'));
    await h.settle();
    h.reality.failCreates(1);
    await h.update('s', replaceable('two'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const rows = await h.rows('s');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.createRetries, 1);
    assert.deepEqual(
      h.reality.list().map((o) => o.id),
      [rows[0]!.physicalId],
    );
    assert.equal(h.reality.created.length, 3, 'the original, the failed replacement, its retry');
  });

  it('a stack delete retries a refused delete; with limit 0 it fails at once', async () => {
    for (const limit of [5, 0]) {
      const h = await harness({ actionRetryLimit: limit });
      await h.create('s', `heat_template_version: 2018-08-31\nresources:\n  server: {type: ${T}}\n`);
      await h.settle();
      h.reality.failDeletes(2);
      await h.delete('s');
      await h.settle();
      const lines = await eventLines(h, 'server');
      if (limit === 0) {
        assert.equal(await h.status('s'), 'DELETE_FAILED');
        assert.match(lines.at(-1)!, /^DELETE_FAILED ResourceInError: resources\.server: .*conflict/);
        continue;
      }
      assert.equal(await h.status('s'), 'DELETE_COMPLETE');
      assert.deepEqual(h.reality.list(), []);
      assert.deepEqual(
        lines.slice(2).map((l) => l.replace(/: .*/, '')),
        [
          'DELETE_IN_PROGRESS state changed',
          'DELETE_FAILED ResourceInError',
          'DELETE_IN_PROGRESS Retrying DELETE (retry 1 of 5)',
          'DELETE_FAILED ResourceInError',
          'DELETE_IN_PROGRESS Retrying DELETE (retry 2 of 5)',
          'DELETE_COMPLETE state changed',
        ],
      );
    }
  });

  it('the stack timeout ends a retrying create on time', async () => {
    const h = await harness({ actionRetryLimit: 10, stackActionTimeout: 60 });
    h.reality.failCreates(100);
    const started = h.clock.t;
    await h.create('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.equal((await h.stack('s')).reason, 'Timed out');
    // Backoffs of 2, 4, 8, 16 and 32 s (plus jitter) pass the 60 s: five or six attempts, not eleven.
    const attempts = madeFor(h, 'server').length;
    assert.ok(attempts >= 5 && attempts <= 6, `${attempts} attempts`);
    assert.ok(h.clock.t <= started + 61_000, 'the wait was cut short by the timeout');
  });

  it('a newer traversal does not wait for a retry’s backoff; the waiting unit stops', async () => {
    const h = await harness();
    h.reality.failCreates(1);
    await h.create('s', TEMPLATE);
    const retryAt = await backingOff(h);
    await h.update('s', TEMPLATE, { parameters: { word: 'newer' } });
    while ((await h.status('s')) === 'UPDATE_IN_PROGRESS') await h.round();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.ok(h.clock.t < retryAt, 'done before the backoff ended');
    await h.settle();
    const server = await row(h, 'server');
    assert.equal(server.createRetries, 0, 'the newer traversal made a replacement, not a retry');
    assert.equal(madeFor(h, 'server').length, 2);
    assert.deepEqual(
      h.reality
        .list()
        .filter((o) => o.id.startsWith('s-server-'))
        .map((o) => o.properties.value),
      ['newer'],
    );
  });

  it('a cancel stops a retry waiting out its backoff', async () => {
    const h = await harness();
    h.reality.failCreates(1);
    await h.create('s', TEMPLATE);
    await backingOff(h);
    await cancelStack(h.deps, (await h.stack('s')).id, { rollback: false });
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_FAILED');
    assert.equal(madeFor(h, 'server').length, 1, 'no attempt after the cancel');
    assert.deepEqual(h.reality.list(), []);
    assert.equal((await row(h, 'server')).status, 'FAILED');
  });

  it('backoff: 2^n seconds plus up to 2 s of jitter, capped, scaled by actionRetryBackoffMs', () => {
    const deps = (random: number, scale?: number) =>
      ({
        random: () => random,
        settings: { actionRetryBackoffMs: scale },
      }) as unknown as EngineDeps;
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => retryDelayMs(deps(0), n)),
      [2000, 4000, 8000, 16000, 32000],
    );
    assert.equal(retryDelayMs(deps(0.5), 1), 3000);
    assert.equal(retryDelayMs(deps(0), 40), 300_000);
    assert.equal(retryDelayMs(deps(0.5, 10), 3), 90);
  });
});

/** Runs rounds until the server's create waits out its first backoff; returns when it will retry. */
async function backingOff(h: Harness): Promise<number> {
  for (let i = 0; i < 20; i++) {
    await h.engine.worker.runDue(10_000);
    const server = await row(h, 'server');
    if (server.status === 'FAILED' && server.action === 'CREATE' && server.engineId === null) {
      const stack = await h.stack('s');
      const items = await h.deps.store.tx((tx) => tx.work.listForTraversal(stack.traversalId));
      const waiting = items.find((w) => (w.payload as { phase?: string }).phase === 'retry');
      assert.ok(waiting, 'a unit waits for the retry');
      assert.ok(waiting.runAt > h.clock.t + 1000);
      return waiting.runAt;
    }
  }
  throw new Error('the create never backed off');
}

/** Counts the store's transactions from now on. */
function countTransactions(h: Harness): () => number {
  const store = h.deps.store;
  const tx = store.tx.bind(store);
  let n = 0;
  store.tx = <T>(fn: (t: Tx) => Promise<T>) => {
    n++;
    return tx(fn);
  };
  return () => n;
}

/**
 * A crash of the unit running the `n`-th transaction from now: before it (nothing committed) or
 * right after it commits. Either way the unit's step is lost and the worker runs it again later.
 */
function crashAt(h: Harness, n: number, when: 'before' | 'after'): () => boolean {
  const store = h.deps.store;
  const tx = store.tx.bind(store);
  let count = 0;
  let crashed = false;
  store.tx = async <T>(fn: (t: Tx) => Promise<T>): Promise<T> => {
    const mine = count++ === n;
    if (mine && when === 'before') {
      crashed = true;
      throw new Error('crash before the transaction');
    }
    const result = await tx(fn);
    if (mine) {
      crashed = true;
      throw new Error('crash after the transaction');
    }
    return result;
  };
  return () => crashed;
}
