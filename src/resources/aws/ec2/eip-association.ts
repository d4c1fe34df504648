import { isNotFound } from '../../../openstack/index.js';
import { type DocPath, TemplateError } from '../../../template/errors.js';
import { UNKNOWN, type Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type PluginContext, type PollResult, ResourceFailure } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { associateFloatingIp, failure, realityOf } from '../../openstack/common.js';
import { asAction } from '../../openstack/polling.js';
import { vpcRouter } from './common.js';
import {
  associateWithServer,
  deviceOf,
  dissociate,
  floatingIpByAddress,
  showFloatingIp,
} from './floating.js';

/**
 * AWS::EC2::EIPAssociation: a floating IP, named by its address (EIP) or its id (AllocationId),
 * associated with an instance or a network interface. With AllocationId, the VPC router of the
 * port's network gets a gateway on the floating IP's network first, as in Heat. The physical id
 * is the EIP or the AllocationId; the reference is the physical name, as in Heat.
 */

type Props = Readonly<Record<string, Value>>;
type Progress = { fip: string; port?: string; server?: string; attempt: number };

const text = (v: Value | undefined) => (v === null || v === undefined || v === '' ? null : String(v));

type Port = { id: string; network_id: string };

/** The port to associate with: the interface, else the instance's first port (Heat's _get_port_info). */
async function portOf(ctx: PluginContext, p: Props): Promise<Port | undefined> {
  const query = text(p.NetworkInterfaceId)
    ? { id: text(p.NetworkInterfaceId)! }
    : { device_id: text(p.InstanceId)! };
  const r = await ctx
    .openstack()
    .request<{ ports: Port[] }>('network', 'GET', '/ports', undefined, { query });
  return r.body.ports[0];
}

async function run(ctx: PluginContext, progress: Progress): Promise<PollResult> {
  const r = progress.server
    ? await associateWithServer(ctx, progress.fip, progress.server, progress.attempt)
    : await associateFloatingIp(ctx, progress.fip, progress.port!, null, progress.attempt);
  if (r.done) return r;
  return { ...r, progress: { ...progress, ...(r.progress as { attempt: number }) } };
}

/** Starts associating as `p` says; the physical id it will have (undefined: nothing to associate). */
async function attach(ctx: PluginContext, p: Props): Promise<{ id?: string; result: PollResult }> {
  const eip = text(p.EIP);
  if (eip) {
    const fip = await floatingIpByAddress(ctx, eip);
    return { id: eip, result: await run(ctx, { fip: fip.id, server: text(p.InstanceId)!, attempt: 1 }) };
  }
  const allocation = text(p.AllocationId)!;
  const port = await portOf(ctx, p);
  // Heat skips the association when it finds no port.
  if (!port) return { result: { done: true } };
  const router = await vpcRouter(ctx, port.network_id).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (router) {
    const floating = (await showFloatingIp(ctx, allocation)).floating_network_id;
    if (router.external_gateway_info?.network_id !== floating) {
      await ctx.openstack().request('network', 'PUT', `/routers/${router.id}`, {
        router: { external_gateway_info: { network_id: floating } },
      });
    }
  }
  return { id: allocation, result: await run(ctx, { fip: allocation, port: port.id, attempt: 1 }) };
}

/** Takes the floating IP `p` names off its port; one gone already is done. */
async function detach(ctx: PluginContext, p: Props): Promise<void> {
  const eip = text(p.EIP);
  if (eip) {
    const fip = await floatingIpByAddress(ctx, eip).catch((error: unknown) => {
      if (error instanceof ResourceFailure && error.heatClass === 'EntityMatchNotFound') return undefined;
      throw error;
    });
    if (fip) await dissociate(ctx, fip.id);
  } else if (text(p.AllocationId)) await dissociate(ctx, text(p.AllocationId)!);
}

const poll = (action: string) => async (ctx: PluginContext, progress: unknown) => {
  try {
    return await run(ctx, progress as Progress);
  } catch (error) {
    throw failure(action, error);
  }
};

