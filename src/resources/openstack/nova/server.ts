import { isNotFound, LookupError } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import type { Json } from '../../../util/json.js';
import type { CatalogPlugin } from '../../catalog.js';
import {
  type PluginContext,
  type PollResult,
  type RealityState,
  ResourceFailure,
  ResourceInError,
} from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { failure } from '../common.js';
import {
  action,
  compute,
  faultText,
  findOwn,
  getServer,
  KEY_ITEM,
  liveServer,
  POLL_MS,
  type Server,
  statusOf,
} from './compute.js';
import {
  addresses,
  firstAddress,
  liveNetworks,
  networksAttribute,
  serverPorts,
} from './server-attributes.js';
import { checkDeleted, type DeleteProgress, sendDelete } from './server-delete.js';
import { type Resolved, serializeMetadata, serverRequest, withKey } from './server-request.js';
import { SERVER_ATTRIBUTES, SERVER_PROPERTIES } from './server-schema.js';
import { validateServer } from './server-validate.js';
import { serverSubnets } from '../neutron/implicit.js';

/** A Nova server, as OS::Nova::Server. */

/** Heat's physical_resource_name_limit for servers: a host name of 64 less ".novalocal". */
const NAME_LIMIT = 53;
/** Statuses a server passes through on its way to ACTIVE (Heat's deferred_server_statuses). */
const DEFERRED = [
  'BUILD',
  'HARD_REBOOT',
  'PASSWORD',
  'REBOOT',
  'RESCUE',
  'RESIZE',
  'REVERT_RESIZE',
  'SHUTOFF',
  'SUSPENDED',
  'VERIFY_RESIZE',
];

/** The key the server was created with (an update's context may carry another attempt's). */
const createdKey = (ctx: PluginContext): string => (ctx.data.key as string | undefined) ?? ctx.idempotencyKey;

function serverName(ctx: PluginContext, properties: Record<string, Value>, key: string): string {
  const name = properties.name as string | null | undefined;
  return name ? name : physicalResourceName({ ...ctx, idempotencyKey: key }, NAME_LIMIT);
}

/** Polls until the server is `wanted`; `passing` statuses mean not yet, any other fails. */
async function waitFor(
  ctx: PluginContext,
  wanted: string,
  passing: readonly string[],
  what: string,
): Promise<PollResult> {
  const server = await liveServer(ctx, ctx.physicalId!);
  if (!server) throw new ResourceFailure(`${what}: the server ${ctx.physicalId} no longer exists`);
  const status = statusOf(server);
  if (status === wanted) return { done: true };
  if (status === 'ERROR') throw new ResourceInError(`Went to status ERROR due to "${faultText(server)}"`);
  if (passing.includes(status)) return { done: false, progress: { wait: wanted }, pollAfterMs: POLL_MS };
  throw new ResourceFailure(`Resource failed - Unknown status ${status} due to "Unknown" (${what})`, {
    heatClass: 'ResourceUnknownStatus',
  });
}

/** Starts a server action unless the server is already where it leads. */
async function startAction(
  ctx: PluginContext,
  name: string,
  target: string,
): Promise<{ progress: Json; pollAfterMs: number }> {
  if (!ctx.physicalId) throw new ResourceFailure(`Cannot ${name} ${ctx.resourceName}, resource_id not set`);
  const server = await liveServer(ctx, ctx.physicalId);
  if (!server) throw new ResourceFailure(`Failed to find server ${ctx.physicalId}`);
  try {
    if (statusOf(server) !== target) await action(ctx, server.id, { [name]: null });
  } catch (error) {
    throw failure(`${name} of the server`, error);
  }
  return { progress: { wait: target }, pollAfterMs: POLL_MS };
}

