import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { neutronNetPlugin } from '../../../src/resources/openstack/neutron/net.js';
import { neutronSubnetPlugin } from '../../../src/resources/openstack/neutron/subnet.js';
import { type TypeRig, typeRig } from './sandbox-cloud.js';

// OS::Neutron::Subnet's gateway and pools as Heat's Subnet sends them (_normalize_gateway_ip,
// handle_update), against the sandbox cloud.
describe('OS::Neutron::Subnet gateway_ip and allocation_pools on the sandbox cloud', () => {
  let rig: TypeRig;
  let network: string;
  before(async () => {
    rig = await typeRig({});
    const net = rig.resource(neutronNetPlugin, 'net');
    await net.create({ name: 'subnet-net' });
    network = net.physicalId!;
  });
  after(async () => rig?.close());

  const live = async (id: string) =>
    (await rig.demo.request<{ subnet: Record<string, unknown> }>('network', 'GET', `/subnets/${id}`)).body
      .subnet;

  it('creates with "" as no gateway and "auto" as the default one', async () => {
    const none = rig.resource(neutronSubnetPlugin, 'none');
    await none.create({ network, cidr: '10.8.0.0/24', gateway_ip: '' });
    assert.equal((await live(none.physicalId!)).gateway_ip, null);
    const auto = rig.resource(neutronSubnetPlugin, 'auto');
    await auto.create({ network, cidr: '10.8.1.0/24', gateway_ip: 'auto' });
    assert.equal((await live(auto.physicalId!)).gateway_ip, '10.8.1.1');
  });

  it('an update without gateway_ip or allocation_pools detaches the gateway and drops the pools', async () => {
    const s = rig.resource(neutronSubnetPlugin, 'upd');
    const pools = [{ start: '10.8.2.10', end: '10.8.2.20' }];
    await s.create({ network, cidr: '10.8.2.0/24', gateway_ip: '10.8.2.1', allocation_pools: pools });
    await s.update({
      network,
      cidr: '10.8.2.0/24',
      gateway_ip: '10.8.2.1',
      allocation_pools: pools,
      name: 'n',
    });
    assert.equal((await live(s.physicalId!)).gateway_ip, '10.8.2.1', 'unchanged ones are kept');
    await s.update({ network, cidr: '10.8.2.0/24', name: 'n' });
    const after = await live(s.physicalId!);
    assert.equal(after.gateway_ip, null);
    assert.deepEqual(after.allocation_pools, []);
    await assert.rejects(
      s.update({ network, cidr: '10.8.2.0/24', name: 'n', gateway_ip: 'auto' }),
      /"auto" for gateway_ip cannot be used to update an existing subnet/,
    );
  });
});
