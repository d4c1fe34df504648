import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, SandboxContext } from '../app.js';
import { ApiError, conflict, notFound } from '../errors.js';
import type { SandboxObject, SandboxState } from '../state.js';
import { atLeast } from './microversion.js';
import { bodyObject, invalidInput, isAdmin, links, member, nextLinks, page, requireAdmin } from './common.js';

/** Nova flavors: four seeded public ones, more made (and removed) by admins, with extra specs. */

export interface Flavor extends SandboxObject {
  name: string;
  vcpus: number;
  ram: number;
  disk: number;
  ephemeral: number;
  swap: number;
  rxtx_factor: number;
  is_public: boolean;
  description: string | null;
  extra_specs: Record<string, string>;
  /** The projects a private flavor is shared with (os-flavor-access). */
  projects: string[];
}

const SEEDED: [id: string, name: string, vcpus: number, ram: number, disk: number][] = [
  ['1', 'm1.tiny', 1, 512, 1],
  ['2', 'm1.small', 1, 2048, 20],
  ['3', 'm1.medium', 2, 4096, 40],
  ['4', 'm1.large', 4, 8192, 80],
];

function flavorRecord(
  fields: Partial<Flavor> & Pick<Flavor, 'id' | 'name' | 'vcpus' | 'ram' | 'disk'>,
): Flavor {
  return {
    ephemeral: 0,
    swap: 0,
    rxtx_factor: 1,
    is_public: true,
    description: null,
    extra_specs: {},
    projects: [],
    ...fields,
  };
}

export function seedFlavors(state: SandboxState): void {
  state.transaction(() => {
    if (state.count('flavor') > 0) return;
    for (const [id, name, vcpus, ram, disk] of SEEDED) {
      state.put('flavor', null, flavorRecord({ id, name, vcpus, ram, disk }));
    }
  });
}

/** Whether the caller sees the flavor: public ones, and private ones its project was given. */
function visibleTo(flavor: Flavor, caller: Caller): boolean {
  return flavor.is_public || isAdmin(caller) || (flavor.projects ?? []).includes(caller.projectId);
}

/** Flavors sorted as Nova lists them (by flavor id); private ones only for admins and their projects. */
function visibleFlavors(state: SandboxState, caller: Caller): Flavor[] {
  return state
    .list<Flavor>('flavor')
    .filter((f) => visibleTo(f, caller))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A flavor by id, or by a link to it (`flavorRef` may be either). */
export function findFlavor(state: SandboxState, ref: string): Flavor | undefined {
  const id = ref.includes('/') ? ref.replace(/\/+$/, '').split('/').at(-1)! : ref;
  return state.get<Flavor>('flavor', id);
}

export function flavorView(ctx: SandboxContext, request: FastifyRequest, flavor: Flavor, detail: boolean) {
  const view: Record<string, unknown> = {
    id: flavor.id,
    name: flavor.name,
    links: links(ctx, request, 'flavors', flavor.id),
  };
  if (atLeast(request, 55)) view.description = flavor.description;
  if (!detail) return view;
  Object.assign(view, {
    ram: flavor.ram,
    disk: flavor.disk,
    vcpus: flavor.vcpus,
    'OS-FLV-EXT-DATA:ephemeral': flavor.ephemeral,
    // Before 2.75 a flavor without swap showed "" rather than 0.
    swap: flavor.swap === 0 && !atLeast(request, 75) ? '' : flavor.swap,
    rxtx_factor: flavor.rxtx_factor,
    'os-flavor-access:is_public': flavor.is_public,
    'OS-FLV-DISABLED:disabled': false,
  });
  if (atLeast(request, 61)) view.extra_specs = flavor.extra_specs;
  return view;
}

function listFlavors(ctx: SandboxContext, request: FastifyRequest, detail: boolean) {
  const query = request.query as Record<string, string | undefined>;
  let flavors = visibleFlavors(ctx.state, request.caller);
  if (query.minRam !== undefined) flavors = flavors.filter((f) => f.ram >= Number(query.minRam));
  if (query.minDisk !== undefined) flavors = flavors.filter((f) => f.disk >= Number(query.minDisk));
  if (query.is_public !== undefined && isAdmin(request.caller) && query.is_public.toLowerCase() !== 'none') {
    const wanted = ['true', '1', 't', 'yes'].includes(query.is_public.toLowerCase());
    flavors = flavors.filter((f) => f.is_public === wanted);
  }
  const { items, limit } = page(flavors, query);
  const next = nextLinks(ctx, request, detail ? 'flavors/detail' : 'flavors', items, limit);
  return {
    flavors: items.map((f) => flavorView(ctx, request, f, detail)),
    ...(next ? { flavors_links: next } : {}),
  };
}

function nonNegativeInt(flavor: Record<string, unknown>, key: string, minimum: number, required: boolean) {
  const value = flavor[key];
  if (value === undefined && !required) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < minimum) {
    throw invalidInput(
      key,
      value,
      value === undefined ? `'${key}' is a required property` : `is not a valid integer >= ${minimum}`,
    );
  }
  return number;
}

