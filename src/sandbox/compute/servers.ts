import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import { atLeast } from './microversion.js';
import { bodyObject, type Compute, invalidInput, isAdmin, links, member, nextLinks, page } from './common.js';
import { validMetadata } from './metadata.js';
import { createServer } from './server-create.js';
import {
  currentPhase,
  deleteServer,
  KNOWN_STATUSES,
  type ServerRecord,
  servers,
  updatedAt,
} from './server-state.js';
import { detailView, findServer, shortView } from './server-view.js';

/** /servers: create, list (filters, sort, paging), show, update, delete. */

const truthy = (value: string | undefined) =>
  value !== undefined && ['1', 'true', 't', 'yes', 'y', 'on', ''].includes(value.toLowerCase());

/** Nova matches `name` as a regular expression, anywhere in the name. */
function nameMatcher(pattern: string): (name: string) => boolean {
  try {
    const regex = new RegExp(pattern);
    return (name) => regex.test(name);
  } catch {
    return (name) => name.includes(pattern);
  }
}

function parseTime(value: string, field: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalidInput(field, value, `'${value}' is not a 'date-time'`);
  return ms;
}

function listServers(compute: Compute, request: FastifyRequest, detail: boolean) {
  const { ctx } = compute;
  const query = request.query as Record<string, string | undefined>;
  const now = ctx.now();
  const allProjects = isAdmin(request.caller) && truthy(query.all_tenants);
  const project = allProjects ? (query.project_id ?? query.tenant_id) : request.caller.projectId;
  const since =
    query['changes-since'] === undefined ? undefined : parseTime(query['changes-since'], 'changes-since');
  const before =
    query['changes-before'] === undefined || !atLeast(request, 66)
      ? undefined
      : parseTime(query['changes-before'], 'changes-before');
  // Deleted servers are listed only to say they changed (changes-since), as Nova does.
  let found = servers(compute, project, since !== undefined || before !== undefined);
  if (since !== undefined) found = found.filter((s) => updatedAt(s, now) >= since);
  if (before !== undefined) found = found.filter((s) => updatedAt(s, now) <= before);
  if (query.name !== undefined) {
    const matches = nameMatcher(query.name);
    found = found.filter((s) => matches(s.name));
  }
  if (query.status !== undefined) {
    const status = query.status.toUpperCase();
    if (!KNOWN_STATUSES.includes(status)) throw badRequest(`Invalid status value`);
    found = found.filter((s) => currentPhase(s, now).status === status);
  }
  if (query.image !== undefined) {
    const image = query.image.split('/').at(-1);
    found = found.filter((s) => s.imageId === image);
  }
  if (query.flavor !== undefined) {
    const flavor = query.flavor.split('/').at(-1);
    found = found.filter((s) => s.flavor.id === flavor);
  }
  if (query.key_name !== undefined) found = found.filter((s) => s.keyName === query.key_name);
  if (query.availability_zone !== undefined) {
    found = found.filter((s) => s.availabilityZone === query.availability_zone);
  }
  found = sortServers(found, query, now);
  const paged = page(found, query);
  const next = nextLinks(ctx, request, detail ? 'servers/detail' : 'servers', paged.items, paged.limit);
  return {
    servers: paged.items.map((s) =>
      detail
        ? detailView(compute, request, s)
        : { ...shortView(compute, request, s), ...deletedMark(s, now) },
    ),
    ...(next ? { servers_links: next } : {}),
  };
}

/** A deleted server in a changes-since list says so even in the short view. */
const deletedMark = (s: ServerRecord, now: number) =>
  currentPhase(s, now).status === 'DELETED' ? { status: 'DELETED' } : {};

/** Nova's default order is newest first; sort_key/sort_dir may change it. */
function sortServers(
  list: ServerRecord[],
  query: Record<string, string | undefined>,
  now: number,
): ServerRecord[] {
  const key = query.sort_key ?? 'created_at';
  const direction = (query.sort_dir ?? 'desc') === 'asc' ? 1 : -1;
  if (!['asc', 'desc'].includes(query.sort_dir ?? 'desc')) throw badRequest('Invalid sort direction');
  const keys: Record<string, (s: ServerRecord, index: number) => string | number> = {
    created_at: (_s, index) => index,
    updated_at: (s) => updatedAt(s, now),
    display_name: (s) => s.name,
    uuid: (s) => s.id,
    vm_state: (s) => currentPhase(s, now).status,
  };
  const of = keys[key];
  if (!of) throw badRequest(`Invalid sort_key ${key}`);
  return list
    .map((s, index) => ({ s, k: of(s, index), index }))
    .sort((a, b) => (a.k < b.k ? -direction : a.k > b.k ? direction : b.index - a.index))
    .map((x) => x.s);
}

function updateServer(compute: Compute, request: FastifyRequest, id: string) {
  const server = findServer(compute, request, id);
  const changes = member(bodyObject(request), 'server');
  const next: ServerRecord = { ...server, editedAt: compute.ctx.now() };
  for (const [key, value] of Object.entries(changes)) {
    switch (key) {
      case 'name':
        if (typeof value !== 'string' || value.length < 1 || value.length > 255) {
          throw invalidInput('name', value, 'is not a valid name');
        }
        next.name = value;
        break;
      case 'metadata':
        next.metadata = validMetadata(value);
        break;
      case 'description':
        if (!atLeast(request, 19))
          throw invalidInput(
            'server',
            changes,
            `Additional properties are not allowed ('description' was unexpected)`,
          );
        next.description = value === null ? null : String(value);
        break;
      case 'accessIPv4':
      case 'accessIPv6':
        next[key] = String(value ?? '');
        break;
      case 'OS-DCF:diskConfig':
        break;
      default:
        throw invalidInput(
          'server',
          changes,
          `Additional properties are not allowed ('${key}' was unexpected)`,
        );
    }
  }
  compute.ctx.state.put('server', server.projectId, next);
  return { server: detailView(compute, request, next) };
}

export function registerServers(app: FastifyInstance, compute: Compute): void {
  type ById = { Params: { id: string } };
  app.post('/servers', async (request, reply) => {
    const { record, adminPass, reservationId } = createServer(compute, request);
    compute.agents?.serverCreated(record);
    if (reservationId !== undefined) return reply.code(202).send({ reservation_id: reservationId });
    const self = links(compute.ctx, request, 'servers', record.id);
    return reply
      .code(202)
      .header('Location', self[0]!.href)
      .send({
        server: {
          id: record.id,
          links: self,
          'OS-DCF:diskConfig': 'MANUAL',
          security_groups: record.securityGroups.map((name) => ({ name })),
          adminPass,
        },
      });
  });
  app.get('/servers', async (request) => listServers(compute, request, false));
  app.get('/servers/detail', async (request) => listServers(compute, request, true));
  app.get<ById>('/servers/:id', async (request) => ({
    server: detailView(compute, request, findServer(compute, request, request.params.id)),
  }));
  app.put<ById>('/servers/:id', async (request) => updateServer(compute, request, request.params.id));
  app.delete<ById>('/servers/:id', async (request, reply) => {
    deleteServer(compute, findServer(compute, request, request.params.id));
    return reply.code(204).send();
  });
}
