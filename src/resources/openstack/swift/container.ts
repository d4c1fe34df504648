import { isNotFound } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, P } from '../../../template/properties/index.js';
import { type Json, type JsonObject, jsonEqual } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { realityOf } from '../common.js';
import { containerPath, deleteContainer, storageUrl, SWIFT, swiftFailure } from './common.js';

/**
 * OS::Swift::Container: a Swift container as Heat makes it: named by `name` or the physical name,
 * its ACLs and `X-Container-Meta` set by one PUT (a create run again only sets them again), the
 * account's `X-Account-Meta` by a POST to the account. Nothing updates in place (every change
 * replaces it). A non-empty container is deleted only with `PurgeOnDelete`, its objects first.
 */

const META = { container: 'X-Container-Meta-', account: 'X-Account-Meta-' } as const;

function metaHeaders(kind: keyof typeof META, meta: Value): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries((meta as JsonObject | null) ?? {})) {
    headers[`${META[kind]}${key}`] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return headers;
}

async function headContainer(ctx: PluginContext, name: string): Promise<Record<string, string>> {
  const response = await ctx.openstack().request(SWIFT, 'HEAD', containerPath(name));
  return Object.fromEntries(response.headers.entries());
}

/** Deletes every object of the container (PurgeOnDelete), page by page as Swift lists them. */
async function purge(ctx: PluginContext, name: string): Promise<void> {
  const cloud = ctx.openstack();
  for (;;) {
    const listed = await cloud.request<{ name: string }[] | undefined>(
      SWIFT,
      'GET',
      `${containerPath(name)}?format=json`,
    );
    const objects = listed.body ?? [];
    if (objects.length === 0) return;
    for (const object of objects) {
      try {
        await cloud.request(SWIFT, 'DELETE', `${containerPath(name)}/${encodeURIComponent(object.name)}`);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
  }
}

export const swiftContainerPlugin: CatalogPlugin = {
  type: 'OS::Swift::Container',
  description: 'A resource for managing Swift containers.',
  properties: {
    name: P.string({
      description: 'Name for the container. If not specified, a unique name will be generated.',
    }),
    'X-Container-Read': P.string({
      description: 'Specify the ACL permissions on who can read objects in the container.',
    }),
    'X-Container-Write': P.string({
      description: 'Specify the ACL permissions on who can write objects to the container.',
    }),
    'X-Container-Meta': P.map({
      description:
        'A map of user-defined meta data to associate with the container. Each key in the map will set the header X-Container-Meta-{key} with the corresponding value.',
      default: {},
    }),
    'X-Account-Meta': P.map({
      description:
        'A map of user-defined meta data to associate with the account. Each key in the map will set the header X-Account-Meta-{key} with the corresponding value.',
      default: {},
    }),
    PurgeOnDelete: P.boolean({
      description:
        'If True, delete any objects in the container when the container is deleted. Otherwise, deleting a non-empty container will result in an error.',
      default: false,
    }),
  },
  attributes: {
    DomainName: attr('The host from the container URL.', 'string'),
    WebsiteURL: attr('The URL of the container.', 'string'),
    RootURL: attr('The parent URL of the container.', 'string'),
    ObjectCount: attr('The number of objects stored in the container.', 'integer'),
    BytesUsed: attr('The number of bytes stored in the container.', 'integer'),
    HeadContainer: attr('A map containing all headers for the container.', 'map'),
  },

  async create(ctx, properties) {
    const name = typeof properties.name === 'string' ? properties.name : physicalResourceName(ctx);
    const headers = metaHeaders('container', properties['X-Container-Meta'] ?? null);
    for (const acl of ['X-Container-Read', 'X-Container-Write'] as const) {
      const value = properties[acl];
      if (typeof value === 'string') headers[acl] = value;
    }
    const account = metaHeaders('account', properties['X-Account-Meta'] ?? null);
    try {
      if (Object.keys(account).length > 0) {
        await ctx.openstack().request(SWIFT, 'POST', '', undefined, { headers: account });
      }
      await ctx.openstack().request(SWIFT, 'PUT', containerPath(name), undefined, { headers });
    } catch (error) {
      throw swiftFailure('creating the container', error);
    }
    return { physicalId: name };
  },

  async delete(ctx) {
    const name = ctx.physicalId;
    if (!name) return {};
    try {
      if (ctx.storedProperties?.PurgeOnDelete === true) await purge(ctx, name);
    } catch (error) {
      if (isNotFound(error)) return {};
      throw swiftFailure('deleting the objects', error);
    }
    await deleteContainer(ctx, name, `Deleting non-empty container (${name}) when PurgeOnDelete is False`);
    return {};
  },

  async check(ctx) {
    if (!ctx.physicalId) return;
    try {
      await headContainer(ctx, ctx.physicalId);
    } catch (error) {
      throw swiftFailure('reading the container', error);
    }
  },

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const live = await headContainer(ctx, ctx.physicalId);
      const stored = ctx.storedProperties ?? {};
      const meta: JsonObject = {};
      for (const [key, value] of Object.entries(live)) {
        if (key.startsWith('x-container-meta-')) meta[key.slice('x-container-meta-'.length)] = value;
      }
      // Swift lower-cases metadata names: the stored map is compared as Swift keeps it.
      const storedMeta = (stored['X-Container-Meta'] as JsonObject | null) ?? {};
      const lowered = Object.fromEntries(Object.entries(storedMeta).map(([k, v]) => [k.toLowerCase(), v]));
      return {
        ...stored,
        'X-Container-Read': live['x-container-read'] ?? null,
        'X-Container-Write': live['x-container-write'] ?? null,
        'X-Container-Meta': jsonEqual(lowered, meta) ? storedMeta : meta,
      };
    });
  },

  async attribute(ctx, name) {
    if (!ctx.physicalId) return null;
    if (name === 'ObjectCount' || name === 'BytesUsed' || name === 'HeadContainer') {
      const headers = await headContainer(ctx, ctx.physicalId);
      if (name === 'HeadContainer') return headers as Json;
      const raw = headers[name === 'ObjectCount' ? 'x-container-object-count' : 'x-container-bytes-used'];
      return raw === undefined ? null : Number(raw);
    }
    const url = await storageUrl(ctx);
    const root = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    if (name === 'DomainName') return url.hostname;
    if (name === 'WebsiteURL') return `${root}/${ctx.physicalId}`;
    if (name === 'RootURL') return root;
    return null;
  },
};
