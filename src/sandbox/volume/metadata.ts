import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../app.js';
import { badRequest, notFound } from '../errors.js';
import { bodyPart, metadataField, type Params } from './request.js';
import { projectVolume, save } from './volume-state.js';
import type { Volume } from './types.js';

/** `/volumes/{id}/metadata`: the whole set (read, merge, replace) and one key at a time. */
export function registerMetadata(app: FastifyInstance, ctx: SandboxContext): void {
  const volumeOf = (params: Params) => projectVolume(ctx, params.project_id, params.id);
  const store = (volume: Volume, metadata: Record<string, string>) => {
    save(ctx, { ...volume, metadata });
    return metadata;
  };
  const metadataOf = (body: unknown) => metadataField(bodyPart(body, 'metadata'));

  app.get<{ Params: Params }>('/volumes/:id/metadata', async (request) => ({
    metadata: volumeOf(request.params).metadata,
  }));
  app.post<{ Params: Params }>('/volumes/:id/metadata', async (request) => {
    const volume = volumeOf(request.params);
    return { metadata: store(volume, { ...volume.metadata, ...metadataOf(request.body) }) };
  });
  app.put<{ Params: Params }>('/volumes/:id/metadata', async (request) => {
    const volume = volumeOf(request.params);
    return { metadata: store(volume, metadataOf(request.body)) };
  });

  type KeyParams = Params & { key: string };
  app.get<{ Params: KeyParams }>('/volumes/:id/metadata/:key', async (request) => {
    const { key } = request.params;
    const value = volumeOf(request.params).metadata[key];
    if (value === undefined) throw notFound('Volume metadata key', key);
    return { meta: { [key]: value } };
  });
  app.put<{ Params: KeyParams }>('/volumes/:id/metadata/:key', async (request) => {
    const { key } = request.params;
    const meta = metadataField(bodyPart(request.body, 'meta'), 'meta');
    if (Object.keys(meta).length !== 1 || meta[key] === undefined) {
      throw badRequest('Request body and URI mismatch');
    }
    const volume = volumeOf(request.params);
    store(volume, { ...volume.metadata, ...meta });
    return { meta };
  });
  app.delete<{ Params: KeyParams }>('/volumes/:id/metadata/:key', async (request, reply) => {
    const { key } = request.params;
    const volume = volumeOf(request.params);
    if (volume.metadata[key] === undefined) throw notFound('Volume metadata key', key);
    const { [key]: _dropped, ...rest } = volume.metadata;
    store(volume, rest);
    return reply.code(200).send();
  });
}
