import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  applyUpdates,
  type Body,
  checkQuota,
  collection,
  findOwned,
  invalid,
  member,
  optBool,
  optString,
  save,
  single,
  visibleTo,
  wire,
} from './common.js';
import { cidrText, maskCidr } from './ip-allocation.js';
import {
  defaultSecurityGroup,
  KIND,
  newSecurityGroup,
  type Port,
  ruleRecord,
  type SecurityGroup,
  type SecurityGroupRule,
} from './model.js';

/** Security groups and their rules; each project gets its `default` group on first need. */

function renderGroup(group: SecurityGroup, rules: SecurityGroupRule[]): Body {
  return {
    ...wire(group),
    security_group_rules: rules.filter((r) => r.security_group_id === group.id).map(wire),
  };
}

const PROTOCOLS: Record<string, number> = { icmp: 1, tcp: 6, udp: 17, icmpv6: 58 };

function portNumber(body: Body, key: string): number | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw invalid(`${key} '${String(value)}' is not a valid port number`);
  return n;
}

/** A rule's fields from its request, checked as Neutron checks them. */
function ruleFields(ctx: SandboxContext, request: FastifyRequest, body: Body): Partial<SecurityGroupRule> {
  const direction = optString(body, 'direction');
  if (direction !== 'ingress' && direction !== 'egress') {
    throw new ApiError(
      400,
      `Invalid input for direction. Reason: '${String(direction)}' is not in ['ingress', 'egress'].`,
      'InvalidInput',
    );
  }
  const ethertype = optString(body, 'ethertype') ?? 'IPv4';
  if (ethertype !== 'IPv4' && ethertype !== 'IPv6') {
    throw new ApiError(
      400,
      `Invalid input for ethertype. Reason: '${ethertype}' is not in ['IPv4', 'IPv6'].`,
      'InvalidInput',
    );
  }
  let protocol =
    body.protocol === undefined || body.protocol === null ? null : String(body.protocol).toLowerCase();
  if (protocol === 'any') protocol = null;
  if (protocol !== null && !(protocol in PROTOCOLS) && !/^\d+$/.test(protocol)) {
    throw new ApiError(
      400,
      `Security group rule protocol ${protocol} not supported.`,
      'SecurityGroupRuleInvalidProtocol',
    );
  }
  const min = portNumber(body, 'port_range_min');
  const max = portNumber(body, 'port_range_max');
  if ((min !== null || max !== null) && protocol === null) {
    throw new ApiError(
      400,
      'Must also specify protocol if port range is given.',
      'SecurityGroupProtocolRequiredWithPorts',
    );
  }
  if ((protocol === 'tcp' || protocol === 'udp') && min !== null && max !== null && min > max) {
    throw new ApiError(
      400,
      'For TCP/UDP protocols, port_range_min must be <= port_range_max',
      'SecurityGroupInvalidPortRange',
    );
  }
  const prefix =
    body.remote_ip_prefix === undefined || body.remote_ip_prefix === null
      ? null
      : String(body.remote_ip_prefix);
  const remoteGroup =
    body.remote_group_id === undefined || body.remote_group_id === null ? null : String(body.remote_group_id);
  if (prefix !== null && remoteGroup !== null) {
    throw new ApiError(
      400,
      'Only remote_ip_prefix or remote_group_id may be provided.',
      'SecurityGroupRemoteGroupAndRemoteIpPrefix',
    );
  }
  let normalized: string | null = null;
  if (prefix !== null) {
    if (ethertype === 'IPv6') throw invalid('the sandbox checks IPv4 prefixes only');
    // A prefix with host bits (10.0.0.5/24) is accepted, as Neutron does, and shown normalized.
    normalized = cidrText(maskCidr(prefix));
  }
  if (remoteGroup !== null)
    findOwned<SecurityGroup>(ctx, request, KIND.securityGroup, 'Security group', remoteGroup);
  return {
    direction,
    ethertype,
    protocol,
    port_range_min: min,
    port_range_max: max,
    remote_ip_prefix: prefix,
    remote_group_id: remoteGroup,
    normalized_cidr: normalized,
    description: optString(body, 'description') ?? '',
  };
}

const SAME = [
  'direction',
  'ethertype',
  'protocol',
  'port_range_min',
  'port_range_max',
  'normalized_cidr',
  'remote_group_id',
] as const;

const groupMissing = (id: string) =>
  new ApiError(404, `Security group ${id} does not exist`, 'SecurityGroupNotFound');

function findGroup(ctx: SandboxContext, request: FastifyRequest, id: string): SecurityGroup {
  const group = ctx.state.get<SecurityGroup>(KIND.securityGroup, id);
  if (!group || !(group.project_id === request.caller.projectId || request.caller.roles.includes('admin'))) {
    throw groupMissing(id);
  }
  return group;
}

