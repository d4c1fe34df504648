import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError, badRequest } from '../errors.js';
import type { Quota, Random } from '../noise.js';
import type { SandboxObject } from '../state.js';

/**
 * What every Neutron resource shares: the stored shape (the wire shape plus private `_` fields),
 * timestamps and revisions, ownership and visibility, quotas, and the collection query
 * (filters on any field, `fields=`, `limit`/`marker` paging).
 */

/** A Neutron object as stored: its wire fields, plus fields starting with `_` the wire never shows. */
export type Stored = SandboxObject & { project_id: string; created_at: string; updated_at: string };

export type Body = Record<string, unknown>;

/** What the resources' logic needs of the sandbox (the PortBinder has no request to get it from). */
export type Env = Pick<SandboxContext, 'state' | 'now' | 'noise'> & { random?: Random };

/** Neutron's timestamps: seconds, no fraction. */
export function timestamp(ctx: Env): string {
  return new Date(ctx.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The fields every new object starts with. */
export function baseFields(ctx: Env, projectId: string) {
  const time = timestamp(ctx);
  return {
    id: randomUUID(),
    project_id: projectId,
    tenant_id: projectId,
    created_at: time,
    updated_at: time,
    revision_number: 0,
    description: '',
    tags: [] as string[],
  };
}

/** Stores a changed object with a new revision and update time. */
export function save<T extends Stored>(ctx: Env, kind: string, object: T, touch = true): T {
  const next = touch
    ? { ...object, updated_at: timestamp(ctx), revision_number: Number(object.revision_number ?? 0) + 1 }
    : object;
  // The seeded public objects have no owner (project_id ''): stored shared.
  ctx.state.put(kind, next.project_id === '' ? null : next.project_id, next);
  return next;
}

/** The wire shape: the stored object without its private fields. */
export function wire<T extends Stored>(object: T): Body {
  return Object.fromEntries(Object.entries(object).filter(([k]) => !k.startsWith('_')));
}

/** The request's JSON body's `{key: {...}}` member, or a 400 naming what is missing. */
export function member(request: FastifyRequest, key: string): Body {
  const body = request.body;
  const inner =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body)[key] : undefined;
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
    throw badRequest(`Resource body required: expected an object under '${key}'.`);
  }
  return inner as Body;
}

export function optString(body: Body, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`'${String(value)}' is not a valid string for ${key}`);
  return value;
}

export function optBool(body: Body, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'True') return true;
  if (value === 'false' || value === 'False') return false;
  throw invalid(`'${String(value)}' is not a valid boolean value for ${key}`);
}

export const invalid = (message: string) =>
  new ApiError(400, `Invalid input for operation: ${message}.`, 'InvalidInput');

/** Neutron's 404 for a resource kind, e.g. `NetworkNotFound`. */
export function missing(label: string, id: string): ApiError {
  const type = `${label.replace(/(^| )(\w)/g, (_m, _s, c: string) => c.toUpperCase())}NotFound`;
  return new ApiError(404, `${label} ${id} could not be found.`, type);
}

/** Whether the caller may see an object: its own, a shared (unowned) one, or any for admin. */
export function canSee(request: FastifyRequest, object: Stored): boolean {
  return object.project_id === '' || object.project_id === request.caller.projectId || isAdmin(request);
}

export const isAdmin = (request: FastifyRequest) => request.caller.roles.includes('admin');

/** Neutron's 403 for an action its policy reserves to admins, e.g. `create_network:shared`. */
export const policyRefused = (rule: string) =>
  new ApiError(403, `(rule:${rule}) is disallowed by policy`, 'PolicyNotAuthorized');

/**
 * The project a create is for: the caller's, or the `project_id`/`tenant_id` of the body, which
 * only an admin may set to another project (Neutron's policy: a 403 for anyone else).
 */
