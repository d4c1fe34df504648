import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest, conflict } from '../errors.js';
import { findImage, saveImage } from '../image.js';
import { atLeast } from './microversion.js';
import { bodyObject, type Compute, invalidInput } from './common.js';
import { currentPhase, type Phase, type ServerRecord, statesOf, withPhases } from './server-state.js';
import { findServer } from './server-view.js';

/**
 * POST /servers/{id}/action (reboot, stop, start, suspend, resume, pause, unpause, changePassword,
 * createImage).
 */

interface Action {
  /** Statuses the action is allowed from. */
  from: string[];
  phases(now: number, delayMs: number, body: unknown): Phase[];
}

const REBOOT_TYPES = ['HARD', 'Hard', 'hard', 'SOFT', 'Soft', 'soft'];

const settled =
  (status: string): Action['phases'] =>
  (now) => [{ at: now, status }];

const ACTIONS: Record<string, Action> = {
  reboot: {
    from: ['ACTIVE', 'SHUTOFF', 'ERROR', 'PAUSED', 'SUSPENDED', 'REBOOT'],
    phases(now, delayMs, body) {
      const type = (body as { type?: unknown } | null)?.type;
      if (typeof type !== 'string' || !REBOOT_TYPES.includes(type)) {
        throw invalidInput('type', type, `is not one of ['HARD', 'Hard', 'hard', 'SOFT', 'Soft', 'soft']`);
      }
      const hard = type.toUpperCase() === 'HARD';
      return [
        { at: now, status: hard ? 'HARD_REBOOT' : 'REBOOT' },
        { at: now + delayMs, status: 'ACTIVE' },
      ];
    },
  },
  'os-stop': { from: ['ACTIVE', 'ERROR'], phases: settled('SHUTOFF') },
  'os-start': { from: ['SHUTOFF'], phases: settled('ACTIVE') },
  suspend: { from: ['ACTIVE', 'SHUTOFF'], phases: settled('SUSPENDED') },
  resume: { from: ['SUSPENDED'], phases: settled('ACTIVE') },
  pause: { from: ['ACTIVE'], phases: settled('PAUSED') },
  unpause: { from: ['PAUSED'], phases: settled('ACTIVE') },
  // The password is the guest's: the server's state does not change.
  changePassword: {
    from: ['ACTIVE'],
    phases(_now, _delayMs, body) {
      const pass = (body as { adminPass?: unknown } | null)?.adminPass;
      if (typeof pass !== 'string') throw invalidInput('adminPass', pass, "is not of type 'string'");
      return [];
    },
  },
};

/** Nova's 409 for an action the server's state does not allow. */
function refuse(action: string, server: ServerRecord, status: string): ApiError {
  const states = statesOf(status);
  // Nova names the vm_state, unless the server is active and only its task is in the way.
  const where = states.task && states.vm === 'active' ? `task_state ${states.task}` : `vm_state ${states.vm}`;
  const name = action.replace(/^os-/, '');
  return conflict(`Cannot '${name}' instance ${server.id} while it is in ${where}`);
}

/** The statuses Nova snapshots a server from. */
const IMAGE_FROM = ['ACTIVE', 'SHUTOFF', 'PAUSED', 'SUSPENDED'];

/**
 * createImage: a snapshot of the server as an image of its project, with the base image's formats
 * and sizes and Nova's snapshot properties; the server's state does not change.
 */
function createImage(compute: Compute, request: FastifyRequest, server: ServerRecord, body: unknown): string {
  const { ctx } = compute;
  const args = (body ?? {}) as { name?: unknown; metadata?: unknown };
  if (typeof args.name !== 'string' || args.name.trim() === '') {
    throw invalidInput('name', args.name, "is not of type 'string'");
  }
  const status = currentPhase(server, ctx.now()).status;
  if (!IMAGE_FROM.includes(status)) throw refuse('createImage', server, status);
  const base = findImage(ctx.state, server.projectId, server.imageId);
  const image = saveImage(
    ctx.state,
    server.projectId,
    {
      name: args.name,
      ...(base
        ? { disk_format: base.disk_format, container_format: base.container_format, min_disk: base.min_disk }
        : {}),
      size: base?.size ?? null,
      // The request's metadata become the image's properties, as Nova passes them to Glance.
      ...imageProperties(args.metadata),
      image_type: 'snapshot',
      instance_uuid: server.id,
      base_image_ref: server.imageId,
    },
    ctx.now(),
  );
  return image.id;
}

/** createImage's `metadata`: string values, none of the image's own fields. */
function imageProperties(metadata: unknown): Record<string, string> {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    throw invalidInput('metadata', metadata, "is not of type 'object'");
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== 'string') throw invalidInput(`metadata.${key}`, value, "is not of type 'string'");
    if (RESERVED.has(key)) throw badRequest(`Attribute '${key}' is reserved.`);
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const RESERVED = new Set([
  'id',
  'name',
  'status',
  'visibility',
  'protected',
  'container_format',
  'disk_format',
  'min_disk',
  'min_ram',
  'size',
  'checksum',
  'owner',
  'tags',
  'created_at',
  'updated_at',
  'self',
  'file',
  'schema',
]);

function runAction(compute: Compute, request: FastifyRequest, id: string): string | undefined {
  const { ctx } = compute;
  const server = findServer(compute, request, id);
  const body = bodyObject(request);
  const names = Object.keys(body);
  if (names.length !== 1) throw badRequest('There is no such action: ' + names.join(', '));
  const name = names[0]!;
  if (name === 'createImage') return createImage(compute, request, server, body[name]);
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (!action) throw badRequest(`There is no such action: ${name}`);
  const now = ctx.now();
  const status = currentPhase(server, now).status;
  // A soft reboot is refused while one is under way; a hard one may interrupt it.
  const hardReboot = name === 'reboot' && /^hard$/i.test(String((body.reboot as { type?: unknown })?.type));
  if (!action.from.includes(status) || (status === 'REBOOT' && !hardReboot))
    throw refuse(name, server, status);
  if (name === 'reboot' && status === 'ERROR' && !hardReboot) throw refuse(name, server, status);
  const phases = action.phases(now, ctx.noise().bootDelayMs, body[name]);
  ctx.state.put('server', server.projectId, withPhases(server, now, phases));
  return undefined;
}

export function registerServerActions(app: FastifyInstance, compute: Compute): void {
  type ById = { Params: { id: string } };
  app.post<ById>('/servers/:id/action', async (request, reply) => {
    const imageId = runAction(compute, request, request.params.id);
    if (imageId === undefined) return reply.code(202).send();
    // createImage answers the image's id (2.45 on), before in its Location.
    const location = `${compute.ctx.baseUrl(request)}/image/v2/images/${imageId}`;
    if (atLeast(request, 45)) return reply.code(202).send({ image_id: imageId });
    return reply.code(202).header('location', location).send();
  });
}
