import type { Json } from '../../util/json.js';
import { cronExpression } from './cron.js';
import { dnsDomain, dnsName, ipAddr, ipOrCidr, macAddr, netCidr, relDnsName } from './network-constraints.js';
import { expirationValidator, iso8601, timezone } from './time-constraints.js';
import type { CustomConstraintValidator } from './types.js';

/** Constraints decidable from the value alone, checked everywhere (heat.engine.constraint.common_constraints). */
const OFFLINE: ReadonlyArray<readonly [string, CustomConstraintValidator]> = [
  ['cron_expression', cronExpression],
  ['dns_domain', dnsDomain],
  ['dns_name', dnsName],
  ['expiration', expirationValidator()],
  ['rel_dns_name', relDnsName],
  ['ip_addr', ipAddr],
  ['iso_8601', iso8601],
  ['mac_addr', macAddr],
  ['net_cidr', netCidr],
  ['ip_or_cidr', ipOrCidr],
  ['timezone', timezone],
  ['json_string', jsonString],
];

/**
 * Constraints that look a value up in a cloud service (every other name in Heat's setup.cfg
 * `heat.constraints`). They are known, so templates using them are valid, but with no cloud
 * attached every value passes: they are checked only once a cloud plugin installs a validator
 * with registerCustomConstraint. (`test_constr` and `nova.network` are Heat's test constraints.)
 */
const CLOUD_BACKED = [
  'test_constr',
  'barbican.container',
  'barbican.secret',
  'blazar.reservation',
  'cinder.backup',
  'cinder.qos_specs',
  'cinder.snapshot',
  'cinder.volume',
  'cinder.vtype',
  'designate.zone',
  'glance.image',
  'keystone.domain',
  'keystone.group',
  'keystone.project',
  'keystone.region',
  'keystone.role',
  'keystone.service',
  'keystone.user',
  'magnum.cluster_template',
  'manila.share_network',
  'manila.share_snapshot',
  'manila.share_type',
  'mistral.workflow',
  'neutron.address_scope',
  'neutron.flow_classifier',
  'neutron.lbaas.listener',
  'neutron.lbaas.loadbalancer',
  'neutron.lbaas.pool',
  'neutron.lbaas.provider',
  'neutron.network',
  'neutron.port',
  'neutron.port_pair',
  'neutron.port_pair_group',
  'neutron.qos_policy',
  'neutron.router',
  'neutron.security_group',
  'neutron.segment',
  'neutron.subnet',
  'neutron.subnetpool',
  'neutron.taas.tap_service',
  'neutron.taas.tap_flow',
  'nova.flavor',
  'nova.host',
  'nova.keypair',
  'nova.network',
  'nova.server',
  'octavia.listener',
  'octavia.loadbalancer',
  'octavia.l7policy',
  'octavia.pool',
  'octavia.flavor',
  'octavia.flavorprofile',
  'octavia.availabilityzone',
  'octavia.availabilityzoneprofile',
  'trove.flavor',
  'zaqar.queue',
  'ironic.portgroup',
  'ironic.node',
];

const passOffline: CustomConstraintValidator = () => undefined;

const registry = new Map<string, CustomConstraintValidator>([
  ...OFFLINE,
  ...CLOUD_BACKED.map((name) => [name, passOffline] as const),
]);

function jsonString(value: Json): string | undefined {
  if (value === null || value === '') return undefined;
  if (typeof value !== 'string') return `JSON string ${String(value)} is invalid: not a string`;
  try {
    JSON.parse(value);
    return undefined;
  } catch (err) {
    return `JSON string ${value} is invalid: ${(err as Error).message}`;
  }
}

/**
 * Installs (or replaces) the validator for a constraint name; new names become known. Returns a
 * function that restores what was there before (useful when a cloud session ends, and in tests).
 */
export function registerCustomConstraint(name: string, validator: CustomConstraintValidator): () => void {
  const previous = registry.get(name);
  registry.set(name, validator);
  return () => {
    if (previous === undefined) registry.delete(name);
    else registry.set(name, previous);
  };
}

export function isKnownCustomConstraint(name: string): boolean {
  return registry.has(name);
}

/** Every known constraint name, sorted. */
export function knownCustomConstraints(): string[] {
  return [...registry.keys()].sort();
}

/** The reason `value` fails constraint `name`, as Heat words it, or undefined when it passes. */
export function customConstraintError(name: string, value: Json): string | undefined {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  const validator = registry.get(name);
  if (validator === undefined) return `"${shown}" does not validate ${name} (constraint not found)`;
  const reason = validator(value);
  if (reason === undefined) return undefined;
  return reason === '' ? `Error validating value '${shown}'` : `Error validating value '${shown}': ${reason}`;
}