function createFlavor(ctx: SandboxContext, request: FastifyRequest) {
  requireAdmin(request.caller, 'os_compute_api:os-flavor-manage:create');
  const body = member(bodyObject(request), 'flavor');
  const name = body.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 255) {
    throw invalidInput(
      'name',
      name,
      name === undefined ? "'name' is a required property" : 'is not a valid name',
    );
  }
  const id = body.id === undefined || body.id === null ? randomUUID() : String(body.id);
  const isPublic = body['os-flavor-access:is_public'];
  const flavor = flavorRecord({
    id,
    name,
    vcpus: nonNegativeInt(body, 'vcpus', 1, true)!,
    ram: nonNegativeInt(body, 'ram', 1, true)!,
    disk: nonNegativeInt(body, 'disk', 0, true)!,
    ephemeral: nonNegativeInt(body, 'OS-FLV-EXT-DATA:ephemeral', 0, false) ?? 0,
    swap: nonNegativeInt(body, 'swap', 0, false) ?? 0,
    rxtx_factor: typeof body.rxtx_factor === 'number' ? body.rxtx_factor : 1,
    is_public: typeof isPublic === 'boolean' ? isPublic : true,
    description: typeof body.description === 'string' ? body.description : null,
  });
  ctx.state.transaction(() => {
    const all = ctx.state.list<Flavor>('flavor');
    if (all.some((f) => f.name === name)) throw conflict(`Flavor with name ${name} already exists.`);
    if (all.some((f) => f.id === id)) throw conflict(`Flavor with ID ${id} already exists.`);
    ctx.state.put('flavor', null, flavor);
  });
  return { flavor: flavorView(ctx, request, flavor, true) };
}

export function getFlavor(ctx: SandboxContext, request: FastifyRequest, id: string): Flavor {
  const flavor = ctx.state.get<Flavor>('flavor', id);
  if (!flavor || !visibleTo(flavor, request.caller)) throw notFound('Flavor', id);
  return flavor;
}

function stringSpecs(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput('extra_specs', value, "is not of type 'object'");
  }
  const specs: Record<string, string> = {};
  for (const [key, spec] of Object.entries(value)) {
    if (key.length < 1 || key.length > 255) throw invalidInput('extra_specs', key, 'is not a valid key');
    if (typeof spec !== 'string' && typeof spec !== 'number' && typeof spec !== 'boolean') {
      throw invalidInput(key, spec, "is not of type 'string', 'integer', 'number', 'boolean'");
    }
    specs[key] = String(spec);
  }
  return specs;
}

export function registerFlavors(app: FastifyInstance, ctx: SandboxContext): void {
  seedFlavors(ctx.state);
  type ById = { Params: { id: string } };
  type ByKey = { Params: { id: string; key: string } };
  app.get('/flavors', async (request) => listFlavors(ctx, request, false));
  app.get('/flavors/detail', async (request) => listFlavors(ctx, request, true));
  app.get<ById>('/flavors/:id', async (request) => ({
    flavor: flavorView(ctx, request, getFlavor(ctx, request, request.params.id), true),
  }));
  app.post('/flavors', async (request) => createFlavor(ctx, request));
  app.delete<ById>('/flavors/:id', async (request, reply) => {
    requireAdmin(request.caller, 'os_compute_api:os-flavor-manage:delete');
    getFlavor(ctx, request, request.params.id);
    ctx.state.delete('flavor', request.params.id);
    return reply.code(202).send();
  });

  app.get<ById>('/flavors/:id/os-extra_specs', async (request) => ({
    extra_specs: getFlavor(ctx, request, request.params.id).extra_specs,
  }));
  app.post<ById>('/flavors/:id/os-extra_specs', async (request) => {
    requireAdmin(request.caller, 'os_compute_api:os-flavor-extra-specs:create');
    const flavor = getFlavor(ctx, request, request.params.id);
    const specs = stringSpecs(bodyObject(request).extra_specs);
    ctx.state.put('flavor', null, { ...flavor, extra_specs: { ...flavor.extra_specs, ...specs } });
    return { extra_specs: specs };
  });
  app.get<ByKey>('/flavors/:id/os-extra_specs/:key', async (request) => {
    const { extra_specs: specs } = getFlavor(ctx, request, request.params.id);
    const { key } = request.params;
    if (!Object.hasOwn(specs, key)) {
      throw new ApiError(404, `Flavor ${request.params.id} has no extra specs with key ${key}.`);
    }
    return { [key]: specs[key] };
  });
  app.put<ByKey>('/flavors/:id/os-extra_specs/:key', async (request) => {
    requireAdmin(request.caller, 'os_compute_api:os-flavor-extra-specs:update');
    const flavor = getFlavor(ctx, request, request.params.id);
    const specs = stringSpecs(bodyObject(request));
    const { key } = request.params;
    if (Object.keys(specs).length !== 1 || !Object.hasOwn(specs, key)) {
      throw new ApiError(400, 'Request body and URI mismatch');
    }
    ctx.state.put('flavor', null, { ...flavor, extra_specs: { ...flavor.extra_specs, ...specs } });
    return specs;
  });
  app.delete<ByKey>('/flavors/:id/os-extra_specs/:key', async (request, reply) => {
    requireAdmin(request.caller, 'os_compute_api:os-flavor-extra-specs:delete');
    const flavor = getFlavor(ctx, request, request.params.id);
    const { key } = request.params;
    if (!Object.hasOwn(flavor.extra_specs, key)) {
      throw new ApiError(404, `Flavor ${flavor.id} has no extra specs with key ${key}.`);
    }
    const { [key]: _removed, ...rest } = flavor.extra_specs;
    ctx.state.put('flavor', null, { ...flavor, extra_specs: rest });
    return reply.code(200).send();
  });
}
