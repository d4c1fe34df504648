import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { diffOf, type DriftRig, driftRig, statuses } from './drift-support.js';

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.4.0.0/24}
  port:
    type: OS::Neutron::Port
    properties: {network: {get_resource: net}, fixed_ips: [{subnet: {get_resource: subnet}}]}
  key: {type: OS::Nova::KeyPair, properties: {name: drift-key}}
  server:
    type: OS::Nova::Server
    properties:
      name: drift-server
      image: cirros-0.6.2-x86_64-disk
      flavor: m1.tiny
      key_name: {get_resource: key}
      metadata: {role: web, replicas: 2}
      networks: [{port: {get_resource: port}}]
  volume:
    type: OS::Cinder::Volume
    properties: {name: drift-volume, description: data, size: 1, metadata: {tier: gold}}
  attachment:
    type: OS::Cinder::VolumeAttachment
    properties:
      instance_uuid: {get_resource: server}
      volume_id: {get_resource: volume}
      mountpoint: /dev/vdb
`;

const FLAVOR = `heat_template_version: 2018-08-31
resources:
  flavor:
    type: OS::Nova::Flavor
    properties: {name: drift-flavor, ram: 512, vcpus: 1, disk: 1, extra_specs: {"hw:cpu_policy": shared}}
`;

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// A server with its port, key pair, volume and attachment as user demo, and a flavor as admin (a
// stack of project `admin`), changed behind the engine's back through Nova's and Cinder's own APIs.
// The cases run in order on the same stacks: the attachment goes before its server and volume.
describe('drift of the Nova and Cinder types, on the sandbox cloud', () => {
  let rig: DriftRig;
  let ids: Map<string, string>;
  const nova = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    (await rig.demo.request<Answer>('compute', method, path, body)).body;
  const cinder = async (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    (await rig.demo.request<Answer>('volumev3', method, path, body, { microversion: '3.42' })).body;
  const detect = () => rig.detect('c');

  before(async () => {
    rig = await driftRig();
    await rig.create('c', TEMPLATE);
    await rig.create('f', FLAVOR, 'admin');
    ids = await rig.ids('c');
  });
  after(() => rig?.close());

  it('finds every resource untouched IN_SYNC: a port bound to its server, the device Nova chose', async () => {
    const found = [...(await detect()).values(), ...(await rig.detect('f', 'admin')).values()];
    assert.deepEqual(
      found.filter((r) => r.status !== 'IN_SYNC').map((r) => [r.resourceName, r.diff, r.reason]),
      [],
    );
    assert.deepEqual(found.map((r) => r.resourceName).sort(), [...ids.keys(), 'flavor'].sort());
  });

  it('Server: a rename and a metadata item changed are MODIFIED', async () => {
    const id = ids.get('server')!;
    await nova('PUT', `/servers/${id}`, { server: { name: 'renamed' } });
    await nova('PUT', `/servers/${id}/metadata/role`, { meta: { role: 'db' } });
    const server = (await detect()).get('server');
    assert.equal(server?.status, 'MODIFIED');
    assert.deepEqual(diffOf(server), [
      // Nova keeps metadata values as strings; the create's own item is not the template's.
      { property: 'metadata', expected: { role: 'web', replicas: 2 }, actual: { role: 'db', replicas: '2' } },
      { property: 'name', expected: 'drift-server', actual: 'renamed' },
    ]);
  });

  it('Volume: renamed, described, extended and its metadata changed is MODIFIED', async () => {
    const id = ids.get('volume')!;
    await cinder('PUT', `/volumes/${id}`, { volume: { name: 'by-hand', description: 'other' } });
    await cinder('PUT', `/volumes/${id}/metadata/tier`, { meta: { tier: 'silver' } });
    await cinder('POST', `/volumes/${id}/action`, { 'os-extend': { new_size: 2 } });
    const volume = (await detect()).get('volume');
    assert.equal(volume?.status, 'MODIFIED');
    assert.deepEqual(diffOf(volume), [
      { property: 'description', expected: 'data', actual: 'other' },
      { property: 'metadata', expected: { tier: 'gold' }, actual: { tier: 'silver' } },
      { property: 'name', expected: 'drift-volume', actual: 'by-hand' },
      { property: 'size', expected: 1, actual: 2 },
    ]);
  });

  it('Flavor: its extra specs changed is MODIFIED, then deleted is DELETED', async () => {
    const flavor = (await rig.ids('f', 'admin')).get('flavor')!;
    const admin = (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
      rig.admin.request('compute', method, path, body);
    await admin('PUT', `/flavors/${flavor}/os-extra_specs/hw:cpu_policy`, { 'hw:cpu_policy': 'dedicated' });
    await admin('POST', `/flavors/${flavor}/os-extra_specs`, {
      extra_specs: { 'hw:mem_page_size': 'large' },
    });
    const changed = (await rig.detect('f', 'admin')).get('flavor');
    assert.equal(changed?.status, 'MODIFIED');
    assert.deepEqual(diffOf(changed), [
      {
        property: 'extra_specs',
        expected: { 'hw:cpu_policy': 'shared' },
        actual: { 'hw:cpu_policy': 'dedicated', 'hw:mem_page_size': 'large' },
      },
    ]);
    await admin('DELETE', `/flavors/${flavor}`);
    assert.equal((await rig.detect('f', 'admin')).get('flavor')?.status, 'DELETED');
  });

  // Nova changes nothing of a key pair: deleting it is the out-of-band change it can have.
  it('KeyPair: deleted is DELETED', async () => {
    await nova('DELETE', `/os-keypairs/${ids.get('key')}`);
    const key = (await detect()).get('key');
    assert.equal(key?.status, 'DELETED');
    assert.equal(key?.physicalId, 'drift-key');
  });

  // Nova cannot move an attachment to another device: detaching the volume is the change it can have.
  it('VolumeAttachment: detached is DELETED', async () => {
    await nova('DELETE', `/servers/${ids.get('server')}/os-volume_attachments/${ids.get('volume')}`);
    assert.equal((await detect()).get('attachment')?.status, 'DELETED');
  });

  it('Server and Volume: deleted are DELETED', async () => {
    await nova('DELETE', `/servers/${ids.get('server')}`);
    await cinder('DELETE', `/volumes/${ids.get('volume')}`);
    const found = await detect();
    assert.equal(found.get('server')?.status, 'DELETED');
    assert.equal(found.get('volume')?.status, 'DELETED');
  });

  it('the whole stack at the end: every change above, nothing else', async () => {
    assert.deepEqual(statuses(await detect()), {
      attachment: 'DELETED',
      key: 'DELETED',
      net: 'IN_SYNC',
      port: 'IN_SYNC',
      server: 'DELETED',
      subnet: 'IN_SYNC',
      volume: 'DELETED',
    });
  });
});
