import { type DocPath, TemplateError } from '../../../template/errors.js';
import { UNKNOWN, type Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, RealityState } from '../../contract.js';
import {
  createMarker,
  failure,
  type NeutronCollection,
  present,
  neutronDeletion,
  realityOf,
} from '../common.js';
import {
  DIRECTION,
  ETHERTYPE,
  PORT_RANGE_MIN,
  RULE_PROTOCOLS,
  RULE_PROTOCOL_DESCRIPTION,
  duplicateRuleId,
  portRangeMax,
  ruleKey,
} from './rules.js';
import { liveRef, SECURITY_GROUP_REFS } from './live-refs.js';

/**
 * A rule of a Neutron security group, as OS::Neutron::SecurityGroupRule. Nothing updates in place.
 * Idempotency: without a template description the create marker is the rule's description; with
 * one, the retried create is refused as a duplicate of the rule the first run made, and adopts it.
 */

type Rule = JsonObject & { id: string; security_group_id: string };

const RULES: NeutronCollection = {
  path: '/security-group-rules',
  key: 'security_group_rule',
  what: 'the security group rule',
};

const groupId = async (ctx: PluginContext, ref: string) =>
  (await ctx.openstack().findByNameOrId('network', '/security-groups', 'security_groups', ref)).id;

async function show(ctx: PluginContext): Promise<Rule> {
  const r = await ctx
    .openstack()
    .request<{ security_group_rule: Rule }>('network', 'GET', `/security-group-rules/${ctx.physicalId}`);
  return r.body.security_group_rule;
}

async function requestBody(ctx: PluginContext, properties: Record<string, Value>): Promise<JsonObject> {
  const body: JsonObject = {
    ...present(properties, [
      'direction',
      'ethertype',
      'protocol',
      'port_range_min',
      'port_range_max',
      'remote_ip_prefix',
      'description',
    ]),
    security_group_id: await groupId(ctx, properties.security_group as string),
  };
  const remote = properties.remote_group as string | null | undefined;
  if (remote) body.remote_group_id = await groupId(ctx, remote);
  return body;
}

/** The group's rule equal to `body` (Neutron answered that it exists without naming it). */
async function findSame(ctx: PluginContext, body: JsonObject): Promise<string | undefined> {
  const listed = await ctx
    .openstack()
    .request<{ security_group_rules: Rule[] }>('network', 'GET', '/security-group-rules', undefined, {
      query: { security_group_id: body.security_group_id as string, direction: body.direction as string },
    });
  return listed.body.security_group_rules.find((r) => ruleKey(r) === ruleKey(body))?.id;
}

async function createRule(ctx: PluginContext, properties: Record<string, Value>): Promise<string> {
  const cloud = ctx.openstack();
  const body = await requestBody(ctx, properties);
  const marked = body.description === undefined;
  if (marked) {
    body.description = createMarker(ctx);
    const found = await cloud.request<{ security_group_rules: Rule[] }>(
      'network',
      'GET',
      RULES.path,
      undefined,
      { query: { description: body.description } },
    );
    const id = found.body.security_group_rules[0]?.id;
    if (id !== undefined) return id;
  }
  try {
    const made = await cloud.request<{ security_group_rule: Rule }>('network', 'POST', RULES.path, {
      security_group_rule: body,
    });
    return made.body.security_group_rule.id;
  } catch (error) {
    const existing = marked ? undefined : duplicateRuleId(error);
    if (existing === undefined) throw error;
    const id = existing || (await findSame(ctx, body));
    if (id === undefined) throw error;
    return id;
  }
}

export const neutronSecurityGroupRulePlugin: CatalogPlugin = {
  type: 'OS::Neutron::SecurityGroupRule',
  description:
    'A resource for managing Neutron security group rules. Rules to use in security group resource.',
  supportStatus: { version: '7.0.0' },
  properties: {
    security_group: P.string({
      description: 'Security group name or ID to add rule.',
      required: true,
      constraints: [C.custom('neutron.security_group')],
    }),
    description: P.string({ description: 'Description of the security group rule.' }),
    direction: DIRECTION,
    ethertype: ETHERTYPE,
    port_range_min: PORT_RANGE_MIN,
    port_range_max: portRangeMax('code'),
    protocol: P.string({
      description: RULE_PROTOCOL_DESCRIPTION,
      default: 'tcp',
      constraints: [C.allowedValues(RULE_PROTOCOLS)],
    }),
    remote_group: P.string({
      description: 'The remote group name or ID to be associated with this security group rule.',
      constraints: [C.custom('neutron.security_group')],
    }),
    remote_ip_prefix: P.string({
      description: 'The remote IP prefix (CIDR) to be associated with this security group rule.',
      constraints: [C.custom('net_cidr')],
    }),
  },
  attributes: {
    show: attr('Detailed information about resource.', 'map'),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    // Set and known: a value not known yet (template validation) may still be null.
    const set = (name: string) =>
      properties[name] !== undefined && properties[name] !== null && properties[name] !== UNKNOWN;
    if (set('remote_group') && set('remote_ip_prefix')) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: remote_group, remote_ip_prefix.',
        path,
      );
    }
    const { port_range_min: min, port_range_max: max, protocol } = properties;
    if (
      typeof min === 'number' &&
      typeof max === 'number' &&
      !['icmp', 'icmpv6', 'ipv6-icmp'].includes(protocol as string) &&
      max < min
    ) {
      throw new TemplateError(
        'property',
        'The minimum port number must be less than or equal to the maximum port number.',
        path,
      );
    }
  },

  async create(ctx, properties) {
    try {
      return { physicalId: await createRule(ctx, properties) };
    } catch (error) {
      throw failure('creating the security group rule', error);
    }
  },

  ...neutronDeletion(RULES),

  async getReality(ctx): Promise<RealityState> {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const r = await show(ctx);
      const description = (r.description as string | undefined) ?? '';
      const stored = ctx.storedProperties ?? {};
      const properties: Record<string, Value> = {
        security_group: await liveRef(ctx, stored.security_group, r.security_group_id, SECURITY_GROUP_REFS),
        // The create marker is not the template's.
        description: description === '' || description.startsWith('hearth:') ? null : description,
        remote_group: await liveRef(
          ctx,
          stored.remote_group,
          r.remote_group_id as string | null,
          SECURITY_GROUP_REFS,
        ),
      };
      for (const key of [
        'direction',
        'ethertype',
        'port_range_min',
        'port_range_max',
        'protocol',
        'remote_ip_prefix',
      ])
        properties[key] = (r[key] ?? null) as Value;
      return properties;
    });
  },

  async attribute(ctx, name) {
    if (!ctx.physicalId) return null;
    const r = await show(ctx);
    return name === 'show' ? (r as Value) : ((r[name] ?? null) as Value);
  },
};
