import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinPlugins, pluginCatalog } from '../../../src/resources/catalog.js';
import type { ResourcePlugin } from '../../../src/resources/contract.js';
import { ec2EipPlugin } from '../../../src/resources/aws/ec2/eip.js';
import { ec2EipAssociationPlugin } from '../../../src/resources/aws/ec2/eip-association.js';
import { ec2InstancePlugin } from '../../../src/resources/aws/ec2/instance.js';
import { ec2NetworkInterfacePlugin } from '../../../src/resources/aws/ec2/network-interface.js';
import { ec2RouteTablePlugin } from '../../../src/resources/aws/ec2/route-table.js';
import { ec2SecurityGroupPlugin } from '../../../src/resources/aws/ec2/security-group.js';
import { ec2SubnetPlugin } from '../../../src/resources/aws/ec2/subnet.js';
import { ec2VolumePlugin } from '../../../src/resources/aws/ec2/volume.js';
import { ec2VpcPlugin } from '../../../src/resources/aws/ec2/vpc.js';
import { TemplateError } from '../../../src/template/errors.js';
import type { Value } from '../../../src/template/functions/types.js';
import { type TypeRig, typeRig } from '../openstack/sandbox-cloud.js';

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const IMAGE = 'cirros-0.6.2-x86_64-disk';

