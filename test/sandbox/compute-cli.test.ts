import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { computeRig, type ComputeRig } from './compute-fakes.js';
import { OPENSTACK_CLIENT_SKIP, openstackClient } from './support.js';

// The real openstack client against the sandbox's Nova (identity and images real, Neutron and
// Cinder faked): evidence the wire format is what the client expects. Each call costs ~1.5 s.

describe('the real openstack client against the sandbox compute API', { skip: OPENSTACK_CLIENT_SKIP }, () => {
  let rig: ComputeRig;
  let client: (...args: string[]) => Promise<string>;
  let home: string;

  before(async () => {
    rig = await computeRig({ noise: { bootDelayMs: 0 } });
    // The client's clock and the sandbox's must agree (token expiry).
    rig.clock.now = Date.now();
    const url = await rig.app.listen({ host: '127.0.0.1', port: 0 });
    client = openstackClient(url);
    home = mkdtempSync(join(tmpdir(), 'hearth-compute-cli-'));
  });
  after(async () => {
    await rig?.app.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  async function openstack<T>(...args: string[]): Promise<T> {
    const stdout = await client(...args);
    return (stdout.trim() === '' ? undefined : JSON.parse(stdout)) as T;
  }

  it('lists flavors, creates a key pair, and creates, lists, shows and deletes a server', async () => {
    const flavors = await openstack<{ Name: string; RAM: number }[]>('flavor', 'list', '-f', 'json');
    assert.deepEqual(
      flavors.map((f) => [f.Name, f.RAM]),
      [
        ['m1.tiny', 512],
        ['m1.small', 2048],
        ['m1.medium', 4096],
        ['m1.large', 8192],
      ],
    );
    // The sandbox generates the key; the client writes its private half to a file.
    const privateFile = join(home, 'k1.pem');
    const key = await openstack<{ name: string; fingerprint: string }>(
      'keypair',
      'create',
      '--private-key',
      privateFile,
      'k1',
      '-f',
      'json',
    );
    assert.match(readFileSync(privateFile, 'utf8'), /^-----BEGIN RSA PRIVATE KEY-----/);
    assert.equal(key.name, 'k1');
    assert.match(key.fingerprint, /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);

    // --nic none needs 2.37; the client finds the image in Glance and the flavor by name in Nova.
    const created = await openstack<Record<string, unknown>>(
      '--os-compute-api-version',
      '2.37',
      'server',
      'create',
      '--image',
      'cirros-0.6.2-x86_64-disk',
      '--flavor',
      'm1.tiny',
      '--nic',
      'none',
      '--key-name',
      'k1',
      '-f',
      'json',
      'vm1',
    );
    assert.equal(created.name, 'vm1');
    assert.equal(created.key_name, 'k1');
    assert.equal(created.flavor, 'm1.tiny (1)');
    assert.match(String(created.image), /^cirros-0\.6\.2-x86_64-disk \(/);
    const listed = await openstack<{ ID: string; Name: string; Status: string }[]>(
      'server',
      'list',
      '-f',
      'json',
    );
    assert.deepEqual(listed, [
      {
        ID: created.id,
        Name: 'vm1',
        Status: 'ACTIVE',
        Networks: {},
        Image: 'cirros-0.6.2-x86_64-disk',
        Flavor: 'm1.tiny',
      },
    ]);
    const shown = await openstack<Record<string, unknown>>('server', 'show', 'vm1', '-f', 'json');
    assert.equal(shown.status, 'ACTIVE');
    assert.equal(shown['OS-EXT-STS:vm_state'], 'active');
    await openstack('server', 'delete', '--wait', 'vm1');
    assert.deepEqual(await openstack('server', 'list', '-f', 'json'), []);
  });

  it('tags a server (2.52, 2.26) and shows its noVNC console (remote consoles, 2.6)', async () => {
    const created = await openstack<{ id: string; tags: string[] }>(
      '--os-compute-api-version',
      '2.52',
      'server',
      'create',
      '--image',
      'cirros-0.6.2-x86_64-disk',
      '--flavor',
      'm1.tiny',
      '--nic',
      'none',
      '--tag',
      'web',
      '-f',
      'json',
      'vm2',
    );
    assert.deepEqual(created.tags, ['web']);
    await openstack('--os-compute-api-version', '2.26', 'server', 'set', '--tag', 'blue', 'vm2');
    const shown = await openstack<{ tags: string[] }>(
      '--os-compute-api-version',
      '2.26',
      'server',
      'show',
      'vm2',
      '-f',
      'json',
    );
    assert.deepEqual([...shown.tags].sort(), ['blue', 'web']);
    const console = await openstack<{ type: string; url: string }>(
      '--os-compute-api-version',
      '2.6',
      'console',
      'url',
      'show',
      'vm2',
      '-f',
      'json',
    );
    assert.equal(console.type, 'novnc');
    assert.match(console.url, /vnc_lite\.html\?path=%3Ftoken%3D/);
    await openstack('server', 'delete', '--wait', 'vm2');
  });
});
