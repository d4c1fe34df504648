import { isNotFound, LookupError } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { isPlainObject, type Json, type JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import {
  type ActionResult,
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
import { consoleUrls } from './server-consoles.js';
import { associateFloatingIps, liveIfaces, runSteps, type StepsProgress } from './server-interface-steps.js';
import { prepareServerForReplace, restoreServerPorts } from './server-replace.js';
import { nicsOf, planNetworks, resolveEntry, type Want } from './server-networks.js';
import { type Nic, type Resolved, serializeMetadata, serverRequest, withKey } from './server-request.js';
import { SERVER_ATTRIBUTES, SERVER_PROPERTIES } from './server-schema.js';
import { serverSnapshots } from './server-snapshot.js';
import { validateServer } from './server-validate.js';
import { serverSubnets } from '../neutron/implicit.js';
import { agentBootstrap, agentTransportChange, osCollectConfig } from '../../server-agent/transport.js';

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

/** Heat's Server.default_collectors: os-collect-config's ec2 collector comes first. */
const NOVA_COLLECTORS = ['ec2'];

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

const sameSet = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));

/** The template's value when the live object is still the one it resolved to, else the live one. */
const asGiven = (stored: Value | undefined, same: boolean, live: Value): Value =>
  same ? (stored ?? null) : live;

type Entry = Record<string, Value>;
const entriesOf = (value: Value | undefined) => (value ?? []) as Entry[];

/** What a create polls with: the resolved entries, when one has a floating IP to associate. */
type CreateProgress = { wait: 'ACTIVE'; floating?: Want[] };

/** The entries resolved (where they landed: the port and network lookups are done) when one has a floating IP. */
async function floatingWants(ctx: PluginContext, entries: Entry[], nics: readonly Nic[]): Promise<Want[]> {
  if (!entries.some((e) => e.floating_ip !== null && e.floating_ip !== undefined)) return [];
  const cloud = ctx.openstack();
  return Promise.all(entries.map((e, i) => resolveEntry(cloud, e, nics[i], false)));
}

/** A change of `networks`: the interface steps it takes (see server-networks.ts), to poll through. */
async function networksUpdate(
  ctx: PluginContext,
  properties: Record<string, Value>,
  previous: Record<string, Value>,
): Promise<ActionResult> {
  const cloud = ctx.openstack();
  const oldEntries = entriesOf(previous.networks);
  const newEntries = entriesOf(properties.networks);
  // Looked up again (not taken from the data): the previous properties may be a failed update's.
  const oldWants = await Promise.all(oldEntries.map((e) => resolveEntry(cloud, e, undefined, true)));
  const newWants = await Promise.all(newEntries.map((e) => resolveEntry(cloud, e, undefined, false)));
  const groups = await Promise.all(
    ((properties.security_groups ?? []) as string[]).map(
      async (ref) => (await cloud.findByNameOrId('network', '/security-groups', 'security_groups', ref)).id,
    ),
  );
  const steps = planNetworks({
    oldEntries,
    newEntries,
    oldWants,
    newWants,
    ifaces: await liveIfaces(ctx, ctx.physicalId!),
    securityGroups: groups,
  });
  // The resource's nics change once the interfaces have (getReality maps ports with them).
  const nicsNow = nicsOf(newWants, newEntries);
  if (steps.length === 0) return { data: { nics: nicsNow } };
  return { progress: { steps, nics: nicsNow } satisfies StepsProgress, pollAfterMs: 0 };
}

/**
 * The metadata a server boots with in its `cfn-init-data` (Heat's build_userdata of metadata_get:
 * what cfn-init reads first): the template's, and with an agent its deployments and
 * `os-collect-config` (the template's own keys of that section kept under it).
 */
