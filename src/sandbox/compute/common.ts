import type { FastifyRequest } from 'fastify';
import type { Caller, SandboxContext } from '../app.js';
import type { AgentBinder, PortBinder, VolumeBinder } from '../bindings.js';
import { ApiError, badRequest } from '../errors.js';

/** What every part of the compute module works with. */
export interface Compute {
  readonly ctx: SandboxContext;
  readonly ports: PortBinder;
  readonly volumes: VolumeBinder;
  /** The guest agents, told of each new server (absent: servers run no agent). */
  readonly agents?: AgentBinder;
}

export const COMPUTE_PREFIX = '/compute/v2.1';

/** Nova's timestamps: seconds precision, `Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Nova's `links` of a resource: the versioned self link and the unversioned bookmark. */
export function links(ctx: SandboxContext, request: FastifyRequest, collection: string, id: string) {
  const base = ctx.baseUrl(request);
  return [
    { rel: 'self', href: `${base}${COMPUTE_PREFIX}/${collection}/${id}` },
    { rel: 'bookmark', href: `${base}/compute/${collection}/${id}` },
  ];
}

export const isAdmin = (caller: Caller) => caller.roles.includes('admin');

/** Refuses a policy-guarded call to a non-admin, with Nova's policy message. */
export function requireAdmin(caller: Caller, rule: string): void {
  if (!isAdmin(caller)) throw new ApiError(403, `Policy doesn't allow ${rule} to be performed.`);
}

/** The JSON body as an object, or Nova's 400. */
export function bodyObject(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The request body is missing or is not a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** `body[key]` as an object: Nova's schema message when it is missing or not an object. */
export function member(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = body[key];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(
      key,
      value,
      value === undefined ? `'${key}' is a required property` : `is not of type 'object'`,
    );
  }
  return value as Record<string, unknown>;
}

/** Nova's JSON-schema validation message. */
export function invalidInput(field: string, value: unknown, reason: string): ApiError {
  const shown = value === undefined ? 'None' : typeof value === 'string' ? value : JSON.stringify(value);
  const text = reason.startsWith("'") ? reason : `${shown} ${reason}`;
  return badRequest(`Invalid input for field/attribute ${field}. Value: ${shown}. ${text}`);
}

/** Applies Nova's `limit`/`marker` paging to items already filtered and sorted. */
export function page<T extends { id: string }>(
  items: T[],
  query: Record<string, string | undefined>,
  key: (item: T) => string = (item) => item.id,
): { items: T[]; limit: number | undefined } {
  let rest = items;
  if (query.marker !== undefined) {
    const at = items.findIndex((item) => key(item) === query.marker);
    if (at < 0) throw badRequest(`marker [${query.marker}] not found`);
    rest = items.slice(at + 1);
  }
  if (query.limit === undefined) return { items: rest.slice(0, 1000), limit: undefined };
  const limit = Number(query.limit);
  if (!Number.isInteger(limit) || limit < 0) {
    throw badRequest(
      `Invalid input for query parameters limit. Value: ${query.limit}. ${query.limit} is not an integer`,
    );
  }
  return { items: rest.slice(0, Math.min(limit, 1000)), limit };
}

/** A `*_links` next link when the page is full (Nova gives one whenever a limit was reached). */
export function nextLinks(
  ctx: SandboxContext,
  request: FastifyRequest,
  path: string,
  shown: { id: string }[],
  limit: number | undefined,
  markerOf: (item: { id: string }) => string = (item) => item.id,
): { rel: string; href: string }[] | undefined {
  if (limit === undefined || limit === 0 || shown.length < limit) return undefined;
  const query = new URLSearchParams(request.query as Record<string, string>);
  query.set('limit', String(limit));
  query.set('marker', markerOf(shown.at(-1)!));
  return [{ rel: 'next', href: `${ctx.baseUrl(request)}${COMPUTE_PREFIX}/${path}?${query}` }];
}
