import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { OPENSTACK_CLIENT_SKIP, openstackClient, sandboxCloud } from '../sandbox/support.js';
import { CORPUS } from '../support/shared.js';
import { Workdir } from './workdir.js';

// Real public templates (../shared/corpus) created, updated and deleted end to end against the
// sandbox cloud by the CLI's embedded engine; the real openstack client then lists what they made.

const NET_TEMPLATE = join(CORPUS, 'hot/servers_in_new_neutron_net.yaml');
const CINDER_TEMPLATE = join(CORPUS, 'hot/vm_with_cinder.yaml');
const IMAGE = 'cirros-0.6.2-x86_64-disk';
const PUBLIC_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHearthCorpusTestKey hearth';

const params = (values: Record<string, string | number>) =>
  Object.entries(values).flatMap(([k, v]) => ['--parameter', `${k}=${v}`]);

describe('corpus templates on the sandbox cloud', { skip: OPENSTACK_CLIENT_SKIP }, () => {
  const cloud = sandboxCloud({ noise: { bootDelayMs: 200 } });
  let openstack: (...args: string[]) => Promise<string>;

  before(async () => {
    openstack = openstackClient(cloud.address);
    // The key pair both templates name, made through the real client.
    const file = join(mkdtempSync(join(tmpdir(), 'hearth-key-')), 'key.pub');
    writeFileSync(file, PUBLIC_KEY);
    await openstack('keypair', 'create', '--public-key', file, 'corpus-key');
  });

  /** What the sandbox holds beyond what it was seeded with (the public network and its subnet). */
  const leftovers = () => ({
    servers: cloud.state
      .list<{ id: string; deletedAt: number | null }>('server')
      .filter((s) => s.deletedAt === null).length,
    ports: cloud.state.list('port').length,
    routers: cloud.state.list('router').length,
    floatingips: cloud.state.list('floatingip').length,
    networks: cloud.state.list<{ id: string; name: string }>('network').filter((n) => n.name !== 'public')
      .length,
    volumes: cloud.state.list('volume').length,
  });
  const nothing = { servers: 0, ports: 0, routers: 0, floatingips: 0, networks: 0, volumes: 0 };

  it('hot/servers_in_new_neutron_net.yaml: create, update in place, delete, nothing left', async () => {
    const w = new Workdir();
    const base = {
      key_name: 'corpus-key',
      image: IMAGE,
      flavor: 'm1.tiny',
      public_net: 'public',
      private_net_name: 'corpus-net',
      private_net_cidr: '10.20.0.0/24',
      private_net_gateway: '10.20.0.1',
      private_net_pool_start: '10.20.0.10',
      private_net_pool_end: '10.20.0.50',
    };
    await w.ok(['stack', 'create', 'net', '-t', NET_TEMPLATE, ...params(base), '--wait']);
    const outputs = await w.outputs('net');
    for (const n of [1, 2]) {
      assert.match(String(outputs[`server${n}_private_ip`]), /^10\.20\.0\.(1\d|[2-4]\d|50)$/);
      assert.match(String(outputs[`server${n}_public_ip`]), /^\d+\.\d+\.\d+\.\d+$/);
    }

    // The real client sees what Hearth made, in the wire format it expects.
    const servers = JSON.parse(await openstack('server', 'list', '-f', 'json')) as {
      Name: string;
      Status: string;
      Networks: unknown;
    }[];
    assert.deepEqual(servers.map((s) => [s.Name, s.Status]).sort(), [
      ['Server1', 'ACTIVE'],
      ['Server2', 'ACTIVE'],
    ]);
    const networks = JSON.parse(await openstack('network', 'list', '-f', 'json')) as { Name: string }[];
    assert.deepEqual(networks.map((n) => n.Name).sort(), ['corpus-net', 'public']);
    const fips = JSON.parse(await openstack('floating', 'ip', 'list', '-f', 'json')) as {
      'Floating IP Address': string;
    }[];
    assert.deepEqual(
      fips.map((f) => f['Floating IP Address']).sort(),
      [outputs.server1_public_ip, outputs.server2_public_ip].sort(),
    );

    // A new network name is an in-place update: the servers stay.
    const ids = cloud.state
      .list<{ id: string }>('server')
      .map((s) => s.id)
      .sort();
    await w.ok([
      'stack',
      'update',
      'net',
      '--existing',
      ...params({ private_net_name: 'renamed' }),
      '--wait',
    ]);
    assert.deepEqual(
      cloud.state
        .list<{ id: string }>('server')
        .map((s) => s.id)
        .sort(),
      ids,
    );
    const shown = JSON.parse(await openstack('network', 'show', 'renamed', '-f', 'json')) as { name: string };
    assert.equal(shown.name, 'renamed');

    await w.ok(['stack', 'delete', 'net', '--yes', '--wait']);
    assert.deepEqual(leftovers(), nothing);
  });

  it('hot/vm_with_cinder.yaml: create, grow the volume in place, delete, nothing left', async () => {
    const w = new Workdir();
    // The template's default network is "private": one the stack does not make.
    await openstack('network', 'create', 'private');
    await openstack(
      'subnet',
      'create',
      '--network',
      'private',
      '--subnet-range',
      '10.30.0.0/24',
      'private-v4',
    );
    const values = { key_name: 'corpus-key', image: IMAGE, flavor: 'm1.small' };
    await w.ok(['stack', 'create', 'vm', '-t', CINDER_TEMPLATE, ...params(values), '--wait']);
    const outputs = await w.outputs('vm');
    const networks = outputs.instance_networks as Record<string, string[]>;
    assert.match(String(networks.private?.[0]), /^10\.30\.0\.\d+$/);

    const volumes = JSON.parse(await openstack('volume', 'list', '-f', 'json')) as {
      ID: string;
      Status: string;
      Size: number;
    }[];
    assert.deepEqual(
      volumes.map((v) => [v.Status, v.Size]),
      [['in-use', 1]],
    );
    const [server] = JSON.parse(await openstack('server', 'list', '-f', 'json')) as { ID: string }[];
    const attachments = JSON.parse(await openstack('server', 'volume', 'list', server!.ID, '-f', 'json')) as {
      Device: string;
    }[];
    assert.deepEqual(
      attachments.map((a) => a.Device),
      ['/dev/vdb'],
    );

    await w.ok(['stack', 'update', 'vm', '--existing', ...params({ vol_size: 2 }), '--wait']);
    const grown = JSON.parse(await openstack('volume', 'list', '-f', 'json')) as {
      ID: string;
      Size: number;
    }[];
    assert.deepEqual(
      grown.map((v) => [v.ID, v.Size]),
      [[volumes[0]!.ID, 2]],
      'the same volume, extended',
    );

    await w.ok(['stack', 'delete', 'vm', '--yes', '--wait']);
    await openstack('subnet', 'delete', 'private-v4');
    await openstack('network', 'delete', 'private');
    assert.deepEqual(leftovers(), nothing);
  });
});
