import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AGENT_MESSAGING_PATH } from '../../resources/server-agent/transport.js';
import { isPlainObject, typeName } from '../../util/json.js';
import { serverMetadata } from '../agent/metadata.js';
import { type MessagingCaller, messagingCaller, queueRole, type QueueRole } from '../agent/messaging.js';
import { authToken } from '../authenticator.js';
import { bodyTooLarge } from '../body-limits.js';
import type { Api } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { classify } from '../errors.js';
import { acceptSignal } from '../signal.js';

/**
 * The subset of Zaqar's v2 API that servers' agents use, at `<public url>/agent-messaging` (the
 * `messaging` endpoint of the agent login's catalog), so that os-collect-config's zaqar collector
 * and heat-config-notify's ZAQAR_SIGNAL work with an agent or signal token and no cloud Zaqar:
 * - a server's metadata queue (ZAQAR_MESSAGE): every pop or list gives one message whose body is
 *   the server's metadata now (Heat posts one per change; the agent acts only on a change either way);
 * - a deployment's signal queue (ZAQAR_SIGNAL): each posted message's body is the deployment's
 *   signal, handled as the Heat API's resource signal is.
 * Errors answer in Zaqar's body (`title`, `description`); none is a 500.
 */

const V2 = '/v2/queues/:queue';
/** Zaqar's default message TTL and its most messages in one pop or post. */
const TTL_SECONDS = 3600;
const MOST_MESSAGES = 20;

class ZaqarError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    description: string,
  ) {
    super(description);
  }
}

const badRequest = (description: string) => new ZaqarError(400, 'Invalid API request', description);

/** Python's uuid.UUID(): 32 hex digits, dashes, braces and a `urn:uuid:` prefix optional. */
const isUuid = (text: string) =>
  /^[0-9a-f]{32}$/i.test(
    text
      .replace(/^urn:uuid:/i, '')
      .replace(/^\{(.*)\}$/, '$1')
      .replace(/-/g, ''),
  );

interface QueueRequest {
  caller: MessagingCaller;
  queue: string;
}

/** The caller (401 without a valid token) and its Client-ID (400 when missing or not a UUID). */
async function authenticate(deps: ApiDeps, request: FastifyRequest): Promise<MessagingCaller> {
  const caller = await messagingCaller(deps, authToken(request.headers));
  if (!caller)
    throw new ZaqarError(401, 'Unauthorized', 'The request you have made requires authentication.');
  const clientId = request.headers['client-id'];
  if (typeof clientId !== 'string' || clientId === '')
    throw new ZaqarError(400, 'Missing header value', 'The Client-ID header is required.');
  if (!isUuid(clientId)) throw new ZaqarError(400, 'Wrong UUID value', 'Malformed hexadecimal UUID.');
  return caller;
}

/** The queue's role for the caller, when it is one of `allowed` (403 otherwise). */
async function roleOf<K extends QueueRole['kind']>(
  deps: ApiDeps,
  { caller, queue }: QueueRequest,
  allowed: readonly K[],
): Promise<Extract<QueueRole, { kind: K }>> {
  const role = await queueRole(deps, caller, queue);
  if (role && (allowed as readonly string[]).includes(role.kind))
    return role as Extract<QueueRole, { kind: K }>;
  throw new ZaqarError(
    403,
    'Not authorized',
    role
      ? `Queue ${queue} does not allow this operation for this credential`
      : `Queue ${queue} is not one of this credential's queues (its server's metadata queue, its deployments' signal queues)`,
  );
}

/** The metadata queue's one message: the server's metadata document now. */
async function metadataMessage(deps: ApiDeps, role: Extract<QueueRole, { kind: 'metadata' }>, queue: string) {
  const { stack, row } = role.access;
  const body = await serverMetadata(deps.engine, stack, row);
  // The same document has the same id: a client comparing ids sees a change as a new message.
  const id = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 24);
  const since = Date.parse(row.updatedAt ?? row.createdAt);
  const age = Number.isNaN(since) ? 0 : Math.max(0, Math.floor((Date.now() - since) / 1000));
  return { id, href: `/v2/queues/${queue}/messages/${id}`, ttl: TTL_SECONDS, age, body };
}

/** The bodies of a post (`{"messages": [{"body": ..., "ttl": ...}]}`), each a signal's details. */
function postedBodies(document: unknown): (Record<string, unknown> | null)[] {
  if (!isPlainObject(document) || !Object.hasOwn(document, 'messages'))
    throw badRequest('No messages were found in the request body.');
  const messages = document.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    throw badRequest('"messages" must be a non-empty list of messages.');
  if (messages.length > MOST_MESSAGES)
    throw badRequest(`No more than ${MOST_MESSAGES} messages may be posted at once.`);
  return messages.map((message, i) => {
    if (!isPlainObject(message) || !Object.hasOwn(message, 'body'))
      throw badRequest(`Message ${i} has no "body".`);
    const body = message.body;
    if (body !== null && !isPlainObject(body))
      throw badRequest(`Message ${i}'s body is a signal's details: a JSON object, not a ${typeName(body)}.`);
    return body as Record<string, unknown> | null;
  });
}

