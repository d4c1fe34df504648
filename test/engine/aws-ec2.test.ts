import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { awsStack as template } from './aws-ec2-template.js';
import { diffOf, type DriftRig, driftRig } from './drift-support.js';

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the AWS::EC2 types on the sandbox cloud, through the engine', () => {
  let rig: DriftRig;
  let ids: Map<string, string>;
  const get = async (service: string, path: string) =>
    (await rig.demo.request<Answer>(service, 'GET', path)).body;

  before(async () => {
    rig = await driftRig();
    await rig.create('aws', template('web', '22'));
    ids = await rig.ids('aws');
  });
  after(() => rig?.close());

  it('makes the VPC a network and a router of its name, the subnet routed by the route table', async () => {
    const net = (await get('network', `/networks/${ids.get('vpc')}`)).network;
    const routers = (await get('network', `/routers?name=${net.name}`)).routers;
    assert.equal(routers.length, 1);
    const table = (await get('network', `/routers/${ids.get('table')}`)).router;
    const external = (await get('network', '/networks?router:external=True')).networks[0];
    // The attachment gave the route table the gateway; the association moved the subnet to it.
    assert.equal(table.external_gateway_info?.network_id, external.id);
    const onRouter = async (router: string) =>
      (await get('network', `/ports?device_id=${router}`)).ports.some((p: Answer) =>
        p.fixed_ips.some((ip: Answer) => ip.subnet_id === ids.get('subnet')),
      );
    assert.equal(await onRouter(ids.get('table')!), true);
    assert.equal(await onRouter(routers[0].id), false);
  });

  it('boots the instance on its interface with the tags as metadata and both volumes attached', async () => {
    const server = (await get('compute', `/servers/${ids.get('web')}`)).server;
    assert.equal(server.metadata.role, 'web');
    assert.equal(server.status, 'ACTIVE');
    const nic = (await get('network', `/ports/${ids.get('nic')}`)).port;
    assert.equal(nic.device_id, ids.get('web'));
    assert.deepEqual(nic.security_groups, [ids.get('sg')]);
    for (const volume of ['boot_volume', 'data']) {
      const v = (await get('volumev3', `/volumes/${ids.get(volume)}`)).volume;
      assert.equal(v.status, 'in-use', volume);
      assert.equal(v.attachments[0].server_id, ids.get('web'));
    }
    // The instance on SubnetId got a port of Hearth's making, with the security group.
    const ports = (await get('network', `/ports?device_id=${ids.get('worker')}`)).ports;
    assert.equal(ports.length, 1);
    assert.deepEqual(ports[0].security_groups, [ids.get('sg')]);
    assert.equal(ports[0].fixed_ips[0].subnet_id, ids.get('subnet'));
  });

  it('gives the EIP reference and the attributes as Heat does', async () => {
    const out = await rig.h.outputs('aws');
    const fip = (await get('network', `/floatingips/${ids.get('ip')}`)).floatingip;
    assert.equal(out.address, fip.floating_ip_address);
    assert.equal(fip.port_id, ids.get('nic'));
    const nic = (await get('network', `/ports/${ids.get('nic')}`)).port;
    assert.equal(out.nic_ip, nic.fixed_ips[0].ip_address);
    assert.equal(out.zone, 'nova');
    assert.match(String(out.public_ip), /^\d+\.\d+\.\d+\.\d+$/);
    assert.match(String(out.gateway), /^aws-gateway-/);
    const assoc = (await get('network', `/floatingips/${ids.get('worker_ip')}`)).floatingip;
    const workerPort = (await get('network', `/ports?device_id=${ids.get('worker')}`)).ports[0];
    assert.equal(assoc.port_id, workerPort.id);
    const sg = (await get('network', `/security-groups/${ids.get('sg')}`)).security_group;
    assert.equal(sg.description, 'web servers');
    assert.ok(
      sg.security_group_rules.some((r: Answer) => r.direction === 'ingress' && r.port_range_min === 22),
    );
  });

  it('finds everything IN_SYNC, then an instance and a volume changed behind its back MODIFIED', async () => {
    const untouched = await rig.detect('aws');
    // The internet gateway has nothing in the cloud to look at.
    assert.deepEqual(
      [...untouched.values()].filter((r) => r.status !== 'IN_SYNC').map((r) => [r.resourceName, r.status]),
      [['gateway', 'NOT_CHECKED']],
    );
    await rig.demo.request('compute', 'PUT', `/servers/${ids.get('web')}/metadata/role`, {
      meta: { role: 'db' },
    });
    await rig.demo.request('volumev3', 'PUT', `/volumes/${ids.get('data')}/metadata/tier`, {
      meta: { tier: 'silver' },
    });
    const found = await rig.detect('aws');
    assert.deepEqual(diffOf(found.get('web')), [
      { property: 'Tags', expected: [{ Key: 'role', Value: 'web' }], actual: [{ Key: 'role', Value: 'db' }] },
    ]);
    assert.deepEqual(diffOf(found.get('data')), [
      {
        property: 'Tags',
        expected: [{ Key: 'tier', Value: 'gold' }],
        actual: [{ Key: 'tier', Value: 'silver' }],
      },
    ]);
  });

  it('updates tags and rules in place, then deletes everything it made', async () => {
    const before = ids;
    await rig.h.update('aws', template('api', '443'));
    await rig.h.settle();
    assert.equal(await rig.h.status('aws'), 'UPDATE_COMPLETE');
    const after = await rig.ids('aws');
    assert.equal(after.get('web'), before.get('web'));
    assert.equal(after.get('sg'), before.get('sg'));
    const server = (await get('compute', `/servers/${ids.get('web')}`)).server;
    assert.equal(server.metadata.role, 'api');
    const sg = (await get('network', `/security-groups/${ids.get('sg')}`)).security_group;
    const ingress = sg.security_group_rules.filter((r: Answer) => r.direction === 'ingress');
    assert.deepEqual(
      ingress.map((r: Answer) => r.port_range_min),
      [443],
    );

    await rig.h.delete('aws');
    await rig.h.settle();
    assert.equal(await rig.h.status('aws'), 'DELETE_COMPLETE');
    const left = async (path: string, key: string) => (await get('network', path))[key].length;
    assert.equal((await get('compute', '/servers')).servers.length, 0);
    assert.equal(await left('/floatingips', 'floatingips'), 0);
    await assert.rejects(get('network', `/networks/${ids.get('vpc')}`), /404|not found/i);
    assert.equal((await get('volumev3', '/volumes')).volumes.length, 0);
    assert.equal(await left('/routers', 'routers'), 0);
    assert.equal(await left(`/subnets?network_id=${ids.get('vpc')}`, 'subnets'), 0);
    assert.equal(await left('/ports', 'ports'), 0);
    await assert.rejects(get('network', `/security-groups/${ids.get('sg')}`), /404|not found/i);
  });
});
