import type { FastifyRequest } from 'fastify';
import type { Caller, SandboxContext } from '../app.js';
import type { SandboxState } from '../state.js';
import {
  DEFAULT_DOMAIN,
  enabled,
  hash,
  liveTrust,
  type Project,
  roleRef,
  rolesOn,
  type Token,
  type Trust,
  type User,
} from './model.js';

/** What a token stands for right now, and the token body Keystone answers with. */

export interface LiveToken {
  token: Token;
  user: User;
  project: Project;
  roles: string[];
  trust?: Trust;
}

/**
 * A token that still works: not expired, its user and project enabled, the user still a member
 * (roles are read now, as Keystone revokes tokens when an assignment goes); a trust-scoped one
 * also needs its trust (not deleted or expired), an enabled trustor and trustee, and the trustor
 * still holding the delegated roles.
 */
export function liveToken(state: SandboxState, id: string, now: number): LiveToken | undefined {
  const token = state.get<Token>('token', id);
  if (!token || token.expiresAt <= now) return undefined;
  const user = state.get<User>('user', token.userId);
  const project = state.get<Project>('project', token.projectId);
  if (!user || !enabled(user) || !project || !enabled(project)) return undefined;
  if (token.trustId === undefined) {
    const roles = rolesOn(user, project.id);
    return roles.length > 0 ? { token, user, project, roles } : undefined;
  }
  const trust = liveTrust(state, token.trustId, now);
  if (!trust) return undefined;
  const trustor = state.get<User>('user', trust.trustor_user_id);
  const trustee = state.get<User>('user', trust.trustee_user_id);
  if (!trustor || !enabled(trustor) || !trustee || !enabled(trustee)) return undefined;
  const held = rolesOn(trustor, trust.project_id);
  if (!trust.roles.every((r) => held.includes(r))) return undefined;
  return { token, user, project, roles: trust.roles, trust };
}

/** The token resolver buildSandbox needs. */
export function tokenResolver(ctx: SandboxContext): (token: string) => Caller | undefined {
  return (id) => {
    const live = liveToken(ctx.state, id, ctx.now());
    if (!live) return undefined;
    return {
      userId: live.user.id,
      userName: live.user.name,
      projectId: live.project.id,
      roles: live.roles,
      trustId: live.trust?.id ?? null,
    };
  };
}

/** The sandbox's regions: RegionOne's APIs at the root, the other's under `/regions/NAME`. */
export const FIRST_REGION = 'RegionOne';
export const SECOND_REGION = 'RegionTwo';

export const regionPrefix = (region: string) => (region === FIRST_REGION ? '' : `/regions/${region}`);

/**
 * The catalog's services: type, name and, in each region, the path under the sandbox's URL
 * (RegionOne's endpoints first, so a client that names no region uses RegionOne). Keystone is one
 * service listed in both regions.
 */
export function catalogEntries(base: string, projectId: string) {
  const services: [type: string, name: string, path: string][] = [
    ['identity', 'keystone', '/identity'],
    ['compute', 'nova', '/compute/v2.1'],
    ['network', 'neutron', '/network'],
    ['volumev3', 'cinderv3', `/volume/v3/${projectId}`],
    ['block-storage', 'cinder', `/volume/v3/${projectId}`],
    ['image', 'glance', '/image'],
    ['object-store', 'swift', `/object-store/v1/AUTH_${projectId}`],
    ['alarming', 'aodh', '/alarming'],
  ];
  return services.map(([type, name, path]) => ({
    id: hash(type).slice(0, 32),
    type,
    name,
    endpoints: [FIRST_REGION, SECOND_REGION].flatMap((region) =>
      ['public', 'internal', 'admin'].map((iface) => ({
        id: hash(region === FIRST_REGION ? `${type}/${iface}` : `${region}/${type}/${iface}`).slice(0, 32),
        interface: iface,
        region,
        region_id: region,
        url: type === 'identity' ? `${base}${path}` : `${base}${regionPrefix(region)}${path}`,
      })),
    ),
  }));
}

export function tokenBody(
  ctx: SandboxContext,
  request: FastifyRequest,
  live: LiveToken,
  withCatalog: boolean,
) {
  const { token, user, project, trust } = live;
  return {
    token: {
      methods: token.methods,
      user: { id: user.id, name: user.name, domain: DEFAULT_DOMAIN, password_expires_at: null },
      project: { id: project.id, name: project.name, domain: DEFAULT_DOMAIN },
      roles: live.roles.map(roleRef),
      is_domain: false,
      audit_ids: [hash(token.id).slice(0, 22)],
      issued_at: new Date(token.issuedAt).toISOString(),
      expires_at: new Date(token.expiresAt).toISOString(),
      ...(trust
        ? {
            'OS-TRUST:trust': {
              id: trust.id,
              impersonation: trust.impersonation,
              trustor_user: { id: trust.trustor_user_id },
              trustee_user: { id: trust.trustee_user_id },
            },
          }
        : {}),
      ...(withCatalog ? { catalog: catalogEntries(ctx.baseUrl(request), project.id) } : {}),
    },
  };
}
