import { isNotFound } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type PluginContext, type RealityState, ResourceFailure } from '../../contract.js';
import { physicalResourceName, uuidFrom } from '../../heat/physical-name.js';
import { createMarker, failure } from '../common.js';
import { oncePerContext } from '../polling.js';

/**
 * A Nova flavor, as OS::Nova::Flavor (admin only in a default Nova). Without a `flavorid` its id
 * is derived from the idempotency key and its description carries the create marker, so a create
 * run again after a crash finds the flavor by id and knows it is its own.
 */

type Flavor = JsonObject & { id: string; name: string; description?: string | null };

/** 2.55: a flavor's description (the marker); 2.61: its extra specs in its view. */
const MICROVERSION = '2.61';
const opts = { microversion: MICROVERSION };

async function show(ctx: PluginContext, id = ctx.physicalId!): Promise<Flavor> {
  const r = await ctx
    .openstack()
    .request<{ flavor: Flavor }>('compute', 'GET', `/flavors/${encodeURIComponent(id)}`, undefined, opts);
  return r.body.flavor;
}

async function accessList(ctx: PluginContext, id: string): Promise<string[]> {
  const r = await ctx
    .openstack()
    .request<{ flavor_access: { tenant_id: string }[] }>('compute', 'GET', `/flavors/${id}/os-flavor-access`);
  return r.body.flavor_access.map((a) => a.tenant_id);
}

async function setAccess(ctx: PluginContext, id: string, action: string, tenant: string): Promise<void> {
  await ctx.openstack().request('compute', 'POST', `/flavors/${id}/action`, { [action]: { tenant } });
}

/** Replaces the flavor's extra specs with `specs` (Heat unsets every old key first). */
async function replaceSpecs(ctx: PluginContext, id: string, specs: JsonObject): Promise<void> {
  const cloud = ctx.openstack();
  const old = await cloud.request<{ extra_specs: JsonObject }>(
    'compute',
    'GET',
    `/flavors/${id}/os-extra_specs`,
  );
  for (const key of Object.keys(old.body.extra_specs)) {
    if (Object.hasOwn(specs, key) && String(specs[key]) === old.body.extra_specs[key]) continue;
    await cloud.request('compute', 'DELETE', `/flavors/${id}/os-extra_specs/${encodeURIComponent(key)}`);
  }
  if (Object.keys(specs).length > 0) {
    await cloud.request('compute', 'POST', `/flavors/${id}/os-extra_specs`, { extra_specs: specs });
  }
}

/** Shares a private flavor with exactly `tenants` (or the stack's project when none are named). */
async function syncAccess(ctx: PluginContext, id: string, tenants: string[], add: boolean): Promise<void> {
  const current = await accessList(ctx, id);
  const wanted = tenants.length > 0 ? tenants : add ? [await ctx.openstack().projectId()] : [];
  for (const tenant of current.filter((t) => !wanted.includes(t))) {
    await setAccess(ctx, id, 'removeTenantAccess', tenant);
  }
  for (const tenant of wanted.filter((t) => !current.includes(t))) {
    await setAccess(ctx, id, 'addTenantAccess', tenant);
  }
}

