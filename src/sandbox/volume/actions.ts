import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { atLeast, booleanField, isAdmin, type Params, positiveInteger } from './request.js';
import { after, checkQuota, projectVolume, save } from './volume-state.js';
import { type Volume, VOLUME_TYPES } from './types.js';

/** `POST /volumes/{id}/action`: one action per request, named by the body's only key. */

/** The statuses os-reset_status accepts. */
const STATUSES = [
  'available',
  'creating',
  'deleting',
  'error',
  'error_deleting',
  'error_extending',
  'error_restoring',
  'error_managing',
  'in-use',
  'attaching',
  'detaching',
  'extending',
  'maintenance',
  'reserved',
  'downloading',
  'uploading',
  'retyping',
  'backing-up',
  'restoring-backup',
];

type Action = (ctx: SandboxContext, volume: Volume, args: unknown, inUseExtend: boolean) => number;

const forbidden = (rule: string) =>
  new ApiError(403, `Policy doesn't allow volume_extension:${rule} to be performed.`);

const ACTIONS: Record<string, Action> = {
  'os-extend': (ctx, volume, args, inUseExtend) => {
    const newSize = positiveInteger((args as { new_size?: unknown } | null)?.new_size, 'new_size');
    const extendable = volume.status === 'available' || (inUseExtend && volume.status === 'in-use');
    if (!extendable) {
      throw badRequest(
        `Invalid volume: Volume ${volume.id} status must be '${inUseExtend ? 'available or in-use' : 'available'}' to extend, currently ${volume.status}.`,
      );
    }
    if (newSize <= volume.size) {
      throw badRequest(
        `Invalid input received: New size for extend must be greater than current size. (current: ${volume.size}, extended: ${newSize}).`,
      );
    }
    ctx.state.transaction(() => {
      checkQuota(ctx, volume.project_id, 0, newSize - volume.size);
      save(ctx, { ...volume, size: newSize, status: 'extending', transition: after(ctx, volume.status) });
    });
    return 202;
  },
  'os-retype': (ctx, volume, args) => {
    const wanted = (args as { new_type?: unknown } | null)?.new_type;
    if (typeof wanted !== 'string' || wanted === '') {
      throw badRequest('Invalid input received: New volume type must be specified.');
    }
    const type = VOLUME_TYPES.find((t) => t.name === wanted || t.id === wanted);
    if (!type) throw notFound('Volume type', wanted);
    if (volume.status !== 'available' && volume.status !== 'in-use') {
      throw badRequest(
        `Invalid volume: Volume ${volume.id} status must be available or in-use, but current status is: ${volume.status}.`,
      );
    }
    if (type.id === volume.volume_type_id) {
      throw badRequest('Invalid input received: New volume type must be different from the original.');
    }
    // Same backend in the sandbox: no migration, so any migration_policy will do.
    save(ctx, {
      ...volume,
      volume_type: type.name,
      volume_type_id: type.id,
      status: 'retyping',
      transition: after(ctx, volume.status),
    });
    return 202;
  },
  'os-reset_status': (ctx, volume, args) => {
    const status = (args as { status?: unknown } | null)?.status;
    if (typeof status !== 'string' || !STATUSES.includes(status)) {
      throw badRequest(`Invalid input received: Must specify a valid status, not ${JSON.stringify(status)}.`);
    }
    save(ctx, { ...volume, status, transition: null });
    return 202;
  },
  'os-set_bootable': (ctx, volume, args) => {
    const bootable = booleanField((args as { bootable?: unknown } | null)?.bootable, 'bootable');
    save(ctx, { ...volume, bootable });
    return 200;
  },
  'os-update_readonly_flag': (ctx, volume, args) => {
    const readonly = booleanField((args as { readonly?: unknown } | null)?.readonly, 'readonly');
    if (volume.status !== 'available' && volume.status !== 'in-use') {
      throw badRequest(
        `Invalid volume: Volume ${volume.id} status must be available or in-use, currently ${volume.status}.`,
      );
    }
    save(ctx, { ...volume, readonly });
    return 202;
  },
};

/** The actions only an admin may run, with the policy rule Cinder names when refusing. */
const ADMIN_ONLY: Record<string, string> = { 'os-reset_status': 'volume_admin_actions:reset_status' };

export function registerActions(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<{ Params: Params }>('/volumes/:id/action', async (request, reply) => {
    const body = request.body;
    const keys = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
    if (keys.length !== 1) throw badRequest('Malformed request body: an action takes exactly one key.');
    const name = keys[0]!;
    const action = ACTIONS[name];
    if (!action) throw badRequest(`There is no such action: ${name}`);
    const rule = ADMIN_ONLY[name];
    if (rule && !isAdmin(request)) throw forbidden(rule);
    const volume = projectVolume(ctx, request.params.project_id, request.params.id);
    const status = action(ctx, volume, (body as Record<string, unknown>)[name], atLeast(request, '3.42'));
    return reply.code(status).send();
  });
}
