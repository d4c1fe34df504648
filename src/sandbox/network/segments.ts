import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';
import {
  baseFields,
  type Body,
  collection,
  type Env,
  invalid,
  isAdmin,
  member,
  missing,
  optString,
  policyRefused,
  save,
  single,
  wire,
} from './common.js';
import { KIND, type Network, type Segment, type Subnet, subnetsOf } from './model.js';

/**
 * Network segments (`segment` extension, routed networks) at `/v2.0/segments`: every network has
 * the implicit segment it was made with (a geneve one, as an ML2/OVN cloud's tenant network), and
 * an admin may add more (a routed network) and tie subnets to them. All admin only, as Neutron's
 * default policy. A network whose subnets are on segments is not L2 adjacent.
 */

const TYPES = ['flat', 'vlan', 'vxlan', 'geneve', 'gre', 'local'];
/** The types whose segments carry an id of their own (a VLAN tag, a VNI). */
const TAGGED: Record<string, number> = { vlan: 4094, vxlan: 16777215, geneve: 16777215, gre: 4294967295 };

export function renderSegment(segment: Segment): Body {
  const { project_id: _p, tenant_id: _t, tags: _tags, ...shown } = wire(segment);
  return shown;
}

export const segmentsOf = (state: Env['state'], networkId: string): Segment[] =>
  state.list<Segment>(KIND.segment, { equal: { network_id: [networkId] } });

/** Neutron's l2_adjacency: false once the network's subnets are on segments (a routed network). */
export const l2Adjacent = (subnets: readonly Subnet[]) =>
  subnets.length === 0 || (subnets[0]!.segment_id ?? null) === null;

/** The first free segmentation id of a type (the sandbox's "type driver"). */
function freeSegmentationId(ctx: Env, type: string, physicalNetwork: string | null): number {
  const taken = new Set(
    ctx.state
      .list<Segment>(KIND.segment)
      .filter((s) => s.network_type === type && s.physical_network === physicalNetwork)
      .map((s) => s.segmentation_id),
  );
  let id = 1;
  while (taken.has(id)) id++;
  return id;
}

function newSegment(ctx: Env, networkId: string, fields: Partial<Segment>): Segment {
  const { id, created_at, updated_at, revision_number, description } = baseFields(ctx, '');
  return {
    id,
    project_id: '',
    network_id: networkId,
    name: null,
    description,
    network_type: 'geneve',
    physical_network: null,
    segmentation_id: null,
    created_at,
    updated_at,
    revision_number,
    ...fields,
  };
}

/** The segment a new network is made with. */
export function addImplicitSegment(ctx: Env, network: Network): Segment {
  const segment = newSegment(ctx, network.id, {
    segmentation_id: freeSegmentationId(ctx, 'geneve', null),
  });
  return save(ctx, KIND.segment, segment, false);
}

/** Deletes a network's segments (with the network). */
export function deleteSegmentsOf(ctx: Env, networkId: string): void {
  for (const segment of segmentsOf(ctx.state, networkId)) ctx.state.delete(KIND.segment, segment.id);
}

const notAllOnSegments = (networkId: string) =>
  new ApiError(
    400,
    `All of the subnets on network '${networkId}' must either all be associated with segments or all not associated with any segment.`,
    'SubnetsNotAllAssociatedWithSegments',
  );

/** Checks a new subnet's `segment_id` as Neutron does; the id to store (null: none). */
export function subnetSegment(ctx: Env, networkId: string, requested: unknown): string | null {
  const segmentId = requested === undefined || requested === null ? null : String(requested);
  const kept = new Set(subnetsOf(ctx.state, networkId).map((s) => s.segment_id ?? null));
  kept.add(segmentId);
  if (kept.has(null) && kept.size > 1) throw notAllOnSegments(networkId);
  return segmentId === null ? null : segmentOfNetwork(ctx, networkId, segmentId).id;
}

function segmentOfNetwork(ctx: Env, networkId: string, segmentId: string): Segment {
  const segment = ctx.state.get<Segment>(KIND.segment, segmentId);
  if (!segment) throw missing('Segment', segmentId);
  if (segment.network_id !== networkId) {
    throw new ApiError(
      400,
      `The subnet's network id, '${networkId}', doesn't match the network_id of segment '${segmentId}'`,
      'NetworkIdsDontMatch',
    );
  }
  return segment;
}

/**
 * An update of a subnet's `segment_id` (`subnet-segmentid-writable`): only from none to one, and
 * as Neutron only to migrate a network of one subnet and one segment to a routed one.
 */