function sameItems(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** The template's value when the live object is still the one it resolved to, else the live one. */
const asGiven = (stored: Value | undefined, same: boolean, live: Value): Value =>
  same ? (stored ?? null) : live;

export const novaServerPlugin: CatalogPlugin = {
  type: 'OS::Nova::Server',
  implicitDependencies: [serverSubnets],
  description:
    'A resource for managing Nova instances. A Server resource manages the running virtual machine instance within an OpenStack cloud.',
  properties: SERVER_PROPERTIES,
  attributes: SERVER_ATTRIBUTES,
  validate: validateServer,

  async create(ctx, properties) {
    const key = ctx.idempotencyKey;
    const name = serverName(ctx, properties, key);
    try {
      const { body, resolved } = await serverRequest(ctx, properties, name);
      let id = (await findOwn(ctx, key, name))?.id;
      if (id === undefined) {
        const made = await ctx
          .openstack()
          .request<{ server: { id: string } }>('compute', 'POST', '/servers', body, compute());
        id = made.body.server.id;
      }
      return {
        physicalId: id,
        data: { ...resolved, key },
        progress: { wait: 'ACTIVE' },
        pollAfterMs: POLL_MS,
      };
    } catch (error) {
      if (error instanceof LookupError) throw new ResourceFailure(`creating the server: ${error.message}`);
      throw failure('creating the server', error);
    }
  },

  async checkCreateComplete(ctx) {
    let server: Server;
    try {
      server = await getServer(ctx, ctx.physicalId!);
    } catch (error) {
      if (isNotFound(error)) {
        throw new ResourceInError(`The server ${ctx.physicalId} disappeared while it was being built`);
      }
      throw failure('waiting for the server', error);
    }
    const status = statusOf(server);
    if (status === 'ACTIVE') return { done: true };
    if (status === 'ERROR') throw new ResourceInError(`Went to status ERROR due to "${faultText(server)}"`);
    if (DEFERRED.includes(status)) return { done: false, progress: { wait: 'ACTIVE' }, pollAfterMs: POLL_MS };
    throw new ResourceFailure(`Server is not active - Unknown status ${status} due to "Unknown"`, {
      heatClass: 'ResourceUnknownStatus',
    });
  },

  needsReplace(properties, _previous, changed) {
    // Resize, rebuild and interface attach/detach are not implemented: such changes replace.
    if (changed.some((name) => ['flavor', 'image', 'networks'].includes(name))) return true;
    return changed.includes('user_data') && properties.user_data_update_policy !== 'IGNORE';
  },

  async update(ctx, properties, _previous, changed) {
    const id = ctx.physicalId!;
    const cloud = ctx.openstack();
    try {
      if (changed.includes('name')) {
        const name = serverName(ctx, properties, createdKey(ctx));
        await cloud.request('compute', 'PUT', `/servers/${id}`, { server: { name } }, compute());
      }
      if (changed.includes('metadata')) {
        const metadata = withKey(properties.metadata, createdKey(ctx));
        await cloud.request('compute', 'PUT', `/servers/${id}/metadata`, { metadata }, compute());
      }
      if (changed.includes('admin_pass') && properties.admin_pass) {
        await action(ctx, id, { changePassword: { adminPass: properties.admin_pass as string } });
      }
      return {};
    } catch (error) {
      throw failure('updating the server', error);
    }
  },

  async delete(ctx) {
    let id = ctx.physicalId;
    if (!id) {
      // A create that never recorded its id: find the server by its key (and name, when known).
      const stored = ctx.storedProperties;
      const name = stored ? serverName(ctx, stored, createdKey(ctx)) : undefined;
      id =
        (
          await findOwn(ctx, createdKey(ctx), name).catch((error) => {
            throw failure('deleting the server', error);
          })
        )?.id ?? null;
    }
    if (!id) return {};
    const result = await sendDelete(ctx, { id, sent: false, attempt: 1, errors: 0 });
    return result.done ? {} : { progress: result.progress!, pollAfterMs: result.pollAfterMs! };
  },

  async checkDeleteComplete(ctx, progress) {
    return checkDeleted(ctx, progress as DeleteProgress);
  },

  async check(ctx) {
    const server = ctx.physicalId ? await liveServer(ctx, ctx.physicalId) : undefined;
    if (!server) throw new ResourceFailure(`The server ${ctx.physicalId ?? ctx.resourceName} does not exist`);
    const status = statusOf(server);
    if (status !== 'ACTIVE') throw new ResourceFailure(`'status': expected ['ACTIVE'], got '${status}'`);
  },

  async suspend(ctx) {
    return startAction(ctx, 'suspend', 'SUSPENDED');
  },
  async checkSuspendComplete(ctx) {
    return waitFor(ctx, 'SUSPENDED', [...DEFERRED, 'ACTIVE'], 'suspending the server');
  },
  async resume(ctx) {
    return startAction(ctx, 'resume', 'ACTIVE');
  },
  async checkResumeComplete(ctx) {
    return waitFor(ctx, 'ACTIVE', DEFERRED, 'resuming the server');
  },

  async getReality(ctx): Promise<RealityState> {
    if (!ctx.physicalId) return { state: 'gone' };
    const server = await liveServer(ctx, ctx.physicalId);
    if (!server) return { state: 'gone' };
    const stored = ctx.storedProperties ?? {};
    const data = ctx.data as Partial<Resolved>;
    const { [KEY_ITEM]: _key, ...metadata } = server.metadata ?? {};
    const flavor = server.flavor.original_name ?? server.flavor.id ?? null;
    const image = server.image === '' ? null : server.image.id;
    const storedNetworks = (stored.networks ?? []) as Record<string, Value>[];
    return {
      state: 'present',
      properties: {
        name: server.name,
        flavor: asGiven(stored.flavor, flavor === data.flavorName || flavor === data.flavorId, flavor),
        image: asGiven(stored.image, image === (data.imageId ?? null), image),
        metadata: asGiven(stored.metadata, sameItems(serializeMetadata(stored.metadata), metadata), metadata),
        // Without networks Nova chose them: nothing in the template to compare with.
        networks:
          storedNetworks.length === 0
            ? (stored.networks ?? null)
            : liveNetworks(storedNetworks, data.nics ?? [], await serverPorts(ctx, server.id)),
        key_name: server.key_name ?? null,
      },
      ...(statusOf(server) === 'ERROR'
        ? { failure: `server status ERROR: ${server.fault?.message ?? 'no fault reported'}` }
        : {}),
    };
  },

  async attribute(ctx, name) {
    const id = ctx.physicalId;
    if (!id) return null;
    const server = await liveServer(ctx, id);
    if (!server) return '';
    switch (name) {
      case 'first_address':
        return firstAddress(server);
      case 'addresses':
        return (await addresses(ctx, id)) as Value;
      case 'networks':
        return (await networksAttribute(ctx, id)) as Value;
      case 'instance_name':
        return (server['OS-EXT-SRV-ATTR:instance_name'] ?? null) as Value;
      case 'show':
        return server as Value;
      default:
        return (server[name] ?? null) as Value;
    }
  },
};
