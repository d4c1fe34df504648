import { isNotFound } from '../../../openstack/index.js';
import type { JsonObject } from '../../../util/json.js';
import { type PluginContext, type PollResult, ResourceFailure } from '../../contract.js';
import { failure } from '../common.js';
import { again } from '../polling.js';
import { compute, getServer, POLL_MS } from './compute.js';
import type { Nic } from './server-request.js';
import { serverPorts } from './server-attributes.js';
import {
  type AttachStep,
  type DetachStep,
  type Iface,
  matchPorts,
  type Step,
  type Want,
} from './server-networks.js';

/**
 * Runs the interface steps of a `networks` update, one call of `runSteps` per poll: each step
 * is sent, then polled until Nova shows it done (Heat's check_interface_detach/attach), every
 * state of it kept in the progress. A step run again after a crash looks before it acts: a
 * detached port is not detached again, an attached one not attached twice.
 */

/** The steps left, and where the entries land (the resource's `nics` once all are done). */
export type StepsProgress = JsonObject & { steps: Step[]; nics: Nic[] };

/** How many polls an interface gets to come or go (Heat: max_interface_check_attempts, backed off). */
const MAX_POLLS = 30;

type NeutronPort = JsonObject & {
  id: string;
  device_id: string;
  mac_address: string;
  fixed_ips: { ip_address: string; subnet_id: string }[];
};

export async function liveIfaces(ctx: PluginContext, serverId: string): Promise<Iface[]> {
  return (await serverPorts(ctx, serverId)).map((p) => ({
    port: p.id,
    network: p.network_id,
    fixedIps: p.fixed_ips.map((ip) => ip.ip_address),
    subnets: p.fixed_ips.map((ip) => ip.subnet_id),
  }));
}

