import { OpenStackError } from '../../../openstack/index.js';
import { C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';

/** What security groups and their rules share: Neutron's duplicate-rule answer, rule identity, fields. */

/**
 * Neutron refused a security group rule because the group has the same rule already (409
 * SecurityGroupRuleExists): the existing rule's id from its message ("Rule id is <id>."), or ''
 * when the message names none; undefined for any other error.
 */
export function duplicateRuleId(error: unknown): string | undefined {
  if (!(error instanceof OpenStackError) || error.status !== 409) return undefined;
  if (!/rule already exists/i.test(error.detail)) return undefined;
  return /Rule id is ([0-9a-f-]{36})/i.exec(error.detail)?.[1] ?? '';
}

const PROTOCOL_NAMES = [
  'ah',
  'dccp',
  'egp',
  'esp',
  'gre',
  'icmp',
  'icmpv6',
  'igmp',
  'ipv6-encap',
  'ipv6-frag',
  'ipv6-icmp',
  'ipv6-nonxt',
  'ipv6-opts',
  'ipv6-route',
  'ospf',
  'pgm',
  'rsvp',
  'sctp',
  'tcp',
  'udp',
  'udplite',
  'vrrp',
];

/** The protocols a security group rule may name (Heat's list): these names, or numbers 0-255. */
export const RULE_PROTOCOLS: (string | number)[] = [
  ...Array.from({ length: 256 }, (_, i) => i),
  ...PROTOCOL_NAMES,
];

export const RULE_PROTOCOL_DESCRIPTION = `The protocol that is matched by the security group rule. Allowed values are ${PROTOCOL_NAMES.join(', ')} and integer representations [0-255].`;

/** The fields that tell two rules of a group apart (Neutron's duplicate check; not the description). */
const RULE_KEY_FIELDS = [
  'direction',
  'ethertype',
  'protocol',
  'port_range_min',
  'port_range_max',
  'remote_group_id',
  'remote_ip_prefix',
] as const;

/** A rule (as sent to Neutron or as it shows it) as a string equal for rules Neutron takes as the same. */
export function ruleKey(rule: JsonObject): string {
  return JSON.stringify(
    RULE_KEY_FIELDS.map((k) => (rule[k] === undefined || rule[k] === null ? null : String(rule[k]))),
  );
}

/** Rule fields the inline rules of a SecurityGroup and a SecurityGroupRule share (Heat's texts). */
export const DIRECTION = P.string({
  description:
    'The direction in which the security group rule is applied. For a compute instance, an ingress security group rule matches traffic that is incoming (ingress) for that instance. An egress rule is applied to traffic leaving the instance.',
  default: 'ingress',
  constraints: [C.allowedValues(['ingress', 'egress'])],
});

export const ETHERTYPE = P.string({
  description: 'Ethertype of the traffic.',
  default: 'IPv4',
  constraints: [C.allowedValues(['IPv4', 'IPv6'])],
});

export const PORT_RANGE_MIN = P.integer({
  description:
    'The minimum port number in the range that is matched by the security group rule. If the protocol is TCP or UDP, this value must be less than or equal to the value of the port_range_max attribute. If the protocol is ICMP, this value must be an ICMP type.',
  constraints: [C.range({ min: 0, max: 65535 })],
});

/** Heat words the maximum's ICMP case differently in the two types (type, code). */
export function portRangeMax(icmp: 'type' | 'code') {
  return P.integer({
    description: `The maximum port number in the range that is matched by the security group rule. The port_range_min attribute constrains the port_range_max attribute. If the protocol is ICMP, this value must be an ICMP ${icmp}.`,
    constraints: [C.range({ min: 0, max: 65535 })],
  });
}
