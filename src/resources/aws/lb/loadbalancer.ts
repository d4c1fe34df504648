import { type Cloud, isNotFound } from '../../../openstack/index.js';
import { type DocPath, TemplateError } from '../../../template/errors.js';
import { isUnknown, UNKNOWN, type Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../../nested-type.js';
import { failure } from '../../openstack/common.js';
import { firstAddress, type HealthCheck, haproxyConfig, type Listener } from './haproxy.js';
import { loadBalancerTemplate } from './loadbalancer-template.js';

/**
 * AWS::ElasticLoadBalancing::LoadBalancer: as in Heat, a nested stack of an haproxy server
 * (loadbalancer-template.ts) whose configuration lists the `Instances` by address (read from Nova
 * before the child is made: `gather`). A change of the instances changes only that file in the
 * server's metadata, which cfn-hup picks up; a change of `SecurityGroups` updates the server. The
 * parent stack's KeyName, LbImageId, LbFlavor and LBTimeout parameters, when it has them, are
 * passed on. Its DNSName is the server's address; the other attributes are empty, as in Heat.
 */

/** Parameters of the parent stack the child takes when the parent has them (Heat's "magic" ones). */
const PASSED_ON = ['KeyName', 'LbFlavor', 'LBTimeout', 'LbImageId'];
/** Heat's address for a member it cannot find. */
const NO_ADDRESS = '0.0.0.0';

const notImplemented = (type: 'string' | 'list') =>
  (type === 'string' ? P.string : P.list)({ description: 'Not implemented.', implemented: false });

/** The members' addresses, in order (Heat asks Nova for each server). */
async function memberAddresses(properties: Record<string, Value>, cloud: Cloud) {
  const addresses: string[] = [];
  for (const id of (properties.Instances as Value[] | null) ?? []) {
    try {
      const r = await cloud.request<{ server: JsonObject }>('compute', 'GET', `/servers/${String(id)}`);
      addresses.push(firstAddress(r.body.server) ?? NO_ADDRESS);
    } catch (error) {
      if (!isNotFound(error)) throw failure('reading the address of a load-balanced instance', error);
      addresses.push(NO_ADDRESS);
    }
  }
  return addresses;
}

export const loadBalancerPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: 'AWS::ElasticLoadBalancing::LoadBalancer',
  description: 'A load balancer: a nested stack of an haproxy server in front of the instances given.',
  properties: {
    AvailabilityZones: P.list({
      description: 'The availability zones of the load balancer.',
      required: true,
    }),
    HealthCheck: P.map({
      description: 'How the instances are checked.',
      schema: {
        HealthyThreshold: P.integer({
          description: 'Checks passed in a row before an instance counts as healthy.',
          required: true,
        }),
        Interval: P.integer({ description: 'Seconds between two checks of an instance.', required: true }),
        Target: P.string({ description: 'What is checked.', required: true }),
        Timeout: P.integer({ description: 'Seconds a check may take.', required: true }),
        UnhealthyThreshold: P.integer({
          description: 'Checks failed in a row before an instance counts as unhealthy.',
          required: true,
        }),
      },
    }),
    Instances: P.list({ description: 'The ids of the servers balanced over.', updateAllowed: true }),
    Listeners: P.list({
      description: 'The ports the load balancer listens on (the first one is used).',
      required: true,
      items: P.map({
        schema: {
          InstancePort: P.integer({ description: 'The instances’ port.', required: true }),
          LoadBalancerPort: P.integer({
            description: 'The port the load balancer listens on.',
            required: true,
          }),
          Protocol: P.string({
            description: 'The protocol balanced.',
            required: true,
            constraints: [C.allowedValues(['TCP', 'HTTP'])],
          }),
          SSLCertificateId: notImplemented('string'),
          PolicyNames: notImplemented('list'),
        },
      }),
    }),
    AppCookieStickinessPolicy: notImplemented('string'),
    LBCookieStickinessPolicy: notImplemented('string'),
    SecurityGroups: P.list({
      description: 'The security groups of the load balancer’s server.',
      updateAllowed: true,
    }),
    Subnets: notImplemented('list'),
  },
  attributes: {
    CanonicalHostedZoneName: attr('The hosted zone of the load balancer (empty).', 'string'),
    CanonicalHostedZoneNameID: attr('The id of that hosted zone (empty).', 'string'),
    DNSName: attr('The address the load balancer is reached at.', 'string'),
    'SourceSecurityGroup.GroupName': attr(
      'A security group for the instances’ inbound rules (empty).',
      'string',
    ),
    'SourceSecurityGroup.OwnerAlias': attr('The owner of that security group (empty).', 'string'),
  },

  validate(properties: Record<string, Value>, path: DocPath) {
    const health = properties.HealthCheck;
    if (health === null || health === undefined || isUnknown(health)) return;
    const { Interval, Timeout } = health as Record<string, Value>;
    if (Interval === UNKNOWN || Timeout === UNKNOWN) return;
    if (Number(Interval) < Number(Timeout)) {
      throw new TemplateError('property', 'Interval must be larger than Timeout', [...path, 'HealthCheck']);
    }
  },

  nested: {
    async gather(properties, cloud) {
      return { addresses: await memberAddresses(properties, cloud) };
    },
    child(properties, _data, options) {
      const parameters: JsonObject = {};
      for (const name of PASSED_ON) {
        const value = options?.stackParameters?.get(name);
        if (value !== undefined && !isUnknown(value) && value !== null) parameters[name] = String(value);
      }
      const groups = properties.SecurityGroups;
      if (Array.isArray(groups)) parameters.SecurityGroups = groups.map(String).join(',');
      const instances = properties.Instances as Value[] | null;
      let config = '';
      if (instances && instances.length > 0) {
        const gathered = options?.gathered?.addresses;
        // A preview asks the cloud nothing: its members have no address.
        const addresses = Array.isArray(gathered) ? gathered.map(String) : instances.map(() => '0.0.0.0');
        const listener = (properties.Listeners as unknown as Listener[])[0]!;
        config = haproxyConfig(listener, properties.HealthCheck as unknown as HealthCheck | null, addresses);
      }
      const withKey = parameters.KeyName !== undefined;
      return { template: JSON.stringify(loadBalancerTemplate(withKey, config)), parameters };
    },
    attributes(view) {
      return {
        DNSName: view.outputs.PublicIp ?? null,
        CanonicalHostedZoneName: '',
        CanonicalHostedZoneNameID: '',
        'SourceSecurityGroup.GroupName': '',
        'SourceSecurityGroup.OwnerAlias': '',
      };
    },
  },
};