function bootMetadata(template: JsonObject, agent: JsonObject | undefined): JsonObject | undefined {
  if (!agent) return Object.keys(template).length > 0 ? template : undefined;
  const given = isPlainObject(template['os-collect-config'])
    ? (template['os-collect-config'] as JsonObject)
    : {};
  return {
    ...template,
    ...agent,
    'os-collect-config': { ...given, ...(agent['os-collect-config'] as JsonObject) },
  };
}

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
      const agent =
        properties.user_data_format === 'SOFTWARE_CONFIG'
          ? agentBootstrap(ctx, key, String(properties.software_config_transport), NOVA_COLLECTORS)
          : undefined;
      const { body, resolved } = await serverRequest(
        ctx,
        properties,
        name,
        bootMetadata((await ctx.metadata?.()) ?? {}, agent?.bootMetadata),
      );
      let id = (await findOwn(ctx, key, name))?.id;
      if (id === undefined) {
        const made = await ctx
          .openstack()
          .request<{ server?: { id: string } }>('compute', 'POST', '/servers', body, compute());
        // Asked for a reservation id, Nova answers only that: the server is found by its key.
        id = made.body.server?.id ?? (await findOwn(ctx, key, name))?.id;
        if (id === undefined) throw new ResourceFailure(`Nova made no server ${name} for the request`);
      }
      const floating = await floatingWants(ctx, entriesOf(properties.networks), resolved.nics);
      const progress: CreateProgress = { wait: 'ACTIVE', ...(floating.length > 0 ? { floating } : {}) };
      return { physicalId: id, data: { ...resolved, key, ...agent?.state }, progress, pollAfterMs: POLL_MS };
    } catch (error) {
      if (error instanceof LookupError) throw new ResourceFailure(`creating the server: ${error.message}`);
      throw failure('creating the server', error);
    }
  },

  async checkCreateComplete(ctx, progress) {
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
    if (status === 'ACTIVE') {
      const { floating = [] } = (progress ?? {}) as CreateProgress;
      await associateFloatingIps(ctx, server.id, floating).catch((error) => {
        throw failure('associating the floating IP', error);
      });
      return { done: true };
    }
    if (status === 'ERROR') throw new ResourceInError(`Went to status ERROR due to "${faultText(server)}"`);
    if (DEFERRED.includes(status)) return { done: false, progress, pollAfterMs: POLL_MS };
    throw new ResourceFailure(`Server is not active - Unknown status ${status} due to "Unknown"`, {
      heatClass: 'ResourceUnknownStatus',
    });
  },

  needsReplace(properties, _previous, changed) {
    // Resize and rebuild are not implemented: such changes replace. Networks change in place.
    if (changed.some((name) => ['flavor', 'image'].includes(name))) return true;
    return changed.includes('user_data') && properties.user_data_update_policy !== 'IGNORE';
  },

  prepareForReplace: prepareServerForReplace,
  restorePrevious: restoreServerPorts,

  async update(ctx, properties, previous, changed) {
    const id = ctx.physicalId!;
    const cloud = ctx.openstack();
    try {
      if (changed.includes('tags')) {
        const tags = (properties.tags ?? []) as string[];
        await cloud.request('compute', 'PUT', `/servers/${id}/tags`, { tags }, compute());
      }
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
      // A new transport gets a new credential (the old one is refused from now on).
      const agent = changed.includes('software_config_transport')
        ? agentTransportChange(ctx, String(properties.software_config_transport))
        : undefined;
      if (!changed.includes('networks')) return agent ? { data: agent } : {};
      const result = await networksUpdate(ctx, properties, previous);
      return agent ? { ...result, data: { ...result.data, ...agent } } : result;
    } catch (error) {
      if (error instanceof LookupError) throw new ResourceFailure(`updating the server: ${error.message}`);
      throw failure('updating the server', error);
    }
  },

  async checkUpdateComplete(ctx, progress) {
    return runSteps(ctx, progress as StepsProgress);
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

  ...serverSnapshots,

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
        // Nova keeps tags as a set: the template's order is no drift.
        tags: asGiven(
          stored.tags,
          sameSet((stored.tags ?? []) as string[], server.tags ?? []),
          server.tags ?? [],
        ),
      },
      ...(statusOf(server) === 'ERROR'
        ? { failure: `server status ERROR: ${server.fault?.message ?? 'no fault reported'}` }
        : {}),
    };
  },

  async attribute(ctx, name) {
    const id = ctx.physicalId;
    if (!id) return null;
    if (name === 'os_collect_config') return osCollectConfig(ctx, NOVA_COLLECTORS) as Value;
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
      case 'console_urls':
        return (await consoleUrls(ctx, id)) as Value;
      case 'tags':
        return (server.tags ?? []) as Value;
      default:
        return (server[name] ?? null) as Value;
    }
  },
};
