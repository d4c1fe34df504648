import { isIP } from 'node:net';
import { isNotFound } from '../../../openstack/index.js';
import type { JsonObject } from '../../../util/json.js';
import { type PluginContext, type PollResult, ResourceFailure } from '../../contract.js';
import { associateFloatingIp, FLOATING_IPS } from '../../openstack/common.js';
import { compute } from '../../openstack/nova/compute.js';

/**
 * What EIP and EIPAssociation share: Heat's Nova client's floating IP calls (the server's first
 * interface gets it), on Neutron's floating IPs.
 */

export type FloatingIp = JsonObject & {
  id: string;
  floating_ip_address: string;
  floating_network_id: string;
  port_id: string | null;
};

type Iface = { port_id: string; fixed_ips: { ip_address: string }[] };

export async function showFloatingIp(ctx: PluginContext, id: string): Promise<FloatingIp> {
  const r = await ctx
    .openstack()
    .request<{ floatingip: FloatingIp }>('network', 'GET', `${FLOATING_IPS.path}/${id}`);
  return r.body.floatingip;
}

/** The project's floating IP with this address (Heat's EntityMatchNotFound when none). */
export async function floatingIpByAddress(ctx: PluginContext, address: string): Promise<FloatingIp> {
  const r = await ctx
    .openstack()
    .request<{ floatingips: FloatingIp[] }>('network', 'GET', FLOATING_IPS.path, undefined, {
      query: { floating_ip_address: address },
    });
  const found = r.body.floatingips[0];
  if (!found)
    throw new ResourceFailure(`No floatingip matching {'floating_ip_address': '${address}'}.`, {
      heatClass: 'EntityMatchNotFound',
    });
  return found;
}

/**
 * Associates the floating IP with the server's first interface and its IPv4 address (Heat's
 * associate_floatingip); polled while Neutron cannot reach the port's subnet yet.
 */
export async function associateWithServer(
  ctx: PluginContext,
  floatingIpId: string,
  serverId: string,
  attempt = 1,
): Promise<PollResult> {
  const r = await ctx
    .openstack()
    .request<{ interfaceAttachments: Iface[] }>(
      'compute',
      'GET',
      `/servers/${serverId}/os-interface`,
      undefined,
      compute(),
    );
  const iface = r.body.interfaceAttachments[0];
  if (!iface) throw new ResourceFailure(`No interfaces found for server ${serverId}`);
  const fixed = iface.fixed_ips.find((ip) => isIP(ip.ip_address) === 4)?.ip_address ?? null;
  return associateFloatingIp(ctx, floatingIpId, iface.port_id, fixed, attempt);
}

/** Takes the floating IP off its port; a floating IP gone already is done. */
export async function dissociate(ctx: PluginContext, floatingIpId: string): Promise<void> {
  try {
    await ctx
      .openstack()
      .request('network', 'PUT', `${FLOATING_IPS.path}/${floatingIpId}`, { floatingip: { port_id: null } });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** The server a port belongs to, or null. */
export async function deviceOf(ctx: PluginContext, portId: string | null): Promise<string | null> {
  if (!portId) return null;
  const r = await ctx
    .openstack()
    .request<{ port: { device_id: string } }>('network', 'GET', `/ports/${portId}`);
  return r.body.port.device_id || null;
}
