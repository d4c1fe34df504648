import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SAMPLE_TEMPLATE } from './harness.js';
import { openstack, openstackSkip, type ServeProcess, startNoauthServe } from './serve-process.js';

// The real openstack client against `hearth serve`: what its parsing of these routes needs.
describe('openstack client: resources, events and outputs', { skip: await openstackSkip() }, () => {
  let server: ServeProcess;
  before(async () => {
    server = await startNoauthServe();
    const api = `${server.url}/v1/admin`;
    const created = await fetch(`${api}/stacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stack_name: 'sample', template: SAMPLE_TEMPLATE }),
    });
    assert.equal(created.status, 201, await created.text());
    // The server's own workers run the create.
    for (let status = ''; status !== 'CREATE_COMPLETE';) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const shown = (await (await fetch(`${api}/stacks/sample`)).json()) as {
        stack: { stack_status: string };
      };
      status = shown.stack.stack_status;
      assert.ok(!status.endsWith('FAILED'), status);
    }
  });
  after(() => server?.stop());

  // Each run of the client takes seconds to start: they run at once, the tests read their outputs.
  const runs = new Map<string, Promise<unknown>>();
  const json = (...args: string[]) => {
    const key = args.join(' ');
    if (!runs.has(key))
      runs.set(
        key,
        openstack(server, [...args, '-f', 'json']).then((out) => JSON.parse(out)),
      );
    return runs.get(key)!;
  };
  const COMMANDS = [
    ['stack', 'resource', 'list', 'sample'],
    ['stack', 'resource', 'show', 'sample', 'r1'],
    ['stack', 'event', 'list', 'sample'],
    ['stack', 'output', 'show', 'sample', 'out'],
    ['stack', 'output', 'show', 'sample', '--all'],
  ];
  before(() => Promise.all(COMMANDS.map((args) => json(...args))));

  it('stack resource list and show', async () => {
    const list = (await json('stack', 'resource', 'list', 'sample')) as Record<string, string>[];
    assert.deepEqual(list.map((r) => [r.resource_name, r.resource_status]).sort(), [
      ['r1', 'CREATE_COMPLETE'],
      ['r2', 'CREATE_COMPLETE'],
    ]);
    const r1 = (await json('stack', 'resource', 'show', 'sample', 'r1')) as Record<string, unknown>;
    assert.deepEqual(r1.attributes, { output: 'one' });
    assert.deepEqual(r1.required_by, ['r2']);
  });

  it('stack event list, oldest first as the client asks', async () => {
    const events = (await json('stack', 'event', 'list', 'sample')) as Record<string, string>[];
    assert.equal(events.length, 6);
    assert.deepEqual(
      [events[0]!.resource_name, events[0]!.resource_status, events.at(-1)!.resource_status],
      ['sample', 'CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
    );
  });

  it('stack output show, one and --all', async () => {
    const out = (await json('stack', 'output', 'show', 'sample', 'out')) as Record<string, string>;
    assert.deepEqual(out, { output_key: 'out', description: 'r2 output', output_value: 'one' });
    const all = (await json('stack', 'output', 'show', 'sample', '--all')) as Record<string, string>;
    assert.deepEqual(JSON.parse(all.out!), out);
  });
});
