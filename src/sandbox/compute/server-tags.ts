import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { bodyObject, type Compute, invalidInput } from './common.js';
import { atLeast } from './microversion.js';
import type { ServerRecord } from './server-state.js';
import { findServer } from './server-view.js';

/**
 * A server's tags (microversion 2.26; given at create from 2.52): strings of 1 to 60 characters
 * without "/" or ",", at most 50 on a server.
 */

const MAX_TAGS = 50;

/** Nova's answer to a route of a later microversion than the request's. */
const unknownRoute = () => new ApiError(404, 'The resource could not be found.');

export function validTag(tag: unknown): string {
  if (typeof tag !== 'string') throw invalidInput('tags', tag, "is not of type 'string'");
  if (tag.length < 1 || tag.length > 60 || /[/,]/.test(tag)) {
    throw invalidInput('tags', tag, "does not match '^[^,/]*$' or is not 1 to 60 characters long");
  }
  return tag;
}

/** A list of tags, each once (Nova keeps a set). */
export function validTags(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalidInput('tags', value, "is not of type 'array'");
  const tags = [...new Set(value.map(validTag))];
  if (tags.length > MAX_TAGS) {
    throw new ApiError(400, `The number of tags exceeded the per-server limit ${MAX_TAGS}`);
  }
  return tags;
}

export function registerTags(app: FastifyInstance, compute: Compute): void {
  const { ctx } = compute;
  type ById = { Params: { id: string } };
  type ByTag = { Params: { id: string; tag: string } };
  const server = (request: FastifyRequest, id: string) => {
    if (!atLeast(request, 26)) throw unknownRoute();
    return findServer(compute, request, id);
  };
  const save = (record: ServerRecord, tags: string[]) =>
    ctx.state.put<ServerRecord>('server', record.projectId, { ...record, tags, editedAt: ctx.now() });

  app.get<ById>('/servers/:id/tags', async (request) => ({
    tags: server(request, request.params.id).tags ?? [],
  }));
  app.put<ById>('/servers/:id/tags', async (request) => {
    const record = server(request, request.params.id);
    const tags = validTags(bodyObject(request).tags);
    return { tags: save(record, tags).tags };
  });
  app.delete<ById>('/servers/:id/tags', async (request, reply) => {
    save(server(request, request.params.id), []);
    return reply.code(204).send();
  });
  app.get<ByTag>('/servers/:id/tags/:tag', async (request, reply) => {
    const record = server(request, request.params.id);
    if (!(record.tags ?? []).includes(request.params.tag)) {
      throw new ApiError(404, `Tag ${request.params.tag} could not be found.`);
    }
    return reply.code(204).send();
  });
  app.put<ByTag>('/servers/:id/tags/:tag', async (request, reply) => {
    const record = server(request, request.params.id);
    const tag = validTag(request.params.tag);
    const had = (record.tags ?? []).includes(tag);
    if (!had) validTags([...(record.tags ?? []), tag]);
    if (!had) save(record, [...(record.tags ?? []), tag]);
    return reply.code(had ? 204 : 201).send();
  });
  app.delete<ByTag>('/servers/:id/tags/:tag', async (request, reply) => {
    const record = server(request, request.params.id);
    if (!(record.tags ?? []).includes(request.params.tag)) {
      throw new ApiError(404, `Tag ${request.params.tag} could not be found.`);
    }
    save(
      record,
      (record.tags ?? []).filter((t) => t !== request.params.tag),
    );
    return reply.code(204).send();
  });
}