export async function showPort(ctx: PluginContext, id: string): Promise<NeutronPort | undefined> {
  try {
    return (await ctx.openstack().request<{ port: NeutronPort }>('network', 'GET', `/ports/${id}`)).body.port;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The fixed addresses Nova shows for the server, with the MAC of each. */
async function serverAddresses(ctx: PluginContext, serverId: string) {
  const server = await getServer(ctx, serverId);
  return Object.values(server.addresses ?? {})
    .flat()
    .filter((a) => (a as JsonObject)['OS-EXT-IPS:type'] === 'fixed') as unknown as {
    addr: string;
    'OS-EXT-IPS-MAC:mac_addr': string;
  }[];
}

async function setFloatingIp(ctx: PluginContext, id: string, body: JsonObject): Promise<void> {
  await ctx.openstack().request('network', 'PUT', `/floatingips/${id}`, { floatingip: body });
}

/** A floating IP on the port (on the entry's fixed IP, when it names one). */
function association(port: string, fixedIp: string | null): JsonObject {
  return fixedIp === null ? { port_id: port } : { port_id: port, fixed_ip_address: fixedIp };
}

/** Heat's _floating_ip_disassociate: a floating IP that is gone is no failure. */
async function disassociate(ctx: PluginContext, id: string): Promise<void> {
  try {
    await setFloatingIp(ctx, id, { port_id: null });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

function counted<T extends Step>(step: T, message: string): T {
  const polls = (step.polls ?? 0) + 1;
  if (polls > MAX_POLLS) throw new ResourceFailure(message);
  return { ...step, polls };
}

/** One poll of a detach: done when the port is no longer the server's (Heat's check). */
async function detachStep(
  ctx: PluginContext,
  serverId: string,
  step: DetachStep,
): Promise<DetachStep | null> {
  const cloud = ctx.openstack();
  if (!step.sent) {
    if (step.floatingIp !== null) await disassociate(ctx, step.floatingIp);
    const port = await showPort(ctx, step.port);
    if (!port || port.device_id !== serverId) return null;
    try {
      await cloud.request(
        'compute',
        'DELETE',
        `/servers/${serverId}/os-interface/${step.port}`,
        undefined,
        compute(),
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    return { ...step, sent: true };
  }
  const port = await showPort(ctx, step.port);
  if (!port) return null;
  const macs = (await serverAddresses(ctx, serverId)).map((a) => a['OS-EXT-IPS-MAC:mac_addr']);
  if (port.device_id !== serverId && !macs.includes(port.mac_address)) return null;
  return counted(step, `Failed to detach interface (${step.port}) from server (${serverId})`);
}

/** A port the server did not have before the attach was sent, on the attach's network. */
function madeSince(step: AttachStep, ifaces: Iface[]): string | undefined {
  const { network, fixedIp } = step.want;
  return ifaces.find(
    (i) =>
      !step.baseline!.includes(i.port) &&
      (network === null || i.network === network) &&
      (fixedIp === null || i.fixedIps.includes(fixedIp)),
  )?.port;
}

async function sendAttach(ctx: PluginContext, serverId: string, step: AttachStep): Promise<string> {
  const { port, network, fixedIp, tag } = step.want;
  const attachment: JsonObject =
    port !== null
      ? { port_id: port }
      : network === null
        ? {}
        : { net_id: network, ...(fixedIp === null ? {} : { fixed_ips: [{ ip_address: fixedIp }] }) };
  if (tag !== null) attachment.tag = tag;
  const r = await ctx.openstack().request<{
    interfaceAttachment: { port_id: string };
  }>('compute', 'POST', `/servers/${serverId}/os-interface`, { interfaceAttachment: attachment }, compute());
  return r.body.interfaceAttachment.port_id;
}

/**
 * One poll of an attach. A new port is attached in two polls: the server's ports are noted first
 * (and kept), then the attach is sent, so that a run again finds the port a lost answer made.
 */
async function attachStep(
  ctx: PluginContext,
  serverId: string,
  step: AttachStep,
): Promise<AttachStep | null> {
  const { want } = step;
  if (step.attached === undefined) {
    const ifaces = await liveIfaces(ctx, serverId);
    if (want.port !== null) {
      const attached = ifaces.some((i) => i.port === want.port)
        ? want.port
        : await sendAttach(ctx, serverId, step);
      return { ...step, attached };
    }
    if (step.baseline === undefined) return { ...step, baseline: ifaces.map((i) => i.port) };
    return { ...step, attached: madeSince(step, ifaces) ?? (await sendAttach(ctx, serverId, step)) };
  }
  const port = await showPort(ctx, step.attached);
  if (!port)
    throw new ResourceFailure(`Failed to attach interface (${step.attached}) to server (${serverId})`);
  const shown = (await serverAddresses(ctx, serverId)).map((a) => a.addr);
  const ips = port.fixed_ips.map((ip) => ip.ip_address);
  const reflected =
    port.device_id === serverId && (ips.length === 0 || ips.every((ip) => shown.includes(ip)));
  if (!reflected) {
    return counted(step, `Failed to attach interface (${step.attached}) to server (${serverId})`);
  }
  if (want.port === null && step.securityGroups.length > 0) {
    const body = { port: { security_groups: step.securityGroups } };
    await ctx.openstack().request('network', 'PUT', `/ports/${step.attached}`, body);
  }
  if (want.floatingIp !== null) {
    // Heat associates a new entry's floating IP with its port (and fixed IP, if given).
    await setFloatingIp(ctx, want.floatingIp, association(step.attached, want.fixedIp));
  }
  return null;
}

/** Runs the first step not done; done when none is left. */
export async function runSteps(ctx: PluginContext, progress: StepsProgress): Promise<PollResult> {
  const serverId = ctx.physicalId!;
  const [step, ...rest] = progress.steps;
  const finished: PollResult = { done: true, data: { nics: progress.nics } };
  if (!step) return finished;
  let next: Step | null;
  try {
    next =
      step.op === 'detach' ? await detachStep(ctx, serverId, step) : await attachStep(ctx, serverId, step);
  } catch (error) {
    throw failure(step.op === 'detach' ? 'detaching an interface' : 'attaching an interface', error);
  }
  const steps = next === null ? rest : [next, ...rest];
  if (steps.length === 0) return finished;
  // The next step starts at once; a step that waits is looked at again shortly.
  return again({ ...progress, steps }, next === null ? 0 : POLL_MS);
}

/**
 * Associates each entry's floating IP with the entry's port once the server is built (Heat does it
 * as it makes the ports; Nova makes them here). Sending the same association again changes nothing.
 */
export async function associateFloatingIps(
  ctx: PluginContext,
  serverId: string,
  wants: readonly Want[],
): Promise<void> {
  if (!wants.some((w) => w.floatingIp !== null)) return;
  const ports = matchPorts(wants, await liveIfaces(ctx, serverId));
  for (const [i, want] of wants.entries()) {
    if (want.floatingIp === null) continue;
    const port = ports[i];
    if (!port) throw new ResourceFailure(`The server has no port for the floating IP ${want.floatingIp}`);
    await setFloatingIp(ctx, want.floatingIp, association(port.port, want.fixedIp));
  }
}