const eipChanged = (changed: readonly string[]) =>
  changed.includes('EIP') || changed.includes('AllocationId');

export const ec2EipAssociationPlugin: CatalogPlugin = {
  type: 'AWS::EC2::EIPAssociation',
  description: 'Associates an elastic IP with an instance or a network interface.',
  properties: {
    InstanceId: P.string({
      description: 'Instance ID to associate with EIP specified by EIP property.',
      updateAllowed: true,
      constraints: [C.custom('nova.server')],
    }),
    EIP: P.string({
      description: 'EIP address to associate with instance.',
      updateAllowed: true,
      constraints: [C.custom('ip_addr')],
    }),
    AllocationId: P.string({ description: 'Allocation ID for VPC EIP address.', updateAllowed: true }),
    NetworkInterfaceId: P.string({
      description: 'Network interface ID to associate with EIP.',
      updateAllowed: true,
    }),
  },
  attributes: {},

  validate(properties: Record<string, Value>, path: DocPath) {
    const names = ['EIP', 'AllocationId', 'InstanceId', 'NetworkInterfaceId'];
    if (names.some((n) => properties[n] === UNKNOWN)) return;
    const [eip, allocation, instance, iface] = names.map((n) => Boolean(properties[n]));
    const fail = (message: string) => {
      throw new TemplateError('property', message, path);
    };
    if (eip === allocation) fail("Either 'EIP' or 'AllocationId' must be provided.");
    if (eip && !instance) fail("Must specify 'InstanceId' if you specify 'EIP'.");
    if (!instance && !iface)
      fail('At least one of the following properties must be specified: InstanceId, NetworkInterfaceId.');
  },

  async create(ctx, properties) {
    try {
      const { id, result } = await attach(ctx, properties);
      return { ...asAction(result), ...(id === undefined ? {} : { physicalId: id }) };
    } catch (error) {
      throw failure('associating the EIP', error);
    }
  },
  checkCreateComplete: poll('associating the EIP'),

  // Another address for another target is a new association (Heat's needs_replace_with_prop_diff).
  needsReplace(properties, _previous, changed) {
    if (!eipChanged(changed)) return false;
    return (
      (changed.includes('InstanceId') && Boolean(properties.InstanceId)) ||
      (changed.includes('NetworkInterfaceId') && Boolean(properties.NetworkInterfaceId))
    );
  },

  async update(ctx, properties, previous, changed) {
    try {
      // Another address: the old one is taken off first. Another target only: moved as it is.
      if (eipChanged(changed)) await detach(ctx, previous);
      const { id, result } = await attach(ctx, properties);
      return { ...asAction(result), ...(id === undefined ? {} : { physicalId: id }) };
    } catch (error) {
      throw failure('updating the EIP association', error);
    }
  },
  checkUpdateComplete: poll('updating the EIP association'),

  async delete(ctx) {
    if (!ctx.physicalId || !ctx.storedProperties) return {};
    try {
      await detach(ctx, ctx.storedProperties);
      return {};
    } catch (error) {
      throw failure('dissociating the EIP', error);
    }
  },

  async getReality(ctx) {
    return realityOf(async () => {
      const stored = ctx.storedProperties ?? {};
      if (!ctx.physicalId) return undefined;
      const fip = text(stored.EIP)
        ? await floatingIpByAddress(ctx, text(stored.EIP)!).catch(() => undefined)
        : await showFloatingIp(ctx, text(stored.AllocationId)!);
      if (!fip?.port_id) return undefined;
      const device = await deviceOf(ctx, fip.port_id);
      const wanted = text(stored.NetworkInterfaceId);
      if (wanted) return { ...stored, NetworkInterfaceId: fip.port_id === wanted ? wanted : fip.port_id };
      return {
        ...stored,
        InstanceId: device === text(stored.InstanceId) ? (stored.InstanceId ?? null) : device,
      };
    });
  },

  async attribute() {
    return null;
  },

  referenceId: (ctx) => physicalResourceName(ctx),
};
