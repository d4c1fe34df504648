import { isNotFound, LookupError } from '../../../openstack/index.js';
import { type DocPath, TemplateError } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, RealityState } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import {
  createNeutronObject,
  failure,
  type NeutronCollection,
  present,
  neutronDeletion,
  realityOf,
} from '../common.js';
import { DIRECTION, ETHERTYPE, PORT_RANGE_MIN, duplicateRuleId, portRangeMax, ruleKey } from './rules.js';

/**
 * A Neutron security group, as OS::Neutron::SecurityGroup, with its rules managed inline: the
 * group's rules are made to match the template's on create and on every update. The template
 * sets the description, so the create marker is kept in a tag.
 */

export type Rule = JsonObject;
export type LiveRule = JsonObject & { id: string; direction: string };
export type Group = JsonObject & { id: string; name: string; security_group_rules: LiveRule[] };

export const GROUPS: NeutronCollection = {
  path: '/security-groups',
  key: 'security_group',
  what: 'the security group',
  markerInTag: true,
};

/** What Neutron gives every new group, and what Heat keeps when the template has no egress rule. */
export const DEFAULT_EGRESS: Rule[] = [
  { direction: 'egress', ethertype: 'IPv4' },
  { direction: 'egress', ethertype: 'IPv6' },
];

export const hasEgress = (rules: Rule[]) => rules.some((r) => r.direction === 'egress');

/** A template rule as Neutron takes it: `remote_mode` picks the remote; a group rule without one refers to its own group. */
export async function formatRule(ctx: PluginContext, rule: Rule, groupId: string): Promise<JsonObject> {
  const out: JsonObject = { ...present(rule, ['direction', 'ethertype', 'protocol', 'description']) };
  for (const key of ['port_range_min', 'port_range_max'] as const)
    if (rule[key] !== undefined && rule[key] !== null) out[key] = rule[key];
  if (rule.remote_mode === 'remote_group_id') {
    const ref = rule.remote_group_id as string | null | undefined;
    out.remote_group_id = ref
      ? (await ctx.openstack().findByNameOrId('network', '/security-groups', 'security_groups', ref)).id
      : groupId;
  } else if (rule.remote_ip_prefix !== undefined && rule.remote_ip_prefix !== null) {
    out.remote_ip_prefix = rule.remote_ip_prefix;
  }
  return out;
}

export async function showGroup(ctx: PluginContext, id = ctx.physicalId): Promise<Group> {
  const r = await ctx
    .openstack()
    .request<{ security_group: Group }>('network', 'GET', `/security-groups/${id}`);
  return r.body.security_group;
}

/**
 * Makes the group's rules those of the template (plus Neutron's default egress rules when the
 * template has no egress rule): the others are deleted, the missing ones added. Idempotent, so a
 * create resumed after a crash simply runs it again.
 */
