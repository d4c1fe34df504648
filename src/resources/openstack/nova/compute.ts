import { isNotFound, type RequestOptions } from '../../../openstack/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';

/** What the Nova types share: the microversion they speak, a server as Nova shows it, its lookups. */

/**
 * Train's 2.79: `networks` is required ("auto"/"none" from 2.37), NIC tags (2.42), a server's
 * flavor shown with its `original_name` (2.47); personality files gone (2.57).
 */
export const COMPUTE_MICROVERSION = '2.79';

/** How long after an action the server is looked at again (the engine backs off from there). */
export const POLL_MS = 1000;

export const compute = (options: RequestOptions = {}): RequestOptions => ({
  microversion: COMPUTE_MICROVERSION,
  ...options,
});

export type Fault = { code?: number; message?: string };

export type Server = JsonObject & {
  id: string;
  name: string;
  status: string;
  metadata: Record<string, string>;
  fault?: Fault;
  flavor: { id?: string; original_name?: string };
  image: { id: string } | '';
  addresses: Record<string, { addr: string; version: number }[]>;
  key_name: string | null;
  /** From 2.26. */
  tags?: string[];
};

/** The metadata item a create leaves on the server, so that a retried create finds it. */
export const KEY_ITEM = 'hearth_key';

/** Nova may append detail to a status ("ACTIVE(deleting)"); Heat compares the part before. */
export const statusOf = (server: Server): string => server.status.split('(')[0]!;

export async function getServer(ctx: PluginContext, id: string): Promise<Server> {
  const r = await ctx
    .openstack()
    .request<{ server: Server }>('compute', 'GET', `/servers/${id}`, undefined, compute());
  return r.body.server;
}

/** Heat's words for a server in ERROR: its fault's message and code. */
export function faultText(server: Server): string {
  const fault = server.fault ?? {};
  return `Message: ${fault.message ?? 'Unknown'}, Code: ${fault.code ?? 'Unknown'}`;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The server a create with `key` made, if any: Nova's name filter is a regular expression, so the
 * name is anchored and escaped; the key in the metadata tells same-named servers apart. Without a
 * name every server of the project is looked at.
 */
export async function findOwn(
  ctx: PluginContext,
  key: string,
  name: string | undefined,
): Promise<Server | undefined> {
  const r = await ctx
    .openstack()
    .request<{ servers: Server[] }>(
      'compute',
      'GET',
      '/servers/detail',
      undefined,
      compute(name === undefined ? {} : { query: { name: `^${escapeRegex(name)}$` } }),
    );
  return r.body.servers.find((s) => s.metadata?.[KEY_ITEM] === key);
}

export async function action(ctx: PluginContext, id: string, body: JsonObject): Promise<void> {
  await ctx.openstack().request('compute', 'POST', `/servers/${id}/action`, body, compute());
}

/** The live server, or undefined when Nova no longer has it. */
export async function liveServer(ctx: PluginContext, id: string): Promise<Server | undefined> {
  try {
    const server = await getServer(ctx, id);
    return ['DELETED', 'SOFT_DELETED'].includes(statusOf(server)) ? undefined : server;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
