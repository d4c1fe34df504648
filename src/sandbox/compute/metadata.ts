import type { FastifyInstance } from 'fastify';
import { ApiError, badRequest } from '../errors.js';
import { bodyObject, type Compute, invalidInput } from './common.js';
import type { ServerRecord } from './server-state.js';
import { findServer } from './server-view.js';

/** A server's metadata: string keys and values, at most 128 items (Nova's default quota). */

const MAX_ITEMS = 128;

export function validMetadata(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput('metadata', value, "is not of type 'object'");
  }
  const metadata: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key.length < 1 || key.length > 255) {
      throw invalidInput('metadata', key, "does not match any of the regexes: '^[a-zA-Z0-9-_:. ]{1,255}$'");
    }
    if (typeof item !== 'string') throw invalidInput(key, item, "is not of type 'string'");
    if (item.length > 255) throw invalidInput(key, item, 'is too long');
    metadata[key] = item;
  }
  if (Object.keys(metadata).length > MAX_ITEMS) {
    throw new ApiError(
      403,
      `Quota exceeded for metadata_items: Requested ${Object.keys(metadata).length}, but already used 0 of ${MAX_ITEMS} metadata_items`,
    );
  }
  return metadata;
}

export function registerMetadata(app: FastifyInstance, compute: Compute): void {
  const { ctx } = compute;
  type ById = { Params: { id: string } };
  type ByKey = { Params: { id: string; key: string } };
  const save = (server: ServerRecord, metadata: Record<string, string>) => {
    const merged = validMetadata(metadata);
    ctx.state.put('server', server.projectId, { ...server, metadata: merged, editedAt: ctx.now() });
    return merged;
  };

  app.get<ById>('/servers/:id/metadata', async (request) => ({
    metadata: findServer(compute, request, request.params.id).metadata,
  }));
  // PUT replaces every item, POST adds to and changes them.
  app.put<ById>('/servers/:id/metadata', async (request) => {
    const server = findServer(compute, request, request.params.id);
    return { metadata: save(server, validMetadata(bodyObject(request).metadata)) };
  });
  app.post<ById>('/servers/:id/metadata', async (request) => {
    const server = findServer(compute, request, request.params.id);
    return { metadata: save(server, { ...server.metadata, ...validMetadata(bodyObject(request).metadata) }) };
  });
  app.get<ByKey>('/servers/:id/metadata/:key', async (request) => {
    const { metadata } = findServer(compute, request, request.params.id);
    const { key } = request.params;
    if (!Object.hasOwn(metadata, key)) throw new ApiError(404, 'Metadata item was not found');
    return { meta: { [key]: metadata[key] } };
  });
  app.put<ByKey>('/servers/:id/metadata/:key', async (request) => {
    const server = findServer(compute, request, request.params.id);
    const meta = validMetadata(bodyObject(request).meta);
    const { key } = request.params;
    if (Object.keys(meta).length > 1) throw badRequest('Request body contains too many items');
    if (!Object.hasOwn(meta, key)) throw badRequest('Request body and URI mismatch');
    save(server, { ...server.metadata, ...meta });
    return { meta };
  });
  app.delete<ByKey>('/servers/:id/metadata/:key', async (request, reply) => {
    const server = findServer(compute, request, request.params.id);
    const { key } = request.params;
    if (!Object.hasOwn(server.metadata, key)) throw new ApiError(404, 'Metadata item was not found');
    const { [key]: _removed, ...rest } = server.metadata;
    save(server, rest);
    return reply.code(204).send();
  });
}