/** The first value of a query parameter. */
function param(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

function registerRoutes(app: Api, deps: ApiDeps): void {
  // Checked before the body is read (Zaqar's auth runs first too); kept for the handler.
  const callers = new WeakMap<FastifyRequest, MessagingCaller>();
  app.addHook('onRequest', async (request) => {
    callers.set(request, await authenticate(deps, request));
  });
  const queueOf = async (request: FastifyRequest): Promise<QueueRequest> => ({
    caller: callers.get(request) ?? (await authenticate(deps, request)),
    queue: (request.params as { queue: string }).queue,
  });

  // zaqarclient creates (PUT) or checks (GET, HEAD) a queue before using it: the agent's exist.
  app.put(V2, { schema: { hide: true } }, async (request, reply) => {
    await roleOf(deps, await queueOf(request), ['metadata', 'signal']);
    return reply.status(204).send();
  });
  app.get(V2, { schema: { hide: true } }, async (request) => {
    await roleOf(deps, await queueOf(request), ['metadata', 'signal']);
    return {};
  });

  app.get(`${V2}/messages`, { schema: { hide: true } }, async (request) => {
    const asked = await queueOf(request);
    const role = await roleOf(deps, asked, ['metadata']);
    return { messages: [await metadataMessage(deps, role, asked.queue)], links: [] };
  });

  app.delete(`${V2}/messages`, { schema: { hide: true } }, async (request, reply) => {
    const asked = await queueOf(request);
    const role = await roleOf(deps, asked, ['metadata']);
    const pop = param(request, 'pop');
    const ids = param(request, 'ids');
    if (pop !== undefined && ids !== undefined) throw badRequest('A delete takes "ids" or "pop", not both.');
    if (pop === undefined) {
      if (ids === undefined) throw badRequest('A delete of messages needs "ids" or "pop".');
      return reply.status(204).send(); // Nothing is kept, so nothing is left to delete.
    }
    const count = /^\d+$/.test(pop) ? Number(pop) : NaN;
    if (!(count >= 1 && count <= MOST_MESSAGES))
      throw badRequest(`"pop" must be a whole number from 1 to ${MOST_MESSAGES}.`);
    return { messages: [await metadataMessage(deps, role, asked.queue)] };
  });

  app.delete(`${V2}/messages/:message`, { schema: { hide: true } }, async (request, reply) => {
    await roleOf(deps, await queueOf(request), ['metadata']);
    return reply.status(204).send();
  });

  app.post(`${V2}/messages`, { schema: { hide: true } }, async (request, reply) => {
    const asked = await queueOf(request);
    const role = await roleOf(deps, asked, ['signal']);
    const bodies = postedBodies(request.body);
    const resources: string[] = [];
    for (const body of bodies) {
      await acceptSignal(deps.engine, role.stackId, role.resourceName, body);
      resources.push(`/v2/queues/${asked.queue}/messages/${randomBytes(12).toString('hex')}`);
    }
    return reply.status(201).send({ resources });
  });
}

/** Zaqar's error body for any error (internal ones a 503 whose details stay in the log). */
function zaqarError(deps: ApiDeps, err: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof ZaqarError)
    return reply.status(err.status).send({ title: err.title, description: err.message });
  const { status, message, internal } = classify(
    bodyTooLarge(err, request, deps.limits.max_json_body_size) ?? err,
  );
  if (internal) {
    request.log.error({ err }, 'agent messaging request failed');
    return reply
      .status(503)
      .send({ title: 'Service temporarily unavailable', description: 'Please try again in a few seconds.' });
  }
  const title = status === 404 ? 'Not found' : status === 401 ? 'Unauthorized' : 'Invalid API request';
  return reply.status(status).send({ title, description: message });
}

export async function registerAgentMessagingRoutes(app: Api, deps: ApiDeps): Promise<void> {
  await app.register(
    async (scoped) => {
      scoped.setErrorHandler(async (err, request, reply) => zaqarError(deps, err, request, reply));
      scoped.setNotFoundHandler(async (request, reply) =>
        reply.status(404).send({
          title: 'Not found',
          description: `Hearth's agent messaging serves no ${request.method} ${request.url.split('?')[0]}`,
        }),
      );
      registerRoutes(scoped as unknown as Api, deps);
    },
    { prefix: AGENT_MESSAGING_PATH },
  );
}
