import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import { forbidden, isAdmin, object, requireCaller } from './common.js';
import {
  findRole,
  liveTrust,
  newId,
  type Project,
  roleRef,
  rolesOn,
  type Trust,
  type User,
} from './model.js';

/**
 * OS-TRUST, as Keystone answers it: a trustor delegates some of its roles on a project to a
 * trustee (Hearth's service user), optionally impersonated; the trustee then gets trust-scoped
 * tokens (see authenticate.ts). Deleting the trust ends the tokens made from it.
 */

const trustNotFound = (id: string) => new ApiError(404, `Could not find trust: ${id}.`);

function view(request: FastifyRequest, ctx: SandboxContext, trust: Trust) {
  const self = `${ctx.baseUrl(request)}/identity/v3/OS-TRUST/trusts/${trust.id}`;
  return {
    id: trust.id,
    trustor_user_id: trust.trustor_user_id,
    trustee_user_id: trust.trustee_user_id,
    project_id: trust.project_id,
    impersonation: trust.impersonation,
    expires_at: trust.expires_at,
    remaining_uses: trust.remaining_uses,
    allow_redelegation: false,
    redelegation_count: 0,
    redelegated_trust_id: null,
    deleted_at: null,
    roles: trust.roles.map((name) => ({
      ...roleRef(name),
      domain_id: null,
      links: { self: `${ctx.baseUrl(request)}/identity/v3/roles/${roleRef(name).id}` },
    })),
    roles_links: { self: `${self}/roles`, previous: null, next: null },
    links: { self },
  };
}

/** The trust's roles as names: each `{"id"}` or `{"name"}` of a role the trustor holds on the project. */
function delegatedRoles(given: unknown, held: string[]): string[] {
  if (!Array.isArray(given) || given.length === 0)
    throw new ApiError(403, 'At least one role should be specified.');
  return [
    ...new Set(
      given.map((entry) => {
        const ref = object(entry);
        const key =
          typeof ref?.id === 'string' ? ref.id : typeof ref?.name === 'string' ? ref.name : undefined;
        if (key === undefined) throw new ApiError(400, 'Each role of a trust needs an id or a name.');
        const role = findRole(key);
        // Keystone's answer for a role the trustor does not hold on the project: RoleNotFound.
        if (!role || !held.includes(role)) throw new ApiError(404, `Could not find role: ${key}.`);
        return role;
      }),
    ),
  ];
}

function expiry(value: unknown, now: number): string | null {
  if (value === undefined || value === null) return null;
  const at =
    typeof value === 'string'
      ? Date.parse(value.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`)
      : NaN;
  if (Number.isNaN(at))
    throw new ApiError(400, `Invalid expires_at: ${JSON.stringify(value)} is not an ISO 8601 time.`);
  if (at <= now) throw new ApiError(400, "The trust's expires_at must be in the future.");
  return new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function remainingUses(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ApiError(400, `Invalid remaining_uses: ${JSON.stringify(value)} (a positive integer or null).`);
  }
  return value;
}

function createTrust(ctx: SandboxContext, caller: Caller, body: unknown): Trust {
  const given = object(object(body)?.trust);
  if (!given) throw new ApiError(400, 'Expecting to find trust in request body.');
  for (const field of ['trustor_user_id', 'trustee_user_id'] as const) {
    if (typeof given[field] !== 'string') throw new ApiError(400, `'${field}' is a required property.`);
  }
  const trustorId = given.trustor_user_id as string;
  const trusteeId = given.trustee_user_id as string;
  if (caller.userId !== trustorId || caller.trustId)
    throw forbidden('The authenticated user should match the trustor');
  if (!ctx.state.get<User>('user', trusteeId)) throw new ApiError(404, `Could not find user: ${trusteeId}.`);
  if (typeof given.impersonation !== 'boolean')
    throw new ApiError(400, "'impersonation' is a required boolean.");
  if (typeof given.project_id !== 'string')
    throw new ApiError(403, 'A trust needs a project_id to delegate roles on.');
  const project = ctx.state.get<Project>('project', given.project_id);
  if (!project) throw new ApiError(404, `Could not find project: ${given.project_id}.`);
  const trustor = ctx.state.get<User>('user', trustorId)!;
  const trust: Trust = {
    id: newId(),
    trustor_user_id: trustorId,
    trustee_user_id: trusteeId,
    project_id: project.id,
    impersonation: given.impersonation,
    roles: delegatedRoles(given.roles, rolesOn(trustor, project.id)),
    expires_at: expiry(given.expires_at, ctx.now()),
    remaining_uses: remainingUses(given.remaining_uses),
  };
  return ctx.state.put<Trust>('trust', project.id, trust);
}

/** A trust the caller may read: its trustor's, its trustee's, or any for an admin; else 403. */
function readableTrust(ctx: SandboxContext, caller: Caller, id: string): Trust {
  const trust = liveTrust(ctx.state, id, ctx.now());
  if (!trust) throw trustNotFound(id);
  if (
    !isAdmin(caller) &&
    caller.userId !== trust.trustor_user_id &&
    caller.userId !== trust.trustee_user_id
  ) {
    throw forbidden('Requested user has no relation to this trust');
  }
  return trust;
}

export function registerTrusts(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v3/OS-TRUST/trusts', async (request, reply) => {
    const caller = requireCaller(ctx, request);
    return reply.code(201).send({ trust: view(request, ctx, createTrust(ctx, caller, request.body)) });
  });

  app.get('/v3/OS-TRUST/trusts', async (request) => {
    const caller = requireCaller(ctx, request);
    const query = request.query as Record<string, string | undefined>;
    const { trustor_user_id: trustor, trustee_user_id: trustee } = query;
    // Keystone's policy: a user lists the trusts it is the trustor or trustee of; an admin, any.
    if (!isAdmin(caller) && !(trustor === caller.userId || trustee === caller.userId)) {
      throw forbidden('identity:list_trusts');
    }
    const trusts = ctx.state
      .list<Trust>('trust')
      .filter((t) => liveTrust(ctx.state, t.id, ctx.now()))
      .filter((t) => trustor === undefined || t.trustor_user_id === trustor)
      .filter((t) => trustee === undefined || t.trustee_user_id === trustee);
    return {
      trusts: trusts.map((t) => view(request, ctx, t)),
      links: { self: `${ctx.baseUrl(request)}/identity/v3/OS-TRUST/trusts`, previous: null, next: null },
    };
  });

  app.get<{ Params: { id: string } }>('/v3/OS-TRUST/trusts/:id', async (request) => {
    const caller = requireCaller(ctx, request);
    return { trust: view(request, ctx, readableTrust(ctx, caller, request.params.id)) };
  });

  app.delete<{ Params: { id: string } }>('/v3/OS-TRUST/trusts/:id', async (request, reply) => {
    const caller = requireCaller(ctx, request);
    const trust = ctx.state.get<Trust>('trust', request.params.id);
    if (!trust) throw trustNotFound(request.params.id);
    // The trustor, also through a token of an impersonating trust (whose user is the trustor).
    if (!isAdmin(caller) && caller.userId !== trust.trustor_user_id) {
      throw forbidden('Only the trustor or an admin may delete a trust');
    }
    ctx.state.delete('trust', trust.id);
    return reply.code(204).send();
  });
}