export const novaFlavorPlugin: CatalogPlugin = {
  type: 'OS::Nova::Flavor',
  description:
    'A resource for creating OpenStack virtual hardware templates. Due to default nova security policy usage of this resource is limited to being used by administrators only.',
  supportStatus: { version: '2014.2' },
  properties: {
    tenants: P.list({
      description: 'List of tenants.',
      items: P.string({ constraints: [C.custom('keystone.project')] }),
      default: [],
      updateAllowed: true,
      supportStatus: { version: '8.0.0' },
    }),
    flavorid: P.string({
      description: 'Unique ID of the flavor. If not specified, an UUID will be auto generated and used.',
      supportStatus: { version: '7.0.0' },
    }),
    name: P.string({ description: 'Name of the flavor.', supportStatus: { version: '7.0.0' } }),
    ram: P.integer({ description: 'Memory in MB for the flavor.', required: true }),
    vcpus: P.integer({ description: 'Number of VCPUs for the flavor.', required: true }),
    disk: P.integer({
      description:
        'Size of local disk in GB. The "0" size is a special case that uses the native base image size as the size of the ephemeral root volume.',
      default: 0,
    }),
    swap: P.integer({ description: 'Swap space in MB.', default: 0 }),
    ephemeral: P.integer({ description: 'Size of a secondary ephemeral data disk in GB.', default: 0 }),
    rxtx_factor: P.number({ description: 'RX/TX factor.', default: 1.0 }),
    extra_specs: P.map({
      description: 'Key/Value pairs to extend the capabilities of the flavor.',
      updateAllowed: true,
    }),
    is_public: P.boolean({
      description:
        'Scope of flavor accessibility. Public or private. Default value is True, means public, shared across all projects.',
      default: true,
      supportStatus: { version: '6.0.0' },
    }),
  },
  attributes: {
    is_public: {
      ...attr('Whether the flavor is shared across all projects.', 'boolean'),
      supportStatus: { version: '6.0.0' },
    },
    extra_specs: {
      ...attr('Extra specs of the flavor in key-value pairs.', 'map'),
      supportStatus: { version: '7.0.0' },
    },
    show: attr('Detailed information about resource.', 'map'),
  },

  async create(ctx, properties) {
    const id = (properties.flavorid as string | null) || uuidFrom(`flavor:${ctx.idempotencyKey}`);
    const marker = createMarker(ctx);
    const what = `creating the flavor ${id}`;
    try {
      const found = await show(ctx, id).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (found && found.description !== marker) {
        throw new ResourceFailure(`${what}: a flavor with id ${id} already exists`);
      }
      if (!found) {
        await ctx.openstack().request(
          'compute',
          'POST',
          '/flavors',
          {
            flavor: {
              id,
              name: (properties.name as string | null) || physicalResourceName(ctx),
              ram: properties.ram as number,
              vcpus: properties.vcpus as number,
              disk: properties.disk as number,
              swap: properties.swap as number,
              'OS-FLV-EXT-DATA:ephemeral': properties.ephemeral as number,
              rxtx_factor: properties.rxtx_factor as number,
              'os-flavor-access:is_public': properties.is_public as boolean,
              description: marker,
            },
          },
          opts,
        );
      }
      const specs = (properties.extra_specs as JsonObject | null) ?? {};
      if (Object.keys(specs).length > 0) {
        await ctx
          .openstack()
          .request('compute', 'POST', `/flavors/${id}/os-extra_specs`, { extra_specs: specs });
      }
      if (!properties.is_public) await syncAccess(ctx, id, properties.tenants as string[], true);
      return { physicalId: id };
    } catch (error) {
      throw failure(what, error);
    }
  },

  async update(ctx, properties, _previous, changed) {
    const id = ctx.physicalId!;
    try {
      if (changed.includes('extra_specs')) {
        await replaceSpecs(ctx, id, (properties.extra_specs as JsonObject | null) ?? {});
      }
      if (changed.includes('tenants') && !properties.is_public) {
        await syncAccess(ctx, id, properties.tenants as string[], false);
      }
      return {};
    } catch (error) {
      throw failure(`updating the flavor ${id}`, error);
    }
  },

  async delete(ctx) {
    if (!ctx.physicalId) return {};
    try {
      await ctx.openstack().request('compute', 'DELETE', `/flavors/${encodeURIComponent(ctx.physicalId)}`);
    } catch (error) {
      if (!isNotFound(error)) throw failure(`deleting the flavor ${ctx.physicalId}`, error);
    }
    return {};
  },

  async getReality(ctx): Promise<RealityState> {
    if (!ctx.physicalId) return { state: 'gone' };
    try {
      const f = await show(ctx);
      const isPublic = f['os-flavor-access:is_public'] as boolean;
      const properties: Record<string, Value> = {
        name: f.name,
        ram: f.ram as number,
        vcpus: f.vcpus as number,
        disk: f.disk as number,
        // Before 2.75 Nova shows no swap as "".
        swap: f.swap === '' ? 0 : (f.swap as number),
        ephemeral: (f['OS-FLV-EXT-DATA:ephemeral'] as number | undefined) ?? 0,
        rxtx_factor: f.rxtx_factor as number,
        is_public: isPublic,
        extra_specs: (f.extra_specs ?? {}) as Value,
      };
      if (!isPublic && (ctx.storedProperties?.tenants as string[] | undefined)?.length) {
        properties.tenants = await accessList(ctx, f.id);
      }
      return { state: 'present', properties };
    } catch (error) {
      if (isNotFound(error)) return { state: 'gone' };
      throw error;
    }
  },

  async attribute(ctx, name) {
    if (!ctx.physicalId) return null;
    const f = await oncePerContext(ctx, 'flavor', () => show(ctx));
    if (name === 'show') return f as Value;
    if (name === 'is_public') return f['os-flavor-access:is_public'] as boolean;
    if (name === 'extra_specs') return (f.extra_specs ?? {}) as Value;
    return null;
  },
};
