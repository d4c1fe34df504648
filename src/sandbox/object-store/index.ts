import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext, ServiceModule } from '../app.js';
import { ApiError } from '../errors.js';
import type { SandboxObject, SandboxState } from '../state.js';

/**
 * Swift's object-store API, the part Heat's types use: an account (`/v1/AUTH_<project>`) lists
 * its containers; a container is made or changed by PUT, its metadata set by POST, read by HEAD,
 * its objects listed by GET, and it is deleted by DELETE once empty. Objects can be put, read and
 * deleted (so "not empty" can happen). Metadata travels in headers (`X-Container-Meta-*`,
 * `X-Container-Read`, `X-Container-Write`), as Swift's clients send it.
 */

interface Container extends SandboxObject {
  name: string;
  /** Lower-cased header name → value: the ACLs and every `x-container-meta-*`. */
  headers: Record<string, string>;
  created: number;
}

interface StoredObject extends SandboxObject {
  container: string;
  name: string;
  content: string;
  contentType: string;
}

interface Account extends SandboxObject {
  /** Lower-cased `x-account-meta-*` header name → value. */
  headers: Record<string, string>;
}

const ACCOUNT = 'swift_account';
const CONTAINER = 'swift_container';
const OBJECT = 'swift_object';
const MAX_NAME = 256;
/** Headers a container keeps: its ACLs and its user metadata. */
const KEPT = /^(x-container-read|x-container-write|x-container-meta-.+)$/;

const containerId = (project: string, name: string) => `${project}/${name}`;
const objectId = (project: string, container: string, name: string) => `${project}/${container}/${name}`;

/** The account in the path must be the caller's project's (`AUTH_<project id>`). */
function account(request: FastifyRequest): string {
  const given = (request.params as { account: string }).account;
  if (given !== `AUTH_${request.caller.projectId}`) throw new ApiError(403, 'Forbidden');
  return request.caller.projectId;
}

function containerName(request: FastifyRequest): string {
  const name = decodeURIComponent((request.params as { container: string }).container);
  if (name === '' || name.length > MAX_NAME || name.includes('/')) {
    throw new ApiError(400, `Invalid container name: ${name}`);
  }
  return name;
}

function find(state: SandboxState, project: string, name: string): Container {
  const found = state.get<Container>(CONTAINER, containerId(project, name));
  if (!found) throw new ApiError(404, 'The resource could not be found.');
  return found;
}

/** The ACL and metadata headers of a request; an empty value removes the header (as Swift does). */
function metadataOf(request: FastifyRequest, into: Record<string, string>): Record<string, string> {
  const out = { ...into };
  for (const [key, raw] of Object.entries(request.headers)) {
    const name = key.toLowerCase();
    if (!KEPT.test(name)) continue;
    const value = Array.isArray(raw) ? raw.join(',') : String(raw ?? '');
    if (value === '') delete out[name];
    else out[name] = value;
  }
  for (const key of Object.keys(request.headers)) {
    const m = /^x-remove-container-(meta-.+|read|write)$/.exec(key.toLowerCase());
    if (m) delete out[`x-container-${m[1]}`];
  }
  return out;
}

function objectsOf(state: SandboxState, project: string, container: string): StoredObject[] {
  return state.list<StoredObject>(OBJECT, { projectId: project, equal: { container: [container] } });
}

function bytes(objects: readonly StoredObject[]): number {
  return objects.reduce((n, o) => n + Buffer.byteLength(o.content), 0);
}

const wantsJson = (request: FastifyRequest) =>
  (request.query as { format?: string }).format === 'json' ||
  /application\/json/.test(String(request.headers.accept ?? ''));

/** A listing as Swift answers it: JSON when asked, else one name a line (204 when empty). */
function listing(request: FastifyRequest, reply: FastifyReply, items: Record<string, unknown>[]) {
  if (wantsJson(request)) return reply.code(200).type('application/json; charset=utf-8').send(items);
  if (items.length === 0) return reply.code(204).send();
  return reply
    .code(200)
    .type('text/plain; charset=utf-8')
    .send(items.map((i) => `${String(i.name)}\n`).join(''));
}

