import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, openCloud } from '../../../src/openstack/index.js';
import { neutronPortPlugin } from '../../../src/resources/openstack/neutron/port.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { TemplateError } from '../../../src/template/errors.js';
import type { Value } from '../../../src/template/functions/types.js';
import { sandboxEnv } from '../../sandbox/support.js';
import { FakeResource } from '../helpers.js';

type Port = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// OS::Neutron::Port against the sandbox cloud, through the OpenStack client, over HTTP.
describe('OS::Neutron::Port on the sandbox cloud', () => {
  let app: FastifyInstance;
  let cloud: Cloud;
  let net: string;
  let subnet: string;
  let web: string;
  let defaultGroup: string;

  const post = async (collection: string, key: string, body: Record<string, unknown>) =>
    (
      await cloud.request<Record<string, { id: string }>>('network', 'POST', `/${collection}`, {
        [key]: body,
      })
    ).body[key]!.id;

  before(async () => {
    ({ app } = createSandbox());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    cloud = openCloud(loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${port}`), searchPath: [] }));
    net = await post('networks', 'network', { name: 'port-net' });
    subnet = await post('subnets', 'subnet', {
      network_id: net,
      name: 'port-subnet',
      cidr: '10.0.0.0/24',
      ip_version: 4,
    });
    web = await post('security-groups', 'security_group', { name: 'web' });
    const groups = await cloud.request<{ security_groups: { id: string }[] }>(
      'network',
      'GET',
      '/security-groups',
      undefined,
      { query: { name: 'default' } },
    );
    defaultGroup = groups.body.security_groups[0]!.id;
  });
  after(async () => {
    await cloud?.close();
    await app?.close();
  });

  const live = async (id: string): Promise<Port> =>
    (await cloud.request<{ port: Port }>('network', 'GET', `/ports/${id}`)).body.port;
  const resource = (key: string) => {
    const r = new FakeResource(neutronPortPlugin, { name: 'port', stackName: 'st', key });
    r.cloud = cloud;
    return r;
  };
  const countNamed = async (name: string) =>
    (
      await cloud.request<{ ports: unknown[] }>('network', 'GET', '/ports', undefined, {
        query: { name },
      })
    ).body.ports.length;

  const PROPS: Record<string, Value> = {
    name: 'web-port',
    network: 'port-net',
    fixed_ips: [{ subnet: 'port-subnet', ip_address: '10.0.0.10' }],
    security_groups: ['web'],
    allowed_address_pairs: [{ ip_address: '10.0.0.100' }],
    mac_address: 'fa:16:3e:00:00:01',
    tags: ['blue'],
  };

  it('creates a port from names, finds it again on a retried create, and shows its attributes', async () => {
    const port = resource('key-port');
    await port.create(PROPS);
    const id = port.physicalId!;
    const p = await live(id);
    assert.equal(p.name, 'web-port');
    assert.equal(p.network_id, net);
    assert.deepEqual(p.fixed_ips, [{ subnet_id: subnet, ip_address: '10.0.0.10' }]);
    assert.deepEqual(p.security_groups, [web]);
    assert.deepEqual(p.allowed_address_pairs, [{ ip_address: '10.0.0.100', mac_address: null }]);
    assert.equal(p.mac_address, 'fa:16:3e:00:00:01');
    assert.deepEqual(p.tags, ['blue']);
    assert.equal(p.description, 'hearth:key-port');

    // The same create run again (after a crash) finds the port instead of making a second.
    const again = resource('key-port');
    await again.create(PROPS);
    assert.equal(again.physicalId, id);
    assert.equal(await countNamed('web-port'), 1);

    assert.equal(await port.attribute('network_id'), net);
    assert.equal(await port.attribute('status'), 'DOWN');
    assert.equal(await port.attribute('mac_address'), 'fa:16:3e:00:00:01');
    assert.deepEqual(await port.attribute('security_groups'), [web]);
    assert.deepEqual(await port.attribute('fixed_ips'), [{ subnet_id: subnet, ip_address: '10.0.0.10' }]);
    assert.equal(await port.attribute('tenant_id'), p.project_id);
    assert.equal(await port.attribute('admin_state_up'), true);
    const subnets = (await port.attribute('subnets')) as { id: string; cidr: string }[];
    assert.deepEqual(
      subnets.map((s) => [s.id, s.cidr]),
      [[subnet, '10.0.0.0/24']],
    );
    assert.equal(((await port.attribute('network')) as { id: string }).id, net);
    assert.equal(((await port.attribute('show')) as { id: string }).id, id);
    // get_resource of a port (a server's `networks: [{port: ...}]`) is its id.
    assert.equal(port.referenceId(), id);

    const reality = await neutronPortPlugin.getReality(port.ctx());
    assert.equal(reality.state, 'present');
    assert.ok(reality.state === 'present');
    assert.equal(reality.properties.name, 'web-port');
    // Neutron shows ids: the template's names stand while they name the live objects.
    assert.equal(reality.properties.network, 'port-net');
    assert.deepEqual(reality.properties.fixed_ips, [{ subnet: 'port-subnet', ip_address: '10.0.0.10' }]);
    assert.deepEqual(reality.properties.security_groups, ['web']);
    assert.equal(reality.properties.mac_address, 'fa:16:3e:00:00:01');
    assert.deepEqual(reality.properties.tags, ['blue']);

    // In place: name, groups, state, pairs, addresses, tags.
    const outcome = await port.update({
      ...PROPS,
      name: 'renamed',
      security_groups: [],
      admin_state_up: false,
      allowed_address_pairs: [{ ip_address: '10.0.0.0/28', mac_address: 'fa:16:3e:00:00:09' }],
      fixed_ips: [{ subnet_id: subnet, ip_address: '10.0.0.11' }],
      tags: ['green'],
      'binding:vnic_type': 'direct',
    });
    assert.ok(!('replace' in outcome), JSON.stringify(outcome));
    const u = await live(id);
    assert.equal(u.name, 'renamed');
    assert.deepEqual(u.security_groups, []);
    assert.equal(u.admin_state_up, false);
    assert.deepEqual(u.allowed_address_pairs, [
      { ip_address: '10.0.0.0/28', mac_address: 'fa:16:3e:00:00:09' },
    ]);
    assert.deepEqual(u.fixed_ips, [{ subnet_id: subnet, ip_address: '10.0.0.11' }]);
    assert.deepEqual(u.tags, ['green']);
    assert.equal(u['binding:vnic_type'], 'direct');
    assert.equal(u.mac_address, 'fa:16:3e:00:00:01');

    // Groups removed from the template: the project's default group, as in Heat; the name back to
    // the generated one; fixed_ips removed: the addresses are kept.
    const { security_groups: _g, name: _n, fixed_ips: _f, ...rest } = PROPS;
    await port.update({ ...rest, tags: ['green'] });
    const d = await live(id);
    assert.deepEqual(d.security_groups, [defaultGroup]);
    assert.match(d.name, /^st-port-[a-z2-7]{12}$/);
    assert.deepEqual(d.fixed_ips, [{ subnet_id: subnet, ip_address: '10.0.0.11' }]);

    await port.delete();
    assert.deepEqual(await neutronPortPlugin.getReality(port.ctx()), { state: 'gone' });
    // A delete of what is already gone is done.
    await port.delete();
    assert.equal(port.progress, undefined);
  });

  it('replaces on a new network or MAC address, and always with REPLACE_ALWAYS', async () => {
    const port = resource('key-replace');
    await port.create({ network: net });
    const other = await post('networks', 'network', { name: 'other-net' });
    assert.deepEqual(await port.update({ network: other }), { replace: 'schema', properties: ['network'] });
    assert.deepEqual(await port.update({ network: net, mac_address: 'fa:16:3e:00:00:02' }), {
      replace: 'schema',
      properties: ['mac_address'],
    });
    const props = port.props({ network: net, replacement_policy: 'REPLACE_ALWAYS', name: 'x' });
    assert.equal(neutronPortPlugin.needsReplace!(props, port.storedProperties!, ['name']), true);
    const auto = port.props({ network: net, name: 'x' });
    assert.equal(neutronPortPlugin.needsReplace!(auto, port.storedProperties!, ['name']), false);
    await port.delete();
  });

  it('takes the older network_id, the default group, no group, and no fixed IPs', async () => {
    const plain = resource('key-plain');
    await plain.create({ network_id: 'port-net' });
    const p = await live(plain.physicalId!);
    assert.equal(p.network_id, net);
    assert.match(p.name, /^st-port-[a-z2-7]{12}$/);
    assert.deepEqual(p.security_groups, [defaultGroup]);
    assert.equal(p.fixed_ips.length, 1);

    const bare = resource('key-bare');
    await bare.create({ network: net, security_groups: [], no_fixed_ips: true });
    const b = await live(bare.physicalId!);
    assert.deepEqual(b.security_groups, []);
    assert.deepEqual(b.fixed_ips, []);
    await plain.delete();
    await bare.delete();
  });

  it('fails a create on a network that does not exist', async () => {
    const port = resource('key-missing');
    await assert.rejects(port.create({ network: 'no-such-net' }), /no-such-net/);
    assert.equal(port.physicalId, null);
  });

  it('passes propagate_uplink_status to Neutron, and changes it in place', async () => {
    const port = resource('key-uplink');
    await port.create({ network: 'port-net', propagate_uplink_status: true });
    assert.equal((await live(port.physicalId!)).propagate_uplink_status, true);
    assert.equal(await port.attribute('propagate_uplink_status'), true);
    await port.update({ network: 'port-net', propagate_uplink_status: false });
    assert.equal((await live(port.physicalId!)).propagate_uplink_status, false);
    await port.delete();
  });

  it('checks the network and fixed_ips against no_fixed_ips at validation', () => {
    const validate = (raw: Record<string, Value>) =>
      neutronPortPlugin.validate!(resource('v').props(raw), ['resources', 'port', 'properties']);
    assert.throws(
      () => validate({}),
      (e: unknown) => e instanceof TemplateError && /Property network not assigned/.test(e.message),
    );
    validate({ network_id: 'n' });
    assert.throws(() => validate({ network_id: 'n', network: 'n' }), /at the same time: network, network_id/);
    assert.throws(
      () => validate({ network: 'n', fixed_ips: [{ subnet: 's', subnet_id: 's' }] }),
      /fixed_ips\[0\]: Cannot define the following properties at the same time: subnet, subnet_id/,
    );
    assert.throws(
      () => validate({ network: 'n', no_fixed_ips: true, fixed_ips: [{ ip_address: '10.0.0.5' }] }),
      /fixed_ips, no_fixed_ips/,
    );
    validate({ network: 'n', no_fixed_ips: true });
  });
});
