import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import { findOwned, save, type Stored } from './common.js';
import { KIND } from './model.js';

/** Neutron's standard-attr-tag extension: `/v2.0/<collection>/<id>/tags[/<tag>]`. */

const COLLECTIONS: Record<string, { kind: string; label: string }> = {
  networks: { kind: KIND.network, label: 'Network' },
  subnets: { kind: KIND.subnet, label: 'Subnet' },
  ports: { kind: KIND.port, label: 'Port' },
  routers: { kind: KIND.router, label: 'Router' },
  floatingips: { kind: KIND.floatingip, label: 'Floating IP' },
  'security-groups': { kind: KIND.securityGroup, label: 'Security group' },
};

type Tagged = Stored & { tags?: string[] };

export function registerTags(app: FastifyInstance, ctx: SandboxContext): void {
  const target = (
    request: { params: { collection: string; id: string } } & Parameters<typeof findOwned>[1],
  ) => {
    const found = COLLECTIONS[request.params.collection];
    if (!found) throw new ApiError(404, `No tags on ${request.params.collection}`);
    return { ...found, object: findOwned<Tagged>(ctx, request, found.kind, found.label, request.params.id) };
  };
  const write = (kind: string, object: Tagged, tags: string[]) => save(ctx, kind, { ...object, tags });

  app.get<{ Params: { collection: string; id: string } }>('/v2.0/:collection/:id/tags', async (request) => ({
    tags: target(request).object.tags ?? [],
  }));
  app.put<{ Params: { collection: string; id: string } }>('/v2.0/:collection/:id/tags', async (request) => {
    const { kind, object } = target(request);
    const tags = (request.body as { tags?: unknown } | undefined)?.tags;
    if (
      !Array.isArray(tags) ||
      !tags.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 255)
    ) {
      throw new ApiError(
        400,
        'Invalid input for tags: a list of non-empty strings is expected',
        'InvalidInput',
      );
    }
    return { tags: write(kind, object, [...new Set(tags as string[])]).tags };
  });
  app.put<{ Params: { collection: string; id: string; tag: string } }>(
    '/v2.0/:collection/:id/tags/:tag',
    async (request, reply) => {
      const { kind, object } = target(request);
      const tags = object.tags ?? [];
      if (!tags.includes(request.params.tag)) write(kind, object, [...tags, request.params.tag]);
      return reply.code(201).send();
    },
  );
  app.delete<{ Params: { collection: string; id: string } }>(
    '/v2.0/:collection/:id/tags',
    async (request, reply) => {
      const { kind, object } = target(request);
      write(kind, object, []);
      return reply.code(204).send();
    },
  );
  app.delete<{ Params: { collection: string; id: string; tag: string } }>(
    '/v2.0/:collection/:id/tags/:tag',
    async (request, reply) => {
      const { kind, object } = target(request);
      const tags = object.tags ?? [];
      if (!tags.includes(request.params.tag)) {
        throw new ApiError(404, `Tag ${request.params.tag} could not be found.`, 'TagNotFound');
      }
      write(
        kind,
        object,
        tags.filter((t) => t !== request.params.tag),
      );
      return reply.code(204).send();
    },
  );
}
