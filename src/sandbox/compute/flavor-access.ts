import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError, conflict } from '../errors.js';
import { bodyObject, invalidInput, member, requireAdmin } from './common.js';
import { type Flavor, getFlavor } from './flavors.js';

/**
 * os-flavor-access: the projects a private flavor is shared with (`GET
 * /flavors/{id}/os-flavor-access`, and the `addTenantAccess` / `removeTenantAccess` actions).
 * Public flavors have no access list, as in Nova.
 */

function accessList(flavor: Flavor) {
  return { flavor_access: (flavor.projects ?? []).map((p) => ({ flavor_id: flavor.id, tenant_id: p })) };
}

function tenantOf(body: Record<string, unknown>, action: string): string {
  const args = member(body, action);
  if (typeof args.tenant !== 'string' || args.tenant === '') {
    throw invalidInput(action, args, "'tenant' is a required property");
  }
  return args.tenant;
}

function privateFlavor(ctx: SandboxContext, request: FastifyRequest, id: string): Flavor {
  const flavor = getFlavor(ctx, request, id);
  if (flavor.is_public) throw new ApiError(404, 'Access list not available for public flavors.');
  return flavor;
}

export function registerFlavorAccess(app: FastifyInstance, ctx: SandboxContext): void {
  type ById = { Params: { id: string } };
  app.get<ById>('/flavors/:id/os-flavor-access', async (request) => {
    requireAdmin(request.caller, 'os_compute_api:os-flavor-access');
    return accessList(privateFlavor(ctx, request, request.params.id));
  });
  app.post<ById>('/flavors/:id/action', async (request) => {
    const body = bodyObject(request);
    const id = request.params.id;
    if ('addTenantAccess' in body) {
      requireAdmin(request.caller, 'os_compute_api:os-flavor-access:add_tenant_access');
      const tenant = tenantOf(body, 'addTenantAccess');
      const flavor = getFlavor(ctx, request, id);
      if (flavor.is_public) throw conflict('Can not add access to a public flavor.');
      const projects = flavor.projects ?? [];
      if (projects.includes(tenant)) {
        throw conflict(`Flavor access already exists for flavor ${id} and project ${tenant} combination.`);
      }
      const changed = { ...flavor, projects: [...projects, tenant] };
      ctx.state.put('flavor', null, changed);
      return accessList(changed);
    }
    if ('removeTenantAccess' in body) {
      requireAdmin(request.caller, 'os_compute_api:os-flavor-access:remove_tenant_access');
      const tenant = tenantOf(body, 'removeTenantAccess');
      const flavor = privateFlavor(ctx, request, id);
      const projects = flavor.projects ?? [];
      if (!projects.includes(tenant)) {
        throw new ApiError(404, `Flavor access not found for ${id} / ${tenant} combination.`);
      }
      const changed = { ...flavor, projects: projects.filter((p) => p !== tenant) };
      ctx.state.put('flavor', null, changed);
      return accessList(changed);
    }
    throw invalidInput('action', Object.keys(body), 'is not a known flavor action');
  });
}