export function owningProject(request: FastifyRequest, body: Body, rule: string): string {
  const projectId = optString(body, 'project_id');
  const tenantId = optString(body, 'tenant_id');
  if (projectId !== undefined && tenantId !== undefined && projectId !== tenantId) {
    throw new ApiError(400, "'project_id' and 'tenant_id' do not match", 'BadRequest');
  }
  const given = projectId ?? tenantId;
  if (given === undefined || given === request.caller.projectId) return request.caller.projectId;
  if (!isAdmin(request)) throw policyRefused(rule);
  return given;
}

/** Refuses a non-admin setting an admin-only attribute (`shared`, `router:external`) to true. */
export function adminOnlyFlags(request: FastifyRequest, body: Body, keys: readonly string[], action: string) {
  if (isAdmin(request)) return;
  for (const key of keys) if (body[key] === true) throw policyRefused(`${action}:${key}`);
}

/** The object of a kind the caller can see, or a 404 of that kind. */
export function findVisible<T extends Stored>(
  ctx: SandboxContext,
  request: FastifyRequest,
  kind: string,
  label: string,
  id: string,
  extraVisible: (o: T) => boolean = () => false,
): T {
  const object = ctx.state.get<T>(kind, id);
  if (!object || !(canSee(request, object) || extraVisible(object))) throw missing(label, id);
  return object;
}

/** The caller's own object (to change or delete it); someone else's is a 404 as in Neutron. */
export function findOwned<T extends Stored>(
  ctx: SandboxContext,
  request: FastifyRequest,
  kind: string,
  label: string,
  id: string,
): T {
  const object = ctx.state.get<T>(kind, id);
  if (!object || !(object.project_id === request.caller.projectId || isAdmin(request))) {
    throw missing(label, id);
  }
  return object;
}

/** The objects of a kind a request can see. */
export function visibleTo<T extends Stored>(ctx: SandboxContext, request: FastifyRequest, kind: string): T[] {
  if (isAdmin(request)) return ctx.state.list<T>(kind);
  return ctx.state.visible<T>(kind, request.caller.projectId);
}

/** Refuses one more object of a kind past the project's quota (the noise knobs' quotas). */
export function checkQuota(ctx: Env, quota: Quota, kind: string, projectId: string) {
  const state = ctx.state;
  const limit = ctx.noise().quotas[quota];
  if (limit < 0) return;
  if (state.count(kind, projectId) >= limit) {
    throw new ApiError(409, `Quota exceeded for resources: ['${quota}'].`, 'OverQuota');
  }
}

const PAGING = new Set([
  'fields',
  'limit',
  'marker',
  'sort_key',
  'sort_dir',
  'page_reverse',
  'tags',
  'not-tags',
]);

/**
 * The query's filters on `fields` (string fields every object stores), for the store to apply
 * before anything is parsed; `collection` applies every filter again. A filter asking for an
 * empty or missing value (`''`, `None`) is left to `collection`, which matches those to null.
 */
export function storedFilters(request: FastifyRequest, fields: readonly string[]): Record<string, string[]> {
  const query = request.query as Record<string, unknown>;
  const out: Record<string, string[]> = {};
  for (const field of fields) {
    if (query[field] === undefined) continue;
    const wanted = values(query[field]);
    if (wanted.length > 0 && !wanted.some((w) => w === '' || w === 'None')) out[field] = wanted;
  }
  return out;
}

function values(raw: unknown): string[] {
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}

function matches(actual: unknown, wanted: string[]): boolean {
  if (typeof actual === 'boolean') return wanted.some((w) => w.toLowerCase() === String(actual));
  if (actual === null || actual === undefined) return wanted.some((w) => w === '' || w === 'None');
  if (Array.isArray(actual)) return actual.some((a) => wanted.includes(String(a)));
  return wanted.includes(String(actual));
}

/** `fixed_ips=ip_address=10.0.0.3` / `fixed_ips=subnet_id=...`: the port filter on its addresses. */
function matchesFixedIps(actual: unknown, wanted: string[]): boolean {
  const ips = Array.isArray(actual) ? (actual as Body[]) : [];
  return wanted.every((w) => {
    const [key, value] = w.split('=', 2) as [string, string | undefined];
    return ips.some(
      (ip) =>
        String(ip[key]) === value ||
        (key === 'ip_address_substr' && String(ip.ip_address).includes(value ?? '')),
    );
  });
}

