import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeatApiError } from '../../src/client/errors.js';
import type { HeatClient } from '../../src/client/heat-client.js';
import type { EventQuery, HeatEvent, HeatStack } from '../../src/client/types.js';
import { eventMark, pollStack } from '../../src/cli/backends/remote-wait.js';
import { StackFailed } from '../../src/cli/errors.js';

// The remote --wait against a scripted server: which stack each poll sees, which events are new.

const STACK = { name: 's', id: 'id-1' };

function stack(status: string, extra: Partial<HeatStack> = {}): HeatStack {
  return {
    stack_name: 's',
    id: 'id-1',
    stack_status: status,
    stack_status_reason: 'why',
    disable_rollback: true,
    ...extra,
  } as HeatStack;
}

function event(id: string, resource: string, status: string): HeatEvent {
  return {
    id,
    links: [],
    event_time: '2026-01-01T00:00:00Z',
    logical_resource_id: resource,
    resource_name: resource,
    physical_resource_id: '',
    resource_status: status,
    resource_status_reason: 'state changed',
  };
}

/** A client whose stack goes through `shown` (one per poll; undefined: gone) with all of `events`. */
function scripted(shown: (HeatStack | undefined)[], events: HeatEvent[] | 'no route') {
  const queries: EventQuery[] = [];
  const shows: unknown[] = [];
  let poll = 0;
  const client = {
    async showStack(_stack: unknown, options?: unknown) {
      shows.push(options);
      const s = shown[Math.min(poll++, shown.length - 1)];
      if (!s) throw new HeatApiError(404, 'EntityNotFound', 'The Stack (s) could not be found.');
      return s;
    },
    async listEvents(_stack: unknown, query: EventQuery = {}) {
      queries.push(query);
      if (events === 'no route') throw new HeatApiError(404, 'HTTPNotFound', 'No route for GET ...');
      const after = query.marker ? events.findIndex((e) => e.id === query.marker) + 1 : 0;
      // Only what had happened by this poll: the first event, then one more each poll.
      const seen = events.slice(after, Math.max(after, poll + 1));
      return query.sort_dir === 'desc' ? seen.reverse().slice(0, query.limit ?? seen.length) : seen;
    },
  };
  return { client: client as unknown as HeatClient, queries, shows };
}

const PLAIN = { tty: false, failOnFailure: true };

describe('remote --wait (pollStack)', () => {
  it('prints each new event once (asking after the last one seen) and a line per status', async () => {
    const events = [
      event('e1', 'r', 'CREATE_IN_PROGRESS'),
      event('e2', 'r', 'CREATE_COMPLETE'),
      event('e3', 's', 'CREATE_COMPLETE'),
    ];
    const { client, queries } = scripted(
      [stack('CREATE_IN_PROGRESS'), stack('CREATE_IN_PROGRESS'), stack('CREATE_COMPLETE')],
      events,
    );
    let out = '';
    const final = await pollStack(
      client,
      STACK,
      { marker: undefined, available: true },
      (s) => (out += s),
      PLAIN,
      {
        intervalMs: 1,
      },
    );
    assert.equal(final?.stack_status, 'CREATE_COMPLETE');
    const lines = out.trimEnd().split('\n');
    assert.deepEqual(
      lines.filter((l) => l.includes('[')),
      [
        '2026-01-01T00:00:00Z [r]: CREATE_IN_PROGRESS  state changed',
        '2026-01-01T00:00:00Z [r]: CREATE_COMPLETE  state changed',
        '2026-01-01T00:00:00Z [s]: CREATE_COMPLETE  state changed',
      ],
    );
    assert.deepEqual(
      lines.filter((l) => l.startsWith('Status:')).map((l) => l.replace(/ \(.*\)$/, '')),
      ['Status: CREATE_IN_PROGRESS', 'Status: CREATE_COMPLETE'],
    );
    assert.deepEqual(
      queries.map((q) => q.marker),
      [undefined, 'e2', 'e3'],
    );
  });

  it('asks for the stack without its outputs (resolving them reads every resource)', async () => {
    const { client, shows } = scripted([stack('CREATE_IN_PROGRESS'), stack('CREATE_COMPLETE')], []);
    await pollStack(client, STACK, { marker: undefined, available: true }, () => {}, PLAIN, {
      intervalMs: 1,
    });
    assert.equal(shows.length, 2);
    for (const options of shows) assert.deepEqual(options, { resolveOutputs: false });
  });

  it('starts after the mark taken before the operation', async () => {
    const events = [event('old', 's', 'CREATE_COMPLETE'), event('new', 's', 'UPDATE_IN_PROGRESS')];
    const { client } = scripted([stack('UPDATE_COMPLETE')], events);
    assert.deepEqual(await eventMark(client, STACK), { marker: 'old', available: true });
    let out = '';
    await pollStack(client, STACK, { marker: 'old', available: true }, (s) => (out += s), PLAIN, {
      intervalMs: 1,
    });
    assert.doesNotMatch(out, /CREATE_COMPLETE/);
    assert.match(out, /\[s\]: UPDATE_IN_PROGRESS/);
  });

  it('without an events route shows the status only', async () => {
    const { client } = scripted([stack('CHECK_IN_PROGRESS'), stack('CHECK_COMPLETE')], 'no route');
    assert.deepEqual(await eventMark(client, STACK), { marker: undefined, available: false });
    let out = '';
    await pollStack(client, STACK, { marker: undefined, available: false }, (s) => (out += s), PLAIN, {
      intervalMs: 1,
    });
    assert.match(out, /^Status: CHECK_IN_PROGRESS \(\d+\.\ds\)\nStatus: CHECK_COMPLETE \(\d+\.\ds\)\n$/);
  });

  it('ends when the stack is gone (a delete), and throws StackFailed for FAILED when asked', async () => {
    const gone = scripted([stack('DELETE_IN_PROGRESS'), undefined], []);
    let out = '';
    const final = await pollStack(
      gone.client,
      STACK,
      { marker: undefined, available: true },
      (s) => (out += s),
      PLAIN,
      {
        intervalMs: 1,
      },
    );
    assert.equal(final, undefined);
    assert.match(out, /Status: gone \(deleted\)/);

    const failed = scripted([stack('UPDATE_FAILED')], []);
    await assert.rejects(
      pollStack(failed.client, STACK, { marker: undefined, available: true }, () => {}, PLAIN, {
        intervalMs: 1,
      }),
      (err: unknown) => err instanceof StackFailed && err.message === 'UPDATE_FAILED: why',
    );
    const shown = await pollStack(failed.client, STACK, { marker: undefined, available: true }, () => {}, {
      tty: false,
      failOnFailure: false,
    });
    assert.equal(shown?.stack_status, 'UPDATE_FAILED');
  });

  it('waits for the rollback a failed update of a stack with rollback enabled starts', async () => {
    const rollsBack = { disable_rollback: false };
    const { client } = scripted(
      [
        stack('UPDATE_FAILED', rollsBack),
        stack('UPDATE_FAILED', rollsBack),
        stack('ROLLBACK_IN_PROGRESS', rollsBack),
        stack('ROLLBACK_COMPLETE', rollsBack),
      ],
      [],
    );
    const final = await pollStack(client, STACK, { marker: undefined, available: true }, () => {}, PLAIN, {
      intervalMs: 1,
    });
    assert.equal(final?.stack_status, 'ROLLBACK_COMPLETE');
  });
});