export async function reconcileRules(ctx: PluginContext, groupId: string, rules: Rule[]): Promise<void> {
  const cloud = ctx.openstack();
  const desired = await Promise.all(
    (hasEgress(rules) ? rules : [...rules, ...DEFAULT_EGRESS]).map((r) => formatRule(ctx, r, groupId)),
  );
  const wanted = new Map(desired.map((r) => [ruleKey(r), r]));
  const have = new Set<string>();
  for (const rule of (await showGroup(ctx, groupId)).security_group_rules) {
    const key = ruleKey(rule);
    if (wanted.has(key)) have.add(key);
    else {
      try {
        await cloud.request('network', 'DELETE', `/security-group-rules/${rule.id}`);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
  }
  for (const [key, rule] of wanted) {
    if (have.has(key)) continue;
    try {
      await cloud.request('network', 'POST', '/security-group-rules', {
        security_group_rule: { ...rule, security_group_id: groupId },
      });
    } catch (error) {
      // Made meanwhile (by a run of this same reconcile): it is there, as wanted.
      if (duplicateRuleId(error) === undefined) throw error;
    }
  }
}

/** A live rule in the template's terms. */
function templateRule(r: LiveRule): Rule {
  const rule: Rule = {
    ...present(r, ['direction', 'ethertype', 'protocol', 'port_range_min', 'port_range_max']),
    remote_mode: r.remote_group_id ? 'remote_group_id' : 'remote_ip_prefix',
    ...present(r, ['remote_group_id', 'remote_ip_prefix']),
  };
  if (r.description) rule.description = r.description;
  return rule;
}

/**
 * The group's rules against the template's: each live rule that is one of the template's is shown
 * as the template gives it (so a rule on the group itself, or in another order, is no drift), in
 * the template's order; the others follow as Neutron shows them. Neutron's default egress rules
 * stand for "no egress rule", as in Heat; a rule marked by another resource's create (an
 * OS::Neutron::SecurityGroupRule of the group) is that resource's, not the group's.
 */
async function liveRules(ctx: PluginContext, g: Group): Promise<Rule[]> {
  const stored = (ctx.storedProperties?.rules ?? []) as Rule[];
  const defaults = hasEgress(stored) ? new Set<string>() : new Set(DEFAULT_EGRESS.map(ruleKey));
  // A template rule whose remote group is gone matches no live rule.
  const wanted = await Promise.all(
    stored.map((r) =>
      formatRule(ctx, r, g.id).catch((error: unknown) => {
        if (error instanceof LookupError) return undefined;
        throw error;
      }),
    ),
  );
  const matched = new Set<number>();
  const others: Rule[] = [];
  for (const live of g.security_group_rules) {
    const description = (live.description as string | undefined) ?? '';
    if (defaults.has(ruleKey(live)) || description.startsWith('hearth:')) continue;
    const at = wanted.findIndex(
      (w, i) =>
        w !== undefined &&
        !matched.has(i) &&
        ruleKey(w) === ruleKey(live) &&
        ((w.description as string) ?? '') === description,
    );
    if (at >= 0) matched.add(at);
    else others.push(templateRule(live));
  }
  return [...stored.filter((_, i) => matched.has(i)), ...others];
}

const RULE = P.map({
  schema: {
    direction: DIRECTION,
    ethertype: ETHERTYPE,
    port_range_min: PORT_RANGE_MIN,
    port_range_max: portRangeMax('type'),
    // Unchecked here, as in Heat 19 (Neutron refuses a protocol it does not know).
    protocol: P.string({
      description: 'The protocol the rule matches, e.g. tcp, udp or icmp; all protocols when omitted.',
    }),
    remote_mode: P.string({
      description: 'Whether to specify a remote group or a remote IP prefix.',
      default: 'remote_ip_prefix',
      constraints: [C.allowedValues(['remote_ip_prefix', 'remote_group_id'])],
    }),
    remote_group_id: P.string({
      description:
        'The remote group ID to be associated with this security group rule. If no value is specified then this rule will use this security group for the remote_group_id. The remote mode parameter must be set to "remote_group_id".',
      constraints: [C.custom('neutron.security_group')],
    }),
    remote_ip_prefix: P.string({
      description: 'The remote IP prefix (CIDR) to be associated with this security group rule.',
      constraints: [C.custom('net_cidr')],
    }),
    description: P.string({
      description: 'Description of the security group rule.',
      supportStatus: { version: '27.0.0' },
    }),
  },
});

export const neutronSecurityGroupPlugin: CatalogPlugin = {
  type: 'OS::Neutron::SecurityGroup',
  description:
    'A resource for managing Neutron security groups. Security groups are sets of IP filter rules that are applied to an instance’s networking.',
  supportStatus: { version: '2014.1' },
  properties: {
    name: P.string({
      description:
        'A string specifying a symbolic name for the security group, which is not required to be unique.',
      updateAllowed: true,
    }),
    description: P.string({ description: 'Description of the security group.', updateAllowed: true }),
    rules: P.list({
      description: 'List of security group rules.',
      default: [],
      items: RULE,
      updateAllowed: true,
    }),
    stateful: P.boolean({
      description: 'Whether to create this security group as stateful or stateless.',
      updateAllowed: true,
      supportStatus: { version: '27.0.0' },
    }),
  },
  attributes: {
    show: attr('Detailed information about resource.', 'map'),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    if (properties.name === 'default') {
      throw new TemplateError('property', 'Security groups cannot be assigned the name "default".', path);
    }
  },

  async create(ctx, properties) {
    const id = await createNeutronObject(
      ctx,
      GROUPS,
      async () => ({
        ...present(properties, ['description', 'stateful']),
        name: (properties.name as string | null) ?? physicalResourceName(ctx),
      }),
      [],
    );
    try {
      await reconcileRules(ctx, id, (properties.rules ?? []) as Rule[]);
    } catch (error) {
      throw failure('creating the rules of the security group', error);
    }
    return { physicalId: id };
  },

  async update(ctx, properties, _previous, changed) {
    try {
      const fields: JsonObject = {};
      if (changed.includes('name'))
        fields.name = (properties.name as string | null) ?? physicalResourceName(ctx);
      if (changed.includes('description'))
        fields.description = (properties.description as string | null) ?? '';
      if (changed.includes('stateful') && properties.stateful !== null && properties.stateful !== undefined)
        fields.stateful = properties.stateful as boolean;
      if (Object.keys(fields).length > 0) {
        await ctx
          .openstack()
          .request('network', 'PUT', `/security-groups/${ctx.physicalId}`, { security_group: fields });
      }
      if (changed.includes('rules'))
        await reconcileRules(ctx, ctx.physicalId!, (properties.rules ?? []) as Rule[]);
      return {};
    } catch (error) {
      throw failure('updating the security group', error);
    }
  },

  ...neutronDeletion(GROUPS),

  async getReality(ctx): Promise<RealityState> {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const g = await showGroup(ctx);
      return {
        name: g.name,
        description: ((g.description as string | undefined) || null) as Value,
        stateful: (g.stateful ?? null) as Value,
        rules: (await liveRules(ctx, g)) as Value,
      };
    });
  },

  async attribute(ctx, name) {
    if (!ctx.physicalId) return null;
    const g = await showGroup(ctx);
    return name === 'show' ? (g as Value) : ((g[name] ?? null) as Value);
  },
};
