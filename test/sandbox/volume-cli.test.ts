import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';

// The real openstack client (cinderclient underneath) against the sandbox's Cinder: evidence the
// wire format is the real one. A few invocations only: each costs about a second and a half.

const run = promisify(execFile);
const available = spawnSync('openstack', ['--version'], { encoding: 'utf8' }).status === 0;
const skip = !available && process.env.CI !== 'true' ? 'the openstack client is not installed' : false;

describe('the real openstack client against the sandbox’s Cinder', { skip }, () => {
  let app: FastifyInstance;
  let env: Record<string, string>;

  before(async () => {
    ({ app } = createSandbox({ noise: { bootDelayMs: 0 } }));
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    env = {
      PATH: process.env.PATH ?? '',
      HOME: mkdtempSync(join(tmpdir(), 'hearth-volume-cli-')),
      OS_AUTH_URL: `${address}/identity/v3`,
      OS_USERNAME: 'demo',
      OS_PASSWORD: 'demo',
      OS_PROJECT_NAME: 'demo',
      OS_USER_DOMAIN_NAME: 'Default',
      OS_PROJECT_DOMAIN_NAME: 'Default',
      OS_IDENTITY_API_VERSION: '3',
    };
  });
  after(() => app.close());

  async function openstack(...args: string[]): Promise<string> {
    try {
      const { stdout } = await run('openstack', args, { env, timeout: 60_000 });
      return stdout;
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      assert.fail(`openstack ${args.join(' ')} failed: ${e.message}\n${e.stderr ?? ''}\n${e.stdout ?? ''}`);
    }
  }
  const json = async <T>(...args: string[]) => JSON.parse(await openstack(...args, '-f', 'json')) as T;

  it('creates, lists, shows, renames and deletes a volume', async () => {
    const created = await json<{ id: string; name: string; size: number }>(
      'volume',
      'create',
      '--size',
      '1',
      'v1',
    );
    assert.equal(created.name, 'v1');
    assert.equal(created.size, 1);

    const listed = await json<{ ID: string; Name: string; Status: string; Size: number }[]>('volume', 'list');
    assert.deepEqual(
      listed.map((v) => [v.ID, v.Name, v.Status, v.Size]),
      [[created.id, 'v1', 'available', 1]],
    );

    await openstack('volume', 'set', '--name', 'v2', 'v1');
    const shown = await json<{ id: string; name: string; status: string; bootable: string }>(
      'volume',
      'show',
      'v2',
    );
    assert.equal(shown.id, created.id);
    assert.equal(shown.status, 'available');
    assert.equal(shown.bootable, 'false');

    await openstack('volume', 'delete', 'v2');
    const after = await json<unknown[]>('volume', 'list');
    assert.deepEqual(after, []);
  });
});
