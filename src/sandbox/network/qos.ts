import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  applyUpdates,
  baseFields,
  type Body,
  canSee,
  collection,
  type Env,
  isAdmin,
  member,
  optBool,
  optString,
  owningProject,
  policyRefused,
  save,
  single,
  wire,
} from './common.js';
import { KIND, type Network, type Port, type QosPolicy } from './model.js';

/**
 * Neutron's QoS policies (`qos` extension) at `/v2.0/qos/policies`, and what networks and ports
 * need of them: a `qos_policy_id` checked against the policies the caller sees, and a policy in
 * use refused deletion. Writing policies is admin only, as Neutron's default policy. A policy's
 * rules live in its `rules` list, so rule routes (`/qos/policies/{id}/<type>_rules`) can be added
 * beside these later.
 */

export const qosPolicyMissing = (id: string) =>
  new ApiError(404, `QoS policy ${id} could not be found.`, 'QosPolicyNotFound');

/** A policy the caller can see: its own, a shared one, or any for an admin. */
export function findQosPolicy(ctx: Env, request: FastifyRequest, id: string): QosPolicy {
  const policy = ctx.state.get<QosPolicy>(KIND.qosPolicy, id);
  if (!policy || !(canSee(request, policy) || policy.shared)) throw qosPolicyMissing(id);
  return policy;
}

/**
 * The `qos_policy_id` of a network or port body: undefined when not given, null to clear it, or
 * the id of a policy the caller can use.
 */
export function requestedQosPolicy(ctx: Env, request: FastifyRequest, body: Body): string | null | undefined {
  const value = body.qos_policy_id;
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string') throw qosPolicyMissing(String(value));
  return findQosPolicy(ctx, request, value).id;
}

/** The project's default policy (applied to its new networks), if it has one. */
export function defaultQosPolicy(ctx: Env, projectId: string): string | null {
  const found = ctx.state.list<QosPolicy>(KIND.qosPolicy, { projectId }).find((p) => p.is_default);
  return found?.id ?? null;
}

function refuseSecondDefault(ctx: Env, projectId: string, except?: string): void {
  const other = ctx.state
    .list<QosPolicy>(KIND.qosPolicy, { projectId })
    .some((p) => p.is_default && p.id !== except);
  if (other) {
    throw new ApiError(
      409,
      `A default QoS policy exists for project ${projectId}.`,
      'QoSPolicyDefaultAlreadyExists',
    );
  }
}

/** Refuses deleting a policy a network or port still uses (409 QosPolicyInUse, as Neutron). */
function refuseInUse(ctx: Env, policy: QosPolicy): void {
  const users: [string, { id: string; qos_policy_id?: string | null }[]][] = [
    ['network', ctx.state.list<Network>(KIND.network)],
    ['port', ctx.state.list<Port>(KIND.port)],
  ];
  for (const [type, objects] of users) {
    const user = objects.find((o) => o.qos_policy_id === policy.id);
    if (user) {
      throw new ApiError(409, `QoS Policy ${policy.id} is used by ${type} ${user.id}.`, 'QosPolicyInUse');
    }
  }
}

export function registerQosPolicies(app: FastifyInstance, ctx: SandboxContext): void {
  const adminOnly = (request: FastifyRequest, rule: string) => {
    if (!isAdmin(request)) throw policyRefused(rule);
  };

  app.get('/v2.0/qos/policies', async (request) => {
    const policies = ctx.state
      .list<QosPolicy>(KIND.qosPolicy)
      .filter((p) => canSee(request, p) || p.shared)
      .map(wire);
    return collection(request, ctx, 'policies', policies, 'qos/policies');
  });

  app.get<{ Params: { id: string } }>('/v2.0/qos/policies/:id', async (request) =>
    single(request, 'policy', wire(findQosPolicy(ctx, request, request.params.id))),
  );

  app.post('/v2.0/qos/policies', async (request, reply) => {
    adminOnly(request, 'create_policy');
    const body = member(request, 'policy');
    const projectId = owningProject(request, body, 'create_policy');
    const policy = ctx.state.transaction(() => {
      const isDefault = optBool(body, 'is_default') ?? false;
      if (isDefault) refuseSecondDefault(ctx, projectId);
      const record: QosPolicy = {
        ...baseFields(ctx, projectId),
        name: optString(body, 'name') ?? '',
        description: optString(body, 'description') ?? '',
        shared: optBool(body, 'shared') ?? false,
        is_default: isDefault,
        rules: [],
      };
      return save(ctx, KIND.qosPolicy, record, false);
    });
    return reply.code(201).send({ policy: wire(policy) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/qos/policies/:id', async (request) => {
    adminOnly(request, 'update_policy');
    const policy = findQosPolicy(ctx, request, request.params.id);
    const body = member(request, 'policy');
    const changed = ctx.state.transaction(() => {
      const next = applyUpdates(policy, body, ['name', 'description'], ['shared', 'is_default']);
      if (next.is_default && !policy.is_default) refuseSecondDefault(ctx, policy.project_id, policy.id);
      return save(ctx, KIND.qosPolicy, next);
    });
    return { policy: wire(changed) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/qos/policies/:id', async (request, reply) => {
    adminOnly(request, 'delete_policy');
    ctx.state.transaction(() => {
      const policy = findQosPolicy(ctx, request, request.params.id);
      refuseInUse(ctx, policy);
      ctx.state.delete(KIND.qosPolicy, policy.id);
    });
    return reply.code(204).send();
  });
}