export function updatedSubnetSegment(ctx: Env, subnet: Subnet, requested: unknown): string | null {
  const current = subnet.segment_id ?? null;
  const wanted = requested === null ? null : String(requested);
  if (wanted === current) return current;
  if (current !== null) {
    throw new ApiError(
      400,
      'A subnet that is already associated with a segment cannot have its segment association changed.',
      'SubnetSegmentAssociationChangeNotAllowed',
    );
  }
  if (wanted === null) return null;
  if (subnetsOf(ctx.state, subnet.network_id).length > 1) throw notAllOnSegments(subnet.network_id);
  if (segmentsOf(ctx.state, subnet.network_id).length > 1) {
    throw new ApiError(
      400,
      `Subnets on network ${subnet.network_id} cannot be associated with a segment while the network has more than one segment.`,
      'NoUpdateSubnetWhenMultipleSegmentsOnNetwork',
    );
  }
  return segmentOfNetwork(ctx, subnet.network_id, wanted).id;
}

function segmentFields(ctx: Env, body: Body, network: Network): Segment {
  const type = optString(body, 'network_type');
  if (type === undefined || !TYPES.includes(type)) {
    throw invalid(`network_type must be one of ${TYPES.join(', ')}`);
  }
  const physical = optString(body, 'physical_network') ?? null;
  if ((type === 'flat' || type === 'vlan') && physical === null) {
    throw invalid(`physical_network required for ${type} provider network`);
  }
  const max = TAGGED[type];
  let segmentationId: number | null = null;
  if (body.segmentation_id !== undefined && body.segmentation_id !== null) {
    const given = Number(body.segmentation_id);
    if (max === undefined || !Number.isInteger(given) || given < 1 || given > max) {
      throw invalid(`segmentation_id ${String(body.segmentation_id)} is not valid for ${type}`);
    }
    const taken = ctx.state
      .list<Segment>(KIND.segment)
      .some((s) => s.network_type === type && s.physical_network === physical && s.segmentation_id === given);
    if (taken) {
      throw new ApiError(
        409,
        `Unable to create the network. The ${type === 'vlan' ? 'VLAN' : 'tunnel'} ${given} on physical network ${physical ?? ''} is in use.`,
        type === 'vlan' ? 'VlanIdInUse' : 'TunnelIdInUse',
      );
    }
    segmentationId = given;
  } else if (max !== undefined) {
    segmentationId = freeSegmentationId(ctx, type, physical);
  }
  return newSegment(ctx, network.id, {
    name: optString(body, 'name') ?? null,
    description: optString(body, 'description') ?? '',
    network_type: type,
    physical_network: physical,
    segmentation_id: segmentationId,
  });
}

export function registerSegments(app: FastifyInstance, ctx: SandboxContext): void {
  const adminOnly = (request: FastifyRequest, rule: string) => {
    if (!isAdmin(request)) throw policyRefused(rule);
  };
  const find = (id: string): Segment => {
    const segment = ctx.state.get<Segment>(KIND.segment, id);
    if (!segment) throw missing('Segment', id);
    return segment;
  };

  app.get('/v2.0/segments', async (request) => {
    adminOnly(request, 'get_segment');
    return collection(request, ctx, 'segments', ctx.state.list<Segment>(KIND.segment).map(renderSegment));
  });

  app.get<{ Params: { id: string } }>('/v2.0/segments/:id', async (request) => {
    adminOnly(request, 'get_segment');
    return single(request, 'segment', renderSegment(find(request.params.id)));
  });

  app.post('/v2.0/segments', async (request, reply) => {
    adminOnly(request, 'create_segment');
    const body = member(request, 'segment');
    const networkId = optString(body, 'network_id');
    if (networkId === undefined) throw invalid('network_id is required');
    const segment = ctx.state.transaction(() => {
      const network = ctx.state.get<Network>(KIND.network, networkId);
      if (!network) throw missing('Network', networkId);
      return save(ctx, KIND.segment, segmentFields(ctx, body, network), false);
    });
    return reply.code(201).send({ segment: renderSegment(segment) });
  });

  app.put<{ Params: { id: string } }>('/v2.0/segments/:id', async (request) => {
    adminOnly(request, 'update_segment');
    const body = member(request, 'segment');
    for (const fixed of ['network_id', 'network_type', 'physical_network', 'segmentation_id']) {
      if (body[fixed] !== undefined) throw invalid(`Cannot update read-only attribute ${fixed}`);
    }
    const segment = find(request.params.id);
    const next: Segment = { ...segment };
    if (body.name !== undefined) next.name = body.name === null ? null : String(body.name);
    const description = optString(body, 'description');
    if (description !== undefined) next.description = description;
    return { segment: renderSegment(save(ctx, KIND.segment, next)) };
  });

  app.delete<{ Params: { id: string } }>('/v2.0/segments/:id', async (request, reply) => {
    adminOnly(request, 'delete_segment');
    ctx.state.transaction(() => {
      const segment = find(request.params.id);
      const used = ctx.state.list<Subnet>(KIND.subnet).some((s) => s.segment_id === segment.id);
      if (used) {
        throw new ApiError(
          409,
          `Segment '${segment.id}' cannot be deleted: The segment is still associated with subnet(s).`,
          'SegmentInUse',
        );
      }
      ctx.state.delete(KIND.segment, segment.id);
    });
    return reply.code(204).send();
  });
}