// The AWS::EC2 types' own rules (Heat's validate), and creates run again after a crash: each
// finds what the first run made, on the sandbox cloud.
describe('AWS::EC2 types on the sandbox cloud', () => {
  let rig: TypeRig;
  const get = async (path: string, service = 'network') =>
    (await rig.demo.request<Answer>(service, 'GET', path)).body;
  const count = async (path: string, key: string, service = 'network') =>
    (await get(path, service))[key].length;

  before(async () => {
    rig = await typeRig({ bootDelayMs: 0 });
  });
  after(() => rig?.close());

  /** Creates twice with one key (a create resumed after a crash); both runs give one physical id. */
  async function twice(plugin: ResourcePlugin, key: string, props: Record<string, Value>) {
    const first = rig.resource(plugin, key);
    await first.create(props);
    const again = rig.resource(plugin, key);
    await again.create(props);
    assert.equal(again.physicalId, first.physicalId);
    return first;
  }

  it('VPC, Subnet, RouteTable: one network, one router, one subnet with one interface; deleted twice', async () => {
    const vpc = await twice(ec2VpcPlugin, 'k-vpc', { CidrBlock: '10.1.0.0/16' });
    const name = (await get(`/networks/${vpc.physicalId}`)).network.name;
    assert.equal(await count(`/routers?name=${name}`, 'routers'), 1);
    const subnet = await twice(ec2SubnetPlugin, 'k-subnet', {
      VpcId: vpc.physicalId,
      CidrBlock: '10.1.2.0/24',
    });
    assert.equal(await count(`/subnets?network_id=${vpc.physicalId}`, 'subnets'), 1);
    const router = (await get(`/routers?name=${name}`)).routers[0].id;
    assert.equal(await count(`/ports?device_id=${router}`, 'ports'), 1);
    const table = await twice(ec2RouteTablePlugin, 'k-table', { VpcId: vpc.physicalId });
    assert.deepEqual((await get(`/routers/${table.physicalId}`)).router.tags, [`vpc:${vpc.physicalId}`]);

    for (const r of [table, subnet, vpc]) {
      await r.delete();
      await r.delete();
    }
    await assert.rejects(get(`/networks/${vpc.physicalId}`), /not found|404/i);
    assert.equal(await count(`/routers?name=${name}`, 'routers'), 0);
  });

  it('SecurityGroup and NetworkInterface: one group with its rules, one port with a fixed IP', async () => {
    const sg = await twice(ec2SecurityGroupPlugin, 'k-sg', {
      GroupDescription: 'db',
      SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: '5432', ToPort: '5432', CidrIp: '10.0.0.0/8' }],
      SecurityGroupEgress: [{ IpProtocol: 'tcp', FromPort: '-1', ToPort: '-1', CidrIp: '10.0.0.0/8' }],
    });
    const rules = (await get(`/security-groups/${sg.physicalId}`)).security_group
      .security_group_rules as Answer[];
    // Egress given: Neutron's default egress rules go; a negative port is no port.
    assert.deepEqual(
      rules.map((r) => [r.direction, r.protocol, r.port_range_min, r.remote_ip_prefix]).sort(),
      [
        ['egress', 'tcp', null, '10.0.0.0/8'],
        ['ingress', 'tcp', 5432, '10.0.0.0/8'],
      ],
    );
    const net = (
      await rig.demo.request<Answer>('network', 'POST', '/networks', { network: { name: 'nic-net' } })
    ).body.network;
    const subnet = (
      await rig.demo.request<Answer>('network', 'POST', '/subnets', {
        subnet: { network_id: net.id, cidr: '10.3.0.0/24', ip_version: 4 },
      })
    ).body.subnet;
    const nic = await twice(ec2NetworkInterfacePlugin, 'k-nic', {
      SubnetId: subnet.id,
      PrivateIpAddress: '10.3.0.50',
      GroupSet: [sg.physicalId],
    });
    assert.equal(await count(`/ports?network_id=${net.id}`, 'ports'), 1);
    assert.equal(await nic.attribute('PrivateIpAddress'), '10.3.0.50');
    // GroupSet dropped: the port is back in the default group.
    await nic.update({ SubnetId: subnet.id, PrivateIpAddress: '10.3.0.50' });
    const port = (await get(`/ports/${nic.physicalId}`)).port;
    const groups = (await get('/security-groups?name=default')).security_groups as Answer[];
    assert.deepEqual(port.security_groups, [groups[0]!.id]);
    await nic.delete();
    await sg.delete();
    await nic.delete();
  });

  it('Instance on a SubnetId and EIP: one server, one port, one floating IP, the port deleted with it', async () => {
    const net = (
      await rig.demo.request<Answer>('network', 'POST', '/networks', { network: { name: 'i-net' } })
    ).body.network;
    const subnet = (
      await rig.demo.request<Answer>('network', 'POST', '/subnets', {
        subnet: { network_id: net.id, cidr: '10.4.0.0/24', ip_version: 4 },
      })
    ).body.subnet;
    const instance = await twice(ec2InstancePlugin, 'k-instance', {
      ImageId: IMAGE,
      InstanceType: 'm1.tiny',
      SubnetId: subnet.id,
    });
    assert.equal(await count(`/ports?network_id=${net.id}`, 'ports'), 1);
    assert.equal((await get(`/servers/${instance.physicalId}`, 'compute')).server.status, 'ACTIVE');
    assert.equal(
      await instance.attribute('PrivateIp'),
      (await get(`/ports?network_id=${net.id}`)).ports[0].fixed_ips[0].ip_address,
    );

    const eip = await twice(ec2EipPlugin, 'k-eip', {});
    assert.equal(await count('/floatingips', 'floatingips'), 1);
    const fip = (await get(`/floatingips/${eip.physicalId}`)).floatingip;
    assert.equal(eip.referenceId(), fip.floating_ip_address);
    assert.equal(await eip.attribute('AllocationId'), eip.physicalId);

    // By its address, with the instance: its first interface gets it, once the subnet is routed.
    const external = (await get('/networks?router:external=True')).networks[0].id;
    const router = (
      await rig.demo.request<Answer>('network', 'POST', '/routers', {
        router: { name: 'i-router', external_gateway_info: { network_id: external } },
      })
    ).body.router;
    await rig.demo.request('network', 'PUT', `/routers/${router.id}/add_router_interface`, {
      subnet_id: subnet.id,
    });
    const assoc = rig.resource(ec2EipAssociationPlugin, 'k-assoc');
    await assoc.create({ EIP: fip.floating_ip_address, InstanceId: instance.physicalId });
    const port = (await get(`/ports?network_id=${net.id}&device_id=${instance.physicalId}`)).ports[0];
    assert.equal((await get(`/floatingips/${eip.physicalId}`)).floatingip.port_id, port.id);
    assert.equal(assoc.physicalId, fip.floating_ip_address);
    assert.match(String(assoc.referenceId()), /^st-res-/);
    await assoc.delete();
    assert.equal((await get(`/floatingips/${eip.physicalId}`)).floatingip.port_id, null);
    await assoc.delete();
    await eip.delete();

    // Stack check: Heat's words for an instance that is not ACTIVE.
    await ec2InstancePlugin.check!(instance.ctx());
    await rig.outOfBand('server', instance.physicalId!, 'error');
    await assert.rejects(ec2InstancePlugin.check!(instance.ctx()), /Instance is not ACTIVE \(was: ERROR\)/);
    await instance.delete();
    assert.equal(await count(`/ports?network_id=${net.id}&device_owner=`, 'ports'), 0);
    await instance.delete();
  });

  it('Instance: NetworkInterfaces changed moves the server to the new port in place', async () => {
    const net = (
      await rig.demo.request<Answer>('network', 'POST', '/networks', { network: { name: 'n-net' } })
    ).body.network;
    await rig.demo.request('network', 'POST', '/subnets', {
      subnet: { network_id: net.id, cidr: '10.5.0.0/24', ip_version: 4 },
    });
    const port = async (name: string) =>
      (await rig.demo.request<Answer>('network', 'POST', '/ports', { port: { network_id: net.id, name } }))
        .body.port.id as string;
    const [a, b] = [await port('a'), await port('b')];
    const base = { ImageId: IMAGE, InstanceType: 'm1.tiny' };
    const instance = rig.resource(ec2InstancePlugin, 'k-moves');
    await instance.create({ ...base, NetworkInterfaces: [{ NetworkInterfaceId: a, DeviceIndex: '0' }] });
    const id = instance.physicalId;
    await instance.update({ ...base, NetworkInterfaces: [b] });
    assert.equal(instance.physicalId, id);
    const devices = async (p: string) => (await get(`/ports/${p}`)).port.device_id;
    assert.deepEqual([await devices(a), await devices(b)], ['', id]);
    await instance.delete();
  });

  it('Volume: one Cinder volume with the tags as metadata, named by its physical name', async () => {
    const volume = await twice(ec2VolumePlugin, 'k-volume', {
      Size: 1,
      AvailabilityZone: 'nova',
      Tags: [{ Key: 'tier', Value: 'gold' }],
    });
    const v = (await get(`/volumes/${volume.physicalId}`, 'volumev3')).volume;
    assert.equal(v.metadata.tier, 'gold');
    assert.match(v.name, /^st-res-/);
    assert.equal(v.description, v.name);
    await volume.delete();
  });

  it('Instance: a new flavor or a SubnetId is a new instance; ports of the template change in place', () => {
    const base = { ImageId: IMAGE, InstanceType: 'm1.tiny' };
    const replace = (after: Record<string, Value>, before: Record<string, Value>, changed: string[]) =>
      ec2InstancePlugin.needsReplace!(after, before, changed);
    assert.equal(replace({ ...base, InstanceType: 'm1.small' }, base, ['InstanceType']), true);
    assert.equal(replace({ ...base, SubnetId: 'b' }, { ...base, SubnetId: 'a' }, ['SubnetId']), true);
    assert.equal(
      replace({ ...base, NetworkInterfaces: ['b'] }, { ...base, NetworkInterfaces: ['a'] }, [
        'NetworkInterfaces',
      ]),
      false,
    );
    assert.equal(
      replace({ ...base, NetworkInterfaces: ['b'] }, { ...base, SubnetId: 'a' }, ['NetworkInterfaces']),
      true,
    );
    assert.equal(replace({ ...base, Tags: [] }, base, ['Tags']), false);
  });
});

