import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { notFound } from '../errors.js';
import { usage } from './volume-state.js';
import {
  DEFAULT_VOLUME_TYPE,
  MAX_VERSION,
  MIN_VERSION,
  type VolumeType,
  VOLUME_TYPES,
  ZONE,
} from './types.js';
import type { Params } from './request.js';

/** Cinder's read-only routes besides volumes: version discovery, types, limits, availability zones. */

function version(request: FastifyRequest, ctx: SandboxContext) {
  return {
    id: 'v3.0',
    status: 'CURRENT',
    version: MAX_VERSION,
    min_version: MIN_VERSION,
    updated: '2023-01-15T00:00:00Z',
    links: [{ rel: 'self', href: `${ctx.baseUrl(request)}/volume/v3/` }],
    'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.volume+json;version=3' }],
  };
}

/** `/volume/` (300, every version) and `/volume/v3` (this one), without a token. */
export function registerDiscovery(app: FastifyInstance, ctx: SandboxContext): void {
  const open = { config: { public: true } };
  app.get('/', open, async (request, reply) => reply.code(300).send({ versions: [version(request, ctx)] }));
  app.get('/v3', open, async (request) => ({ versions: [version(request, ctx)] }));
  app.get('/v3/', open, async (request) => ({ versions: [version(request, ctx)] }));
}

function typeView(type: VolumeType) {
  return {
    id: type.id,
    name: type.name,
    description: type.description,
    is_public: true,
    'os-volume-type-access:is_public': true,
    extra_specs: type.name === 'lvmdriver-1' ? { volume_backend_name: 'lvmdriver-1' } : {},
    qos_specs_id: null,
  };
}

export function registerCatalog(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/types', async () => ({ volume_types: VOLUME_TYPES.map(typeView) }));
  app.get('/types/default', async () => ({ volume_type: typeView(DEFAULT_VOLUME_TYPE) }));
  app.get<{ Params: Params }>('/types/:id', async (request) => {
    const type = VOLUME_TYPES.find((t) => t.id === request.params.id || t.name === request.params.id);
    if (!type) throw notFound('Volume type', request.params.id);
    return { volume_type: typeView(type) };
  });

  app.get<{ Params: Params }>('/limits', async (request) => {
    const { quotas } = ctx.noise();
    const used = usage(ctx, request.params.project_id);
    return {
      limits: {
        rate: [],
        absolute: {
          maxTotalVolumes: quotas.volumes,
          maxTotalVolumeGigabytes: quotas.gigabytes,
          maxTotalSnapshots: -1,
          maxTotalBackups: -1,
          maxTotalBackupGigabytes: -1,
          totalVolumesUsed: used.volumes,
          totalGigabytesUsed: used.gigabytes,
          totalSnapshotsUsed: 0,
          totalBackupsUsed: 0,
          totalBackupGigabytesUsed: 0,
        },
      },
    };
  });

  // Read only: the quotas are the noise knobs (`PUT /admin/noise`), the same for every project.
  app.get<{ Params: Params & { target: string }; Querystring: { usage?: string } }>(
    '/os-quota-sets/:target',
    async (request) => {
      const { quotas } = ctx.noise();
      const limits: Record<string, number> = {
        volumes: quotas.volumes,
        gigabytes: quotas.gigabytes,
        snapshots: -1,
        backups: -1,
        backup_gigabytes: -1,
        groups: -1,
        per_volume_gigabytes: -1,
      };
      const withUsage = ['true', 'True', '1'].includes(request.query.usage ?? '');
      const used: Record<string, number> = { ...usage(ctx, request.params.target) };
      const quotaSet = Object.fromEntries(
        Object.entries(limits).map(([k, limit]) => [
          k,
          withUsage ? { limit, in_use: used[k] ?? 0, reserved: 0, allocated: 0 } : limit,
        ]),
      );
      return { quota_set: { id: request.params.target, ...quotaSet } };
    },
  );

  app.get('/os-availability-zone', async () => ({
    availabilityZoneInfo: [{ zoneName: ZONE, zoneState: { available: true } }],
  }));
}
