import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { diffOf, type DriftRig, driftRig } from './drift-support.js';

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// A VPC with a subnet moved to a route table that has a gateway, a security group, an interface
// with an instance on it (a volume attached at boot and another by a VolumeAttachment), an EIP on
// that instance, a second instance on the subnet with an EIPAssociation by allocation id: every
// AWS::EC2 type Heat maps onto Nova, Neutron and Cinder, through the engine on the sandbox cloud.
const template = (tag: string, ingressPort: string) => `heat_template_version: 2018-08-31
resources:
  vpc: {type: AWS::EC2::VPC, properties: {CidrBlock: 10.9.0.0/16}}
  subnet:
    type: AWS::EC2::Subnet
    properties: {VpcId: {get_resource: vpc}, CidrBlock: 10.9.1.0/24, AvailabilityZone: nova}
  table: {type: AWS::EC2::RouteTable, properties: {VpcId: {get_resource: vpc}}}
  routed:
    type: AWS::EC2::SubnetRouteTableAssociation
    properties: {RouteTableId: {get_resource: table}, SubnetId: {get_resource: subnet}}
  gateway: {type: AWS::EC2::InternetGateway}
  attachment:
    type: AWS::EC2::VPCGatewayAttachment
    properties: {VpcId: {get_resource: vpc}, InternetGatewayId: {get_resource: gateway}}
  sg:
    type: AWS::EC2::SecurityGroup
    properties:
      GroupDescription: web servers
      SecurityGroupIngress: [{IpProtocol: tcp, FromPort: '${ingressPort}', ToPort: '${ingressPort}', CidrIp: 0.0.0.0/0}]
  nic:
    type: AWS::EC2::NetworkInterface
    depends_on: routed
    properties: {SubnetId: {get_resource: subnet}, GroupSet: [{get_resource: sg}]}
  boot_volume: {type: AWS::EC2::Volume, properties: {Size: 1, AvailabilityZone: nova}}
  web:
    type: AWS::EC2::Instance
    properties:
      ImageId: cirros-0.6.2-x86_64-disk
      InstanceType: m1.tiny
      NetworkInterfaces: [{NetworkInterfaceId: {get_resource: nic}, DeviceIndex: '0'}]
      Tags: [{Key: role, Value: ${tag}}]
      UserData: echo hello
      Volumes: [{VolumeId: {get_resource: boot_volume}, Device: /dev/vdc}]
  data: {type: AWS::EC2::Volume, properties: {Size: 1, AvailabilityZone: nova, Tags: [{Key: tier, Value: gold}]}}
  mount:
    type: AWS::EC2::VolumeAttachment
    properties: {InstanceId: {get_resource: web}, VolumeId: {get_resource: data}, Device: /dev/vdb}
  ip:
    type: AWS::EC2::EIP
    depends_on: attachment
    properties: {InstanceId: {get_resource: web}}
  worker:
    type: AWS::EC2::Instance
    depends_on: routed
    properties:
      ImageId: cirros-0.6.2-x86_64-disk
      InstanceType: m1.tiny
      SubnetId: {get_resource: subnet}
      SecurityGroups: [{get_resource: sg}]
  worker_ip: {type: AWS::EC2::EIP, depends_on: attachment, properties: {Domain: vpc}}
  worker_ip_assoc:
    type: AWS::EC2::EIPAssociation
    properties: {AllocationId: {get_attr: [worker_ip, AllocationId]}, InstanceId: {get_resource: worker}}
outputs:
  address: {value: {get_resource: ip}}
  public_ip: {value: {get_attr: [web, PublicIp]}}
  zone: {value: {get_attr: [subnet, AvailabilityZone]}}
  nic_ip: {value: {get_attr: [nic, PrivateIpAddress]}}
  gateway: {value: {get_resource: gateway}}
`;

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
