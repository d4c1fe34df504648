import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, openCloud } from '../../../src/openstack/index.js';
import { neutronSecurityGroupPlugin } from '../../../src/resources/openstack/neutron/security-group.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Value } from '../../../src/template/functions/types.js';
import { sandboxEnv } from '../../sandbox/support.js';
import { FakeResource } from '../helpers.js';

type Rule = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Group = { id: string; name: string; description: string; tags: string[]; security_group_rules: Rule[] };

/** A rule as a short comparable text: direction ethertype protocol min-max remote. */
const brief = (r: Rule, self: string) =>
  [
    r.direction,
    r.ethertype,
    r.protocol ?? '*',
    `${r.port_range_min ?? ''}-${r.port_range_max ?? ''}`,
    r.remote_group_id === self ? 'self' : (r.remote_group_id ?? r.remote_ip_prefix ?? 'any'),
  ].join(' ');

// OS::Neutron::SecurityGroup against the sandbox cloud: the group and its inline rules.
describe('OS::Neutron::SecurityGroup on the sandbox cloud', () => {
  let app: FastifyInstance;
  let cloud: Cloud;

  before(async () => {
    ({ app } = createSandbox());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    cloud = openCloud(loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${port}`), searchPath: [] }));
  });
  after(async () => {
    await cloud?.close();
    await app?.close();
  });

  const group = async (id: string) =>
    (await cloud.request<{ security_group: Group }>('network', 'GET', `/security-groups/${id}`)).body
      .security_group;
  const rules = async (id: string) => (await group(id)).security_group_rules.map((r) => brief(r, id)).sort();
  const resource = (key: string) => {
    const r = new FakeResource(neutronSecurityGroupPlugin, { name: 'sg', stackName: 'st', key });
    r.cloud = cloud;
    return r;
  };
  const named = async (name: string) =>
    (
      await cloud.request<{ security_groups: unknown[] }>('network', 'GET', '/security-groups', undefined, {
        query: { name },
      })
    ).body.security_groups.length;

  const SSH = { protocol: 'tcp', port_range_min: 22, port_range_max: 22, remote_ip_prefix: '0.0.0.0/0' };
  const SELF = { remote_mode: 'remote_group_id' };

  it('creates the group with its rules beside the default egress ones, once, and updates them', async () => {
    const sg = resource('key-sg');
    const props: Record<string, Value> = { name: 'web', description: 'Web servers', rules: [SSH, SELF] };
    await sg.create(props);
    const id = sg.physicalId!;
    const g = await group(id);
    assert.equal(g.name, 'web');
    // The template's description is the group's; the create marker is a tag.
    assert.equal(g.description, 'Web servers');
    assert.deepEqual(g.tags, ['hearth:key-sg']);
    const expected = [
      'egress IPv4 * - any',
      'egress IPv6 * - any',
      'ingress IPv4 * - self',
      'ingress IPv4 tcp 22-22 0.0.0.0/0',
    ];
    assert.deepEqual(await rules(id), expected);

    // A retried create finds the group and leaves its rules as they are.
    const again = resource('key-sg');
    await again.create(props);
    assert.equal(again.physicalId, id);
    assert.equal(await named('web'), 1);
    assert.deepEqual(await rules(id), expected);

    const reality = await neutronSecurityGroupPlugin.getReality(sg.ctx());
    assert.ok(reality.state === 'present');
    assert.equal(reality.properties.name, 'web');
    assert.equal(reality.properties.description, 'Web servers');
    // The default egress rules stand for "no egress rule", as in the template; the template's
    // rules are shown as it gives them, in its order (the rule on the group itself too).
    const ingress = { direction: 'ingress', ethertype: 'IPv4' };
    assert.deepEqual(reality.properties.rules, [
      { ...ingress, ...SSH, remote_mode: 'remote_ip_prefix' },
      { ...ingress, ...SELF },
    ]);
    assert.equal(((await sg.attribute('show')) as { id: string }).id, id);

    // An egress rule in the template replaces Neutron's default ones; SSH goes, HTTP comes.
    const HTTP = { protocol: 'tcp', port_range_min: 80, port_range_max: 80 };
    const OUT = { direction: 'egress', protocol: 'udp', port_range_min: 53, port_range_max: 53 };
    const outcome = await sg.update({ name: 'www', description: 'Web', rules: [SELF, HTTP, OUT] });
    assert.ok(!('replace' in outcome), JSON.stringify(outcome));
    const u = await group(id);
    assert.equal(u.name, 'www');
    assert.equal(u.description, 'Web');
    assert.deepEqual(await rules(id), [
      'egress IPv4 udp 53-53 any',
      'ingress IPv4 * - self',
      'ingress IPv4 tcp 80-80 any',
    ]);
    // No egress rule again: the default ones come back.
    await sg.update({ name: 'www', description: 'Web', rules: [] });
    assert.deepEqual(await rules(id), ['egress IPv4 * - any', 'egress IPv6 * - any']);

    await sg.delete();
    assert.deepEqual(await neutronSecurityGroupPlugin.getReality(sg.ctx()), { state: 'gone' });
    await sg.delete();
    assert.equal(sg.progress, undefined);
  });

  it('finds a group a crashed create left marked only in its description', async () => {
    const made = await cloud.request<{ security_group: { id: string } }>(
      'network',
      'POST',
      '/security-groups',
      {
        security_group: { name: 'half', description: 'hearth:key-half' },
      },
    );
    const sg = resource('key-half');
    await sg.create({ name: 'half', description: 'Half made', rules: [SSH] });
    assert.equal(sg.physicalId, made.body.security_group.id);
    // The rules the crashed run did not get to are made.
    assert.deepEqual(await rules(sg.physicalId!), [
      'egress IPv4 * - any',
      'egress IPv6 * - any',
      'ingress IPv4 tcp 22-22 0.0.0.0/0',
    ]);
    const g = await group(sg.physicalId!);
    assert.equal(g.description, 'Half made');
    assert.deepEqual(g.tags, ['hearth:key-half']);
    assert.equal(await named('half'), 1);
    await sg.delete();
  });

  it('names the group after the stack when the template does not, and refuses "default"', async () => {
    const sg = resource('key-unnamed');
    await sg.create({});
    const g = await group(sg.physicalId!);
    assert.match(g.name, /^st-sg-[a-z2-7]{12}$/);
    assert.equal(g.description, '');
    const reality = await neutronSecurityGroupPlugin.getReality(sg.ctx());
    assert.ok(reality.state === 'present');
    assert.equal(reality.properties.description, null);
    assert.deepEqual(reality.properties.rules, []);
    await sg.delete();
    assert.throws(
      () => neutronSecurityGroupPlugin.validate!(sg.props({ name: 'default' }), ['resources', 'sg']),
      /cannot be assigned the name "default"/,
    );
  });

  it('waits while a port uses the group, then deletes it', async () => {
    const sg = resource('key-busy');
    await sg.create({ name: 'busy' });
    const net = await cloud.request<{ network: { id: string } }>('network', 'POST', '/networks', {
      network: { name: 'busy-net' },
    });
    const port = await cloud.request<{ port: { id: string } }>('network', 'POST', '/ports', {
      port: { network_id: net.body.network.id, security_groups: [sg.physicalId] },
    });
    const started = await neutronSecurityGroupPlugin.delete(sg.ctx());
    assert.ok(started.progress, 'a group in use is not deleted yet');
    await cloud.request('network', 'DELETE', `/ports/${port.body.port.id}`);
    const done = await neutronSecurityGroupPlugin.checkDeleteComplete!(sg.ctx(), started.progress!);
    assert.equal(done.done, true);
    assert.deepEqual(await neutronSecurityGroupPlugin.getReality(sg.ctx()), { state: 'gone' });
  });
});
