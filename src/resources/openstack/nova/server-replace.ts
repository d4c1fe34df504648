import { OpenStackError } from '../../../openstack/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import { type PluginContext, type PollResult, ResourceFailure } from '../../contract.js';
import { failure } from '../common.js';
import { again } from '../polling.js';
import { compute, liveServer, POLL_MS, statusOf } from './compute.js';
import { liveIfaces, runSteps, showPort, type StepsProgress } from './server-interface-steps.js';
import type { AttachStep, DetachStep } from './server-networks.js';
import type { Nic } from './server-request.js';

/**
 * A server is replaced by creating the new one before the old one is deleted, so a port the
 * template names (a `networks` entry's `port`) would still be bound to the old server when the new
 * one asks for it. As Heat's prepare_for_replace, the old server detaches those ports first; as
 * restore_prev_rsrc, a rollback that keeps the old server attaches them again. Ports Nova made for
 * `network`/`subnet`/`fixed_ip` entries are not moved: the replacement gets its own (see
 * docs/openstack.md). Both run as interface steps (server-interface-steps.ts): persisted polling,
 * each step looking before it acts.
 */

/** The data key of the ports detached for the replacement, which a restore attaches again. */
const DETACHED = 'detachedForReplace';

/** How many polls a restore waits for the replacement to let go of a port. */
const MAX_FREE_POLLS = 60;

type RestoreProgress = JsonObject & { freeing: string[]; polls: number };

const nicsOf = (ctx: PluginContext): Nic[] => (ctx.data.nics as Nic[] | undefined) ?? [];

/** Detaches the server's user ports, noting them for a restore (written with the first poll). */
export async function prepareServerForReplace(
  ctx: PluginContext,
  progress: Json | null,
): Promise<PollResult> {
  if (progress !== null) return steps(ctx, progress as StepsProgress, 'detaching a port for the replacement');
  const nics = nicsOf(ctx);
  const wanted = new Set(nics.flatMap((n) => (n.port === null ? [] : [n.port])));
  if (wanted.size === 0) return { done: true };
  let onServer: string[];
  try {
    // As Heat: a server in ERROR cannot detach (Nova refuses), one gone has nothing to detach.
    const server = await liveServer(ctx, ctx.physicalId!);
    if (!server || statusOf(server) === 'ERROR') return { done: true };
    onServer = (await liveIfaces(ctx, ctx.physicalId!)).map((i) => i.port).filter((p) => wanted.has(p));
  } catch (error) {
    throw failure('listing the server ports', error);
  }
  // All the entries' ports are noted, not only those still on the server: a run again after a
  // crash may find some detached already, and a restore gives the server every one of them.
  const detached = [...wanted];
  const detaches: DetachStep[] = onServer.map((port) => ({ op: 'detach', port, floatingIp: null }));
  const result = await steps(ctx, { steps: detaches, nics }, 'detaching a port for the replacement');
  return { ...result, data: { ...result.data, [DETACHED]: detached } };
}

/** Attaches the detached ports again, once the replacement (being deleted) has let go of them. */
export async function restoreServerPorts(ctx: PluginContext, progress: Json | null): Promise<PollResult> {
  const serverId = ctx.physicalId!;
  const ports = (ctx.data[DETACHED] as string[] | undefined) ?? [];
  if (progress === null && ports.length > 0) {
    // A server gone meanwhile has nothing to attach to: its node replaces it next.
    const server = await liveServer(ctx, serverId).catch((error: unknown) => {
      throw failure('reading the server', error);
    });
    if (!server) return finished({ done: true });
  }
  const saved = (progress ?? { freeing: ports, polls: 0 }) as JsonObject;
  // Past the wait, the progress is the attach steps'.
  if (!('freeing' in saved))
    return finished(await steps(ctx, saved as StepsProgress, 'attaching a port again'));
  const state = saved as RestoreProgress;
  const busy: string[] = [];
  for (const id of state.freeing) {
    const port = await showPort(ctx, id).catch((error: unknown) => {
      throw failure('reading a port to attach again', error);
    });
    if (!port || port.device_id === '' || port.device_id === serverId) continue;
    busy.push(id);
    // As Heat, the port is taken off the replacement rather than waited for: the replacement's
    // delete may itself wait for resources that wait for this one.
    await letGo(ctx, port.device_id, id);
  }
  if (busy.length > 0) {
    if (state.polls >= MAX_FREE_POLLS) {
      throw new ResourceFailure(
        `Port ${busy[0]} is still in use by another server; it was not attached again`,
      );
    }
    return again({ freeing: busy, polls: state.polls + 1 }, POLL_MS);
  }
  const gone = new Set<string>();
  for (const id of ports) if (!(await showPort(ctx, id))) gone.add(id);
  const attaches: AttachStep[] = ports
    .filter((p) => !gone.has(p))
    .map((port) => ({
      op: 'attach',
      want: { port, network: null, subnet: null, fixedIp: null, floatingIp: null, tag: null },
      securityGroups: [],
    }));
  return finished(await steps(ctx, { steps: attaches, nics: nicsOf(ctx) }, 'attaching a port again'));
}

/**
 * Asks Nova to detach `port` from the server that has it; a server still building refuses (409),
 * one being deleted may be gone (404): the next poll looks again.
 */
async function letGo(ctx: PluginContext, holder: string, port: string): Promise<void> {
  try {
    await ctx
      .openstack()
      .request('compute', 'DELETE', `/servers/${holder}/os-interface/${port}`, undefined, compute());
  } catch (error) {
    if (error instanceof OpenStackError && (error.status === 404 || error.status === 409)) return;
    throw failure('detaching a port from the replacement', error);
  }
}

/** The restore is done: nothing is left to attach another time. */
function finished(result: PollResult): PollResult {
  return result.done ? { ...result, data: { ...result.data, [DETACHED]: [] } } : result;
}

async function steps(ctx: PluginContext, progress: StepsProgress, action: string): Promise<PollResult> {
  try {
    return await runSteps(ctx, progress);
  } catch (error) {
    throw failure(action, error);
  }
}
