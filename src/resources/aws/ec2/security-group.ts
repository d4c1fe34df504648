import { LookupError } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { P, type PropertySchema } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type PluginContext, ResourceFailure } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { createNeutronObject, failure, neutronDeletion, realityOf } from '../../openstack/common.js';
import { ruleKey } from '../../openstack/neutron/rules.js';
import {
  DEFAULT_EGRESS,
  formatRule,
  type Group,
  GROUPS,
  hasEgress,
  type LiveRule,
  reconcileRules,
  type Rule,
  showGroup,
} from '../../openstack/neutron/security-group.js';

/**
 * AWS::EC2::SecurityGroup: a Neutron security group whose rules are the template's ingress and
 * egress rules, kept in step on create and update by OS::Neutron::SecurityGroup's own rule
 * reconciliation (Neutron's default egress rules stay when the template gives no egress rule).
 */

/** A port as Heat reads it: a number, none when negative (Neutron takes no negative port). */
function port(value: Value | undefined, name: string): number | null {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  if (!Number.isInteger(n))
    throw new ResourceFailure(`invalid literal for int() with base 10: '${String(value)}' (${name})`);
  return n < 0 ? null : n;
}

/** An AWS rule as an OS::Neutron::SecurityGroup rule, as Heat converts it. */
function neutronRule(rule: JsonObject, direction: 'ingress' | 'egress'): Rule {
  const noPorts = (rule.FromPort ?? null) === null && (rule.ToPort ?? null) === null;
  const source = (rule.SourceSecurityGroupId || rule.SourceSecurityGroupName || null) as string | null;
  return {
    direction,
    ethertype: 'IPv4',
    protocol: (rule.IpProtocol as string | null) ?? null,
    port_range_min: port(rule.FromPort, 'FromPort'),
    port_range_max: port(rule.ToPort, 'ToPort'),
    // Neutron takes a group's name or id; the remote group is looked up as OS rules' are.
    ...(source
      ? { remote_mode: 'remote_group_id', remote_group_id: source }
      : {
          remote_mode: 'remote_ip_prefix',
          remote_ip_prefix: noPorts ? null : ((rule.CidrIp as string | null) ?? null),
        }),
  };
}

function neutronRules(properties: Record<string, Value>): Rule[] {
  const list = (name: string) => (properties[name] ?? []) as JsonObject[];
  return [
    ...list('SecurityGroupIngress').map((r) => neutronRule(r, 'ingress')),
    ...list('SecurityGroupEgress').map((r) => neutronRule(r, 'egress')),
  ];
}

/** A live rule in the template's terms. */
function awsRule(r: LiveRule): JsonObject {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v as string));
  return {
    IpProtocol: text(r.protocol),
    FromPort: text(r.port_range_min),
    ToPort: text(r.port_range_max),
    CidrIp: text(r.remote_ip_prefix),
    SourceSecurityGroupId: text(r.remote_group_id),
  };
}

/** The rules as the template gives them while the group's are the template's, else as Neutron shows them. */
async function liveRules(ctx: PluginContext, g: Group): Promise<Record<string, Value>> {
  const stored = ctx.storedProperties ?? {};
  const rules = neutronRules(stored);
  const desired = await Promise.all(rules.map((r) => formatRule(ctx, r, g.id))).catch((error: unknown) => {
    if (error instanceof LookupError) return undefined;
    throw error;
  });
  const wanted = new Set([...(desired ?? []), ...(hasEgress(rules) ? [] : DEFAULT_EGRESS)].map(ruleKey));
  const live = g.security_group_rules;
  const have = new Set(live.map(ruleKey));
  if (desired && wanted.size === have.size && [...wanted].every((k) => have.has(k))) {
    return {
      SecurityGroupIngress: stored.SecurityGroupIngress ?? null,
      SecurityGroupEgress: stored.SecurityGroupEgress ?? null,
    };
  }
  const defaults = hasEgress(rules) ? new Set<string>() : new Set(DEFAULT_EGRESS.map(ruleKey));
  const of = (direction: string) =>
    live.filter((r) => r.direction === direction && !defaults.has(ruleKey(r))).map(awsRule);
  return { SecurityGroupIngress: of('ingress'), SecurityGroupEgress: of('egress') };
}

const RULE_SCHEMA: Record<string, PropertySchema> = {
  CidrIp: P.string(),
  FromPort: P.string(),
  ToPort: P.string(),
  IpProtocol: P.string(),
  SourceSecurityGroupId: P.string(),
  SourceSecurityGroupName: P.string(),
  SourceSecurityGroupOwnerId: P.string({ implemented: false }),
};

const rules = (direction: string) =>
  P.list({
    updateAllowed: true,
    items: P.map({ description: `List of security group ${direction} rules.`, schema: RULE_SCHEMA }),
  });

export const ec2SecurityGroupPlugin: CatalogPlugin = {
  type: 'AWS::EC2::SecurityGroup',
  description: 'A security group: a Neutron security group with the ingress and egress rules given.',
  properties: {
    GroupDescription: P.string({ description: 'Description of the security group.', required: true }),
    VpcId: P.string({ description: 'Physical ID of the VPC. Not implemented.' }),
    SecurityGroupIngress: rules('ingress'),
    SecurityGroupEgress: rules('egress'),
  },
  attributes: {},

  async create(ctx, properties) {
    const id = await createNeutronObject(
      ctx,
      GROUPS,
      async () => ({ name: physicalResourceName(ctx), description: properties.GroupDescription as string }),
      [],
    );
    try {
      await reconcileRules(ctx, id, neutronRules(properties));
    } catch (error) {
      throw failure('creating the rules of the security group', error);
    }
    return { physicalId: id };
  },

  async update(ctx, properties) {
    try {
      await reconcileRules(ctx, ctx.physicalId!, neutronRules(properties));
      return {};
    } catch (error) {
      throw failure('updating the rules of the security group', error);
    }
  },

  ...neutronDeletion(GROUPS),

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const g = await showGroup(ctx);
      return {
        ...(ctx.storedProperties ?? {}),
        GroupDescription: ((g.description as string | undefined) ?? '') as Value,
        ...(await liveRules(ctx, g)),
      };
    });
  },

  async attribute() {
    return null;
  },
};
