import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_SAMPLES } from '../support/shared.js';
import { openstack, openstackSkip, type ServeProcess, startNoauthServe } from './serve-process.js';

// The real `openstack stack adopt` against `hearth serve`, with the document a real Heat printed.
// Adopt is off by default (as Heat): the server, a child of this process, is told to allow it.
process.env.HEARTH_ENABLE_STACK_ADOPT = 'true';
describe('openstack client: stack adopt', { skip: await openstackSkip() }, () => {
  let server: ServeProcess;
  before(async () => {
    server = await startNoauthServe();
  });
  after(() => server?.stop());

  const json = async <T>(...args: string[]): Promise<T> => {
    const out = await openstack(server, [...args, '-f', 'json']);
    // --wait prints the events it saw before the JSON.
    return JSON.parse(out.slice(out.search(/^[[{]/m))) as T;
  };
  const outputs = async () =>
    Object.fromEntries(
      Object.entries(await json<Record<string, string>>('stack', 'output', 'show', '--all', 'os')).map(
        ([k, v]) => [k, (JSON.parse(v) as { output_value: unknown }).output_value],
      ),
    );

  it('adopts, waits for ADOPT_COMPLETE, shows the outputs, updates and deletes', async () => {
    const file = join(API_SAMPLES, 'abandon-document.json');
    const adopted = await json<{ stack_status: string }>(
      'stack',
      'adopt',
      'os',
      '--adopt-file',
      file,
      '--wait',
    );
    assert.equal(adopted.stack_status, 'ADOPT_COMPLETE');
    assert.deepEqual(await outputs(), { out: 'one', member: 'm-one-U2TEtD' });
    const resources = await json<{ resource_name: string; physical_resource_id: string }[]>(
      'stack',
      'resource',
      'list',
      'os',
    );
    const ids = Object.fromEntries(resources.map((r) => [r.resource_name, r.physical_resource_id]));
    assert.equal(ids.t1, 'abandon-me-t1-hqk4qhlvhjmv');
    assert.equal(ids.rs, 'abandon-me-rs-dnaz5onlnmuz');

    await openstack(server, ['stack', 'update', 'os', '--existing', '--parameter', 'v=two', '--wait']);
    assert.deepEqual(await outputs(), { out: 'two', member: 'm-two-U2TEtD' });
    await openstack(server, ['stack', 'delete', 'os', '--yes', '--wait']);
    assert.deepEqual(await json<unknown[]>('stack', 'list'), []);
  });
});
