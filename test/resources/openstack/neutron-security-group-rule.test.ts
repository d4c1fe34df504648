import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, OpenStackError, openCloud } from '../../../src/openstack/index.js';
import { ResourceInError } from '../../../src/resources/contract.js';
import { neutronSecurityGroupRulePlugin as plugin } from '../../../src/resources/openstack/neutron/security-group-rule.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Value } from '../../../src/template/functions/types.js';
import { sandboxEnv } from '../../sandbox/support.js';
import { FakeResource, rejection } from '../helpers.js';

type Rule = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// OS::Neutron::SecurityGroupRule against the sandbox cloud.
describe('OS::Neutron::SecurityGroupRule on the sandbox cloud', () => {
  let app: FastifyInstance;
  let cloud: Cloud;
  let web: string;
  let lb: string;

  const makeGroup = async (name: string) =>
    (
      await cloud.request<{ security_group: { id: string } }>('network', 'POST', '/security-groups', {
        security_group: { name },
      })
    ).body.security_group.id;

  before(async () => {
    ({ app } = createSandbox());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    cloud = openCloud(loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${port}`), searchPath: [] }));
    web = await makeGroup('rule-web');
    lb = await makeGroup('rule-lb');
  });
  after(async () => {
    await cloud?.close();
    await app?.close();
  });

  const live = async (id: string): Promise<Rule> =>
    (await cloud.request<{ security_group_rule: Rule }>('network', 'GET', `/security-group-rules/${id}`)).body
      .security_group_rule;
  const count = async (group: string) =>
    (
      await cloud.request<{ security_group_rules: unknown[] }>(
        'network',
        'GET',
        '/security-group-rules',
        undefined,
        {
          query: { security_group_id: group },
        },
      )
    ).body.security_group_rules.length;
  const resource = (key: string, on: Cloud = cloud) => {
    const r = new FakeResource(plugin, { name: 'rule', stackName: 'st', key });
    r.cloud = on;
    return r;
  };

  it('creates a rule marked in its description, once, observes and deletes it', async () => {
    const before = await count(web);
    const props: Record<string, Value> = {
      security_group: 'rule-web',
      port_range_min: 22,
      port_range_max: 22,
    };
    const rule = resource('key-ssh');
    await rule.create(props);
    const id = rule.physicalId!;
    const r = await live(id);
    assert.equal(r.security_group_id, web);
    assert.equal(r.direction, 'ingress');
    assert.equal(r.ethertype, 'IPv4');
    assert.equal(r.protocol, 'tcp');
    assert.equal(r.port_range_min, 22);
    assert.equal(r.description, 'hearth:key-ssh');

    const again = resource('key-ssh');
    await again.create(props);
    assert.equal(again.physicalId, id);
    assert.equal(await count(web), before + 1);

    const reality = await plugin.getReality(rule.ctx());
    assert.deepEqual(reality, {
      state: 'present',
      properties: {
        // The template's name while it names the rule's group.
        security_group: 'rule-web',
        description: null,
        remote_group: null,
        direction: 'ingress',
        ethertype: 'IPv4',
        port_range_min: 22,
        port_range_max: 22,
        protocol: 'tcp',
        remote_ip_prefix: null,
      },
    });
    assert.equal(((await rule.attribute('show')) as Rule).id, id);

    // Nothing changes in place.
    assert.deepEqual(await rule.update({ ...props, port_range_max: 23 }), {
      replace: 'schema',
      properties: ['port_range_max'],
    });

    await rule.delete();
    assert.deepEqual(await plugin.getReality(rule.ctx()), { state: 'gone' });
    await rule.delete();
    assert.equal(rule.progress, undefined);
    assert.equal(await count(web), before);
  });

  it('with a description of its own, a retried create adopts the rule the first run made', async () => {
    const props: Record<string, Value> = {
      security_group: web,
      description: 'from the load balancer',
      remote_group: 'rule-lb',
      protocol: 'tcp',
      port_range_min: 80,
      port_range_max: 80,
    };
    const rule = resource('key-http');
    await rule.create(props);
    const r = await live(rule.physicalId!);
    assert.equal(r.description, 'from the load balancer');
    assert.equal(r.remote_group_id, lb);

    const again = resource('key-http');
    await again.create(props);
    assert.equal(again.physicalId, rule.physicalId);

    // A Neutron whose duplicate message names no rule: the rule is found by its fields.
    const vague: Cloud = {
      ...cloud,
      request: async (...args: Parameters<Cloud['request']>) => {
        try {
          return await cloud.request(...args);
        } catch (error) {
          if (!(error instanceof OpenStackError) || error.status !== 409) throw error;
          throw new OpenStackError({ ...error, detail: 'Security group rule already exists.' });
        }
      },
    } as Cloud;
    const third = resource('key-http', vague);
    await third.create(props);
    assert.equal(third.physicalId, rule.physicalId);

    const reality = await plugin.getReality(rule.ctx());
    assert.ok(reality.state === 'present');
    assert.equal(reality.properties.description, 'from the load balancer');
    assert.equal(reality.properties.security_group, web);
    assert.equal(reality.properties.remote_group, 'rule-lb');
    await rule.delete();
  });

  it('fails, to be retried, when the group already has that rule made by someone else', async () => {
    const made = await cloud.request<{ security_group_rule: { id: string } }>(
      'network',
      'POST',
      '/security-group-rules',
      { security_group_rule: { security_group_id: web, direction: 'ingress', protocol: 'udp' } },
    );
    const rule = resource('key-dup');
    const error = await rejection(() => rule.create({ security_group: web, protocol: 'udp' }));
    assert.ok(error instanceof ResourceInError, String(error));
    assert.match(error.message, /already exists/);
    await cloud.request('network', 'DELETE', `/security-group-rules/${made.body.security_group_rule.id}`);
  });

  it('refuses a remote group with a remote prefix, and an inverted port range', () => {
    const validate = (raw: Record<string, Value>) =>
      plugin.validate!(resource('v').props({ security_group: 'g', ...raw }), ['resources', 'rule']);
    assert.throws(
      () => validate({ remote_group: 'x', remote_ip_prefix: '10.0.0.0/8' }),
      /at the same time: remote_group, remote_ip_prefix/,
    );
    assert.throws(() => validate({ port_range_min: 90, port_range_max: 80 }), /less than or equal/);
    validate({ protocol: 'icmp', port_range_min: 8, port_range_max: 0 });
    assert.throws(() => resource('v').props({ security_group: 'g', protocol: 'bogus' }), /allowed value/);
    resource('v').props({ security_group: 'g', protocol: '6' });
  });
});
