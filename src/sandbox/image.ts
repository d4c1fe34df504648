import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext, ServiceModule } from './app.js';
import { ApiError, notFound } from './errors.js';
import type { SandboxObject, SandboxState } from './state.js';

/**
 * Glance v2: images are records (no data is stored). Public seeded images any project can boot
 * from, and images a project registers itself.
 */

export interface Image extends SandboxObject {
  name: string;
  status: string;
  visibility: string;
  protected: boolean;
  container_format: string;
  disk_format: string;
  min_disk: number;
  min_ram: number;
  size: number | null;
  checksum: string | null;
  owner: string | null;
  tags: string[];
  created_at: string;
  updated_at: string;
  self: string;
  file: string;
  schema: string;
}

const SEEDED = [
  { name: 'cirros-0.6.2-x86_64-disk', size: 21430272, min_disk: 1 },
  { name: 'fedora-39', size: 542113792, min_disk: 5 },
  { name: 'ubuntu-22.04', size: 684032512, min_disk: 5 },
];

function record(fields: Partial<Image> & { name: string }, owner: string | null, now: number): Image {
  const id = fields.id ?? randomUUID();
  const time = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    status: 'active',
    visibility: owner === null ? 'public' : 'private',
    protected: false,
    container_format: 'bare',
    disk_format: 'qcow2',
    min_disk: 0,
    min_ram: 0,
    size: null,
    checksum: null,
    tags: [],
    ...fields,
    id,
    owner,
    created_at: time,
    updated_at: time,
    self: `/v2/images/${id}`,
    file: `/v2/images/${id}/file`,
    schema: '/v2/schemas/image',
  };
}

/** The public images every sandbox starts with. */
export function seedImages(state: SandboxState, now: number): void {
  state.transaction(() => {
    if (state.count('image') > 0) return;
    for (const image of SEEDED) state.put('image', null, record(image, null, now));
  });
}

/**
 * Registers an image of a project (Nova's createImage: a server's snapshot); usable at once, as
 * every sandbox image is (no data is stored).
 */
export function saveImage(
  state: SandboxState,
  owner: string,
  fields: Partial<Image> & { name: string },
  now: number,
): Image {
  return state.put('image', owner, record(fields, owner, now));
}

/**
 * The images a project sees (Glance's visibility): the sandbox's seeded ones, its own, and the
 * ones another project made public.
 */
export function visibleImages(state: SandboxState, projectId: string): Image[] {
  return state
    .list<Image>('image')
    .filter((i) => i.owner === null || i.owner === projectId || i.visibility === 'public');
}

/** An image the project can see, by id or (unique) name; undefined when there is none. */
export function findImage(state: SandboxState, projectId: string, ref: string): Image | undefined {
  const visible = visibleImages(state, projectId);
  return visible.find((i) => i.id === ref) ?? visible.find((i) => i.name === ref);
}

function version(request: FastifyRequest, ctx: SandboxContext) {
  return {
    id: 'v2.16',
    status: 'CURRENT',
    links: [{ rel: 'self', href: `${ctx.baseUrl(request)}/image/v2/` }],
  };
}

const FILTERS = ['name', 'status', 'visibility', 'owner', 'disk_format', 'container_format'] as const;

function register(app: FastifyInstance, ctx: SandboxContext): void {
  seedImages(ctx.state, ctx.now());
  const discovery = { config: { public: true } };
  app.get('/', discovery, async (request, reply) =>
    reply.code(300).send({ versions: [version(request, ctx)] }),
  );
  app.get('/versions', discovery, async (request) => ({ versions: [version(request, ctx)] }));

  app.get('/v2/images', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    let images = visibleImages(ctx.state, request.caller.projectId);
    for (const key of FILTERS) {
      const wanted = query[key];
      if (wanted !== undefined) images = images.filter((i) => String(i[key]) === wanted);
    }
    if (query.marker !== undefined) {
      const at = images.findIndex((i) => i.id === query.marker);
      if (at < 0) throw new ApiError(400, `Invalid marker ${query.marker}`);
      images = images.slice(at + 1);
    }
    const limit = query.limit === undefined ? 25 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 0) throw new ApiError(400, `Invalid limit ${query.limit}`);
    const page = images.slice(0, limit);
    const next =
      images.length > limit && page.length > 0
        ? { next: `/v2/images?marker=${page.at(-1)!.id}&limit=${limit}` }
        : {};
    return { images: page, first: '/v2/images', schema: '/v2/schemas/images', ...next };
  });

  app.get<{ Params: { id: string } }>('/v2/images/:id', async (request) => {
    const image = visibleImages(ctx.state, request.caller.projectId).find((i) => i.id === request.params.id);
    if (!image) throw notFound('Image', request.params.id);
    return image;
  });

  app.post('/v2/images', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields: Partial<Image> & { name: string } = {
      name: typeof body.name === 'string' ? body.name : '',
    };
    for (const key of ['container_format', 'disk_format', 'visibility'] as const) {
      if (typeof body[key] === 'string') fields[key] = body[key] as string;
    }
    for (const key of ['min_disk', 'min_ram'] as const) {
      if (typeof body[key] === 'number') fields[key] = body[key] as number;
    }
    // Glance's default policy (publicize_image): only an admin makes an image public.
    if (fields.visibility === 'public' && !request.caller.roles.includes('admin')) {
      throw new ApiError(403, 'You are not authorized to complete publicize_image action.');
    }
    if (typeof body.id === 'string') fields.id = body.id;
    if (Array.isArray(body.tags)) fields.tags = body.tags.map(String);
    // No data is ever uploaded: the image is usable as soon as it is registered.
    const image = record(fields, request.caller.projectId, ctx.now());
    ctx.state.put('image', request.caller.projectId, image);
    return reply.code(201).send(image);
  });

  // Image data is counted, not kept.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
    let size = 0;
    payload.on('data', (chunk: Buffer) => (size += chunk.length));
    payload.on('end', () => done(null, size));
    payload.on('error', (error) => done(error, undefined));
  });
  app.put<{ Params: { id: string } }>('/v2/images/:id/file', async (request, reply) => {
    const image = ctx.state
      .visible<Image>('image', request.caller.projectId)
      .find((i) => i.id === request.params.id);
    if (!image || image.owner !== request.caller.projectId) throw notFound('Image', request.params.id);
    const size = typeof request.body === 'number' ? request.body : 0;
    ctx.state.put('image', image.owner, { ...image, size, status: 'active' });
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/v2/images/:id', async (request, reply) => {
    const { id } = request.params;
    const owner = ctx.state.owner('image', id);
    if (owner === undefined || (owner !== null && owner !== request.caller.projectId))
      throw notFound('Image', id);
    if (owner === null && !request.caller.roles.includes('admin')) {
      throw new ApiError(403, `You are not permitted to delete image ${id}.`);
    }
    ctx.state.delete('image', id);
    return reply.code(204).send();
  });
}

export const imageService: ServiceModule = {
  name: 'image',
  prefix: '/image',
  authenticated: true,
  noisy: true,
  register,
};