export function registerSecurityGroups(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/v2.0/security-groups', async (request) => {
    defaultSecurityGroup(ctx, request.caller.projectId);
    const rules = visibleTo<SecurityGroupRule>(ctx, request, KIND.securityGroupRule);
    const groups = visibleTo<SecurityGroup>(ctx, request, KIND.securityGroup).map((g) =>
      renderGroup(g, rules),
    );
    return collection(request, ctx, 'security_groups', groups);
  });

  app.get<{ Params: { id: string } }>('/v2.0/security-groups/:id', async (request) => {
    const group = findGroup(ctx, request, request.params.id);
    return single(request, 'security_group', renderGroup(group, ctx.state.list(KIND.securityGroupRule)));
  });

  app.post('/v2.0/security-groups', async (request, reply) => {
    const body = member(request, 'security_group');
    const name = optString(body, 'name') ?? '';
    if (name === 'default') {
      throw new ApiError(409, 'Default security group already exists.', 'SecurityGroupDefaultAlreadyExists');
    }
    const projectId = request.caller.projectId;
    defaultSecurityGroup(ctx, projectId);
    const group = ctx.state.transaction(() => {
      checkQuota(ctx, 'security_group', KIND.securityGroup, projectId);
      const made = newSecurityGroup(ctx, projectId, name, optString(body, 'description') ?? '');
      const stateful = optBool(body, 'stateful');
      return stateful === undefined ? made : save(ctx, KIND.securityGroup, { ...made, stateful }, false);
    });
    return reply
      .code(201)
      .send({ security_group: renderGroup(group, ctx.state.list(KIND.securityGroupRule)) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/security-groups/:id', async (request) => {
    const group = findGroup(ctx, request, request.params.id);
    const body = member(request, 'security_group');
    if (group.name === 'default' && body.name !== undefined && body.name !== 'default') {
      throw new ApiError(
        409,
        'Updating default security group not allowed.',
        'SecurityGroupCannotUpdateDefault',
      );
    }
    const changed = save(
      ctx,
      KIND.securityGroup,
      applyUpdates(group, body, ['name', 'description'], ['stateful']),
    );
    return { security_group: renderGroup(changed, ctx.state.list(KIND.securityGroupRule)) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/security-groups/:id', async (request, reply) => {
    const group = findGroup(ctx, request, request.params.id);
    ctx.state.transaction(() => {
      if (ctx.state.list<Port>(KIND.port).some((p) => p.security_groups.includes(group.id))) {
        throw new ApiError(409, `Security Group ${group.id} in use.`, 'SecurityGroupInUse');
      }
      for (const rule of ctx.state.list<SecurityGroupRule>(KIND.securityGroupRule)) {
        if (rule.security_group_id === group.id) ctx.state.delete(KIND.securityGroupRule, rule.id);
      }
      ctx.state.delete(KIND.securityGroup, group.id);
    });
    return reply.code(204).send();
  });

  app.get('/v2.0/security-group-rules', async (request) =>
    collection(
      request,
      ctx,
      'security_group_rules',
      visibleTo<SecurityGroupRule>(ctx, request, KIND.securityGroupRule).map(wire),
    ),
  );

  app.get<{ Params: { id: string } }>('/v2.0/security-group-rules/:id', async (request) => {
    const rule = findOwned<SecurityGroupRule>(
      ctx,
      request,
      KIND.securityGroupRule,
      'Security group rule',
      request.params.id,
    );
    return single(request, 'security_group_rule', wire(rule));
  });

  app.post('/v2.0/security-group-rules', async (request, reply) => {
    const body = member(request, 'security_group_rule');
    const groupId = optString(body, 'security_group_id');
    if (groupId === undefined) throw invalid('security_group_id is required');
    const group = findGroup(ctx, request, groupId);
    const fields = ruleFields(ctx, request, body);
    const rule = ctx.state.transaction(() => {
      const twin = ctx.state
        .list<SecurityGroupRule>(KIND.securityGroupRule)
        .find(
          (r) =>
            r.security_group_id === group.id && SAME.every((k) => (r[k] ?? null) === (fields[k] ?? null)),
        );
      if (twin) {
        throw new ApiError(
          409,
          `Security group rule already exists. Rule id is ${twin.id}.`,
          'SecurityGroupRuleExists',
        );
      }
      const record = ruleRecord(ctx, group.project_id, group.id, fields);
      ctx.state.put(KIND.securityGroupRule, group.project_id, record);
      save(ctx, KIND.securityGroup, group);
      return record;
    });
    return reply.code(201).send({ security_group_rule: wire(rule) });
  });

  app.delete<{ Params: { id: string } }>('/v2.0/security-group-rules/:id', async (request, reply) => {
    const rule = findOwned<SecurityGroupRule>(
      ctx,
      request,
      KIND.securityGroupRule,
      'Security group rule',
      request.params.id,
    );
    ctx.state.delete(KIND.securityGroupRule, rule.id);
    return reply.code(204).send();
  });
}