function register(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  // Objects are any bytes: every body is read as it is.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const listAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    const project = account(request);
    const containers = state.list<Container>(CONTAINER, { projectId: project });
    const all = state.list<StoredObject>(OBJECT, { projectId: project });
    reply.headers({
      ...(state.get<Account>(ACCOUNT, project)?.headers ?? {}),
      'x-account-container-count': String(containers.length),
      'x-account-object-count': String(all.length),
      'x-account-bytes-used': String(bytes(all)),
    });
    const items = containers.map((c) => {
      const objects = all.filter((o) => o.container === c.name);
      return { name: c.name, count: objects.length, bytes: bytes(objects) };
    });
    return listing(request, reply, items);
  };
  // With or without the trailing slash clients add to the storage URL.
  app.get('/v1/:account', listAccount);
  app.get('/v1/:account/', listAccount);

  // The account's own metadata (`X-Account-Meta-*`; an empty value removes one), shown by its listing.
  const postAccount = async (request: FastifyRequest, reply: FastifyReply) => {
    const project = account(request);
    state.transaction(() => {
      const headers = { ...(state.get<Account>(ACCOUNT, project)?.headers ?? {}) };
      for (const [key, raw] of Object.entries(request.headers)) {
        const name = key.toLowerCase();
        if (!name.startsWith('x-account-meta-')) continue;
        const value = Array.isArray(raw) ? raw.join(',') : String(raw ?? '');
        if (value === '') delete headers[name];
        else headers[name] = value;
      }
      state.put<Account>(ACCOUNT, project, { id: project, headers });
    });
    return reply.code(204).send();
  };
  app.post('/v1/:account', postAccount);
  app.post('/v1/:account/', postAccount);

  app.put('/v1/:account/:container', async (request, reply) => {
    const project = account(request);
    const name = containerName(request);
    const created = state.transaction(() => {
      const id = containerId(project, name);
      const existing = state.get<Container>(CONTAINER, id);
      const headers = metadataOf(request, existing?.headers ?? {});
      state.put<Container>(CONTAINER, project, {
        id,
        name,
        headers,
        created: existing?.created ?? ctx.now(),
      });
      return existing === undefined;
    });
    return reply.code(created ? 201 : 202).send();
  });

  app.post('/v1/:account/:container', async (request, reply) => {
    const project = account(request);
    const name = containerName(request);
    state.transaction(() => {
      const found = find(state, project, name);
      state.put<Container>(CONTAINER, project, { ...found, headers: metadataOf(request, found.headers) });
    });
    return reply.code(204).send();
  });

  const describe = (request: FastifyRequest, reply: FastifyReply) => {
    const project = account(request);
    const found = find(state, project, containerName(request));
    const objects = objectsOf(state, project, found.name);
    reply.headers({
      ...found.headers,
      'x-container-object-count': String(objects.length),
      'x-container-bytes-used': String(bytes(objects)),
      'x-timestamp': (found.created / 1000).toFixed(5),
    });
    return objects;
  };

  app.head('/v1/:account/:container', async (request, reply) => {
    describe(request, reply);
    return reply.code(204).send();
  });

  app.get('/v1/:account/:container', async (request, reply) => {
    const objects = describe(request, reply);
    const items = objects.map((o) => ({
      name: o.name,
      bytes: Buffer.byteLength(o.content),
      content_type: o.contentType,
    }));
    return listing(request, reply, items);
  });

  app.delete('/v1/:account/:container', async (request, reply) => {
    const project = account(request);
    const name = containerName(request);
    state.transaction(() => {
      find(state, project, name);
      if (objectsOf(state, project, name).length > 0) {
        throw new ApiError(409, 'There was a conflict when trying to complete your request.');
      }
      state.delete(CONTAINER, containerId(project, name));
    });
    return reply.code(204).send();
  });

  app.put('/v1/:account/:container/*', async (request, reply) => {
    const project = account(request);
    const container = find(state, project, containerName(request)).name;
    const name = (request.params as { '*': string })['*'];
    const body = request.body;
    const content = Buffer.isBuffer(body) ? body.toString('utf8') : '';
    const id = objectId(project, container, name);
    const contentType = String(request.headers['content-type'] ?? 'application/octet-stream');
    state.put<StoredObject>(OBJECT, project, { id, container, name, content, contentType });
    return reply.code(201).send();
  });

  app.get('/v1/:account/:container/*', async (request, reply) => {
    const project = account(request);
    const container = find(state, project, containerName(request)).name;
    const name = (request.params as { '*': string })['*'];
    const found = state.get<StoredObject>(OBJECT, objectId(project, container, name));
    if (!found) throw new ApiError(404, 'The resource could not be found.');
    return reply.code(200).type(found.contentType).send(found.content);
  });

  app.delete('/v1/:account/:container/*', async (request, reply) => {
    const project = account(request);
    const container = find(state, project, containerName(request)).name;
    const name = (request.params as { '*': string })['*'];
    if (!state.delete(OBJECT, objectId(project, container, name))) {
      throw new ApiError(404, 'The resource could not be found.');
    }
    return reply.code(204).send();
  });
}

export const objectStoreService: ServiceModule = {
  name: 'object-store',
  prefix: '/object-store',
  authenticated: true,
  noisy: true,
  register,
};