describe("AWS::EC2 types' own checks, as Heat's", () => {
  const types = pluginCatalog(builtinPlugins()).typeCatalog;
  const check = (type: string, properties: Record<string, Value>) => {
    try {
      types.get(type)!.validateProperties(properties, ['resources', 'r', 'properties']);
      return undefined;
    } catch (error) {
      assert.ok(error instanceof TemplateError, String(error));
      return error.message;
    }
  };
  const instance = { ImageId: IMAGE, InstanceType: 'm1.tiny' };

  it('EIPAssociation: one of EIP and AllocationId, an instance for an EIP, a target', () => {
    const assoc = (p: Record<string, Value>) => check('AWS::EC2::EIPAssociation', p);
    assert.match(assoc({ InstanceId: 'i' })!, /Either 'EIP' or 'AllocationId' must be provided/);
    assert.match(
      assoc({ EIP: '1.2.3.4', AllocationId: 'a', InstanceId: 'i' })!,
      /Either 'EIP' or 'AllocationId'/,
    );
    assert.match(
      assoc({ EIP: '1.2.3.4', NetworkInterfaceId: 'n' })!,
      /Must specify 'InstanceId' if you specify 'EIP'/,
    );
    assert.match(
      assoc({ AllocationId: 'a' })!,
      /At least one of the following properties must be specified: InstanceId, NetworkInterfaceId/,
    );
    assert.equal(assoc({ AllocationId: 'a', NetworkInterfaceId: 'n' }), undefined);
  });

  it('Instance: security groups with interfaces, block devices without a snapshot, unimplemented properties', () => {
    const run = (p: Record<string, Value>) => check('AWS::EC2::Instance', { ...instance, ...p });
    assert.match(
      run({ SecurityGroups: ['web'], NetworkInterfaces: ['port'] })!,
      /Cannot define the following properties at the same time: SecurityGroups\/SecurityGroupIds, NetworkInterfaces/,
    );
    assert.match(run({ BlockDeviceMappings: [{ DeviceName: 'vdb' }] })!, /Ebs is missing/);
    assert.match(
      run({ BlockDeviceMappings: [{ DeviceName: 'vdb', Ebs: { VolumeSize: '1' } }] })!,
      /SnapshotId is missing/,
    );
    assert.match(run({ Monitoring: true })!, /Property Monitoring not implemented yet/);
    // Heat refuses a property it has not implemented whatever its value, nested ones too, and
    // template validate (which looks at names only) refuses it as well.
    assert.match(run({ Tenancy: 'default' })!, /Property Tenancy not implemented yet/);
    assert.match(
      run({ BlockDeviceMappings: [{ DeviceName: 'vdb', Ebs: { SnapshotId: 's', Iops: 100 } }] })!,
      /Property Iops not implemented yet/,
    );
    assert.match(
      check('AWS::EC2::VPC', { InstanceTenancy: 'default' })!,
      /Property InstanceTenancy not implemented yet/,
    );
    assert.equal(check('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' }), undefined);
    assert.throws(
      () =>
        types
          .get('AWS::EC2::Instance')!
          .validateProperties({ ...instance, KernelId: 'k' }, ['p'], { phase: 'validate' }),
      /Property KernelId not implemented yet/,
    );
    assert.equal(run({ SecurityGroups: ['web'], SubnetId: 's' }), undefined);
    assert.match(
      check('AWS::EC2::VPCGatewayAttachment', { VpcId: 'v', VpnGatewayId: 'g' })!,
      /VpnGatewayId not implemented/,
    );
    assert.match(
      check('AWS::EC2::VolumeAttachment', { InstanceId: 'i', VolumeId: 'v', Device: '/dev/sdb' })!,
      /vd\[b-z\]/,
    );
  });
});