/**
 * A collection answer: `{networks: [...], networks_links?: [...]}`, filtered by every query
 * parameter naming a field (a repeated key matches any of its values), then paged and trimmed to
 * `fields`. `path` is the collection's URL when it is not its name (`qos/policies`).
 */
export function collection(
  request: FastifyRequest,
  ctx: SandboxContext,
  name: string,
  objects: Body[],
  path = name,
): Record<string, unknown> {
  const query = request.query as Record<string, unknown>;
  let items = objects;
  for (const [key, raw] of Object.entries(query)) {
    if (PAGING.has(key) || raw === undefined) continue;
    const wanted = values(raw);
    items = items.filter((o) =>
      key === 'fixed_ips' ? matchesFixedIps(o.fixed_ips, wanted) : key in o && matches(o[key], wanted),
    );
  }
  if (query.tags !== undefined) {
    const tags = values(query.tags).flatMap((t) => t.split(','));
    items = items.filter((o) => tags.every((t) => (o.tags as string[] | undefined)?.includes(t)));
  }
  if (query.marker !== undefined) {
    const marker = String(values(query.marker)[0]);
    const at = items.findIndex((o) => o.id === marker);
    if (at < 0) throw missing('Marker', marker);
    items = items.slice(at + 1);
  }
  const links: { rel: string; href: string }[] = [];
  if (query.limit !== undefined) {
    const limit = Number(values(query.limit)[0]);
    if (!Number.isInteger(limit) || limit < 0)
      throw badRequest(`Limit must be an integer 0 or greater and not '${String(query.limit)}'`);
    if (limit > 0 && items.length > limit) {
      items = items.slice(0, limit);
      links.push({
        rel: 'next',
        href: `${ctx.baseUrl(request)}/network/v2.0/${path}?limit=${limit}&marker=${String(items.at(-1)!.id)}`,
      });
    }
  }
  const fields = query.fields === undefined ? undefined : values(query.fields).flatMap((f) => f.split(','));
  const shown = fields ? items.map((o) => pick(o, fields)) : items;
  return { [name]: shown, ...(links.length > 0 ? { [`${name}_links`]: links } : {}) };
}

/** One object's answer, trimmed to `fields=` when asked. */
export function single(request: FastifyRequest, name: string, object: Body): Record<string, unknown> {
  const query = request.query as Record<string, unknown>;
  const fields = query.fields === undefined ? undefined : values(query.fields).flatMap((f) => f.split(','));
  return { [name]: fields ? pick(object, fields) : object };
}

function pick(object: Body, fields: string[]): Body {
  return Object.fromEntries(Object.entries(object).filter(([k]) => fields.includes(k)));
}

/** Copies the updatable string/boolean fields of a PUT body onto an object, type-checked. */
export function applyUpdates<T extends Stored>(
  object: T,
  body: Body,
  strings: string[],
  booleans: string[],
): T {
  const next: Body = { ...object };
  for (const key of strings) {
    const value = optString(body, key);
    if (value !== undefined) next[key] = value;
  }
  for (const key of booleans) {
    const value = optBool(body, key);
    if (value !== undefined) next[key] = value;
  }
  if (Array.isArray(body.tags)) next.tags = body.tags.map(String);
  return next as T;
}

/** Zone hints of a router or network: the sandbox has one zone, `nova`. */
export function zoneHints(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((z) => typeof z !== 'string'))
    throw invalid(`'${JSON.stringify(value)}' is not a list of availability zones`);
  for (const zone of value as string[])
    if (zone !== 'nova')
      throw new ApiError(404, `AvailabilityZone ${zone} could not be found.`, 'AvailabilityZoneNotFound');
  return value as string[];
}
