import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { realityOf } from '../../openstack/common.js';
import {
  containerPath,
  deleteContainer,
  storageUrl,
  SWIFT,
  swiftFailure,
} from '../../openstack/swift/common.js';

/**
 * AWS::S3::Bucket: a Swift container named as Heat names its physical resources, made as Heat
 * makes it: the canned `AccessControl` becomes the container's read and write ACLs, `Tags` its
 * `S3-Tag-<Key>` metadata, `WebsiteConfiguration` the staticweb index and error metadata. Nothing
 * can be updated in place (every change replaces the bucket). Its reference is the container's
 * name; its attributes come from the account's storage URL.
 */

const TAG_PREFIX = 'X-Container-Meta-S3-Tag-';
/** Swift's wildcard referrer: anyone. */
const ANYONE = '.r:*';

/** The container's headers from the properties, for the user the stack acts as. */
async function headersFor(
  ctx: PluginContext,
  properties: Record<string, Value>,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const tag of (properties.Tags as JsonObject[] | null) ?? []) {
    headers[`${TAG_PREFIX}${String(tag.Key)}`] = String(tag.Value);
  }
  const site = properties.WebsiteConfiguration as JsonObject | null;
  // Heat assumes Swift runs the staticweb middleware.
  if (site) {
    if (typeof site.IndexDocument === 'string') headers['X-Container-Meta-Web-Index'] = site.IndexDocument;
    if (typeof site.ErrorDocument === 'string') headers['X-Container-Meta-Web-Error'] = site.ErrorDocument;
  }
  const cloud = ctx.openstack();
  await cloud.projectId();
  const login = await cloud.session.login();
  const self = `${login.projectName}:${login.userName}`;
  const acl = properties.AccessControl;
  if (acl === 'PublicRead' || acl === 'PublicReadWrite') headers['X-Container-Read'] = ANYONE;
  else if (acl === 'AuthenticatedRead') headers['X-Container-Read'] = login.projectName;
  else headers['X-Container-Read'] = self;
  headers['X-Container-Write'] = acl === 'PublicReadWrite' ? ANYONE : self;
  return headers;
}

export const s3BucketPlugin: CatalogPlugin = {
  type: 'AWS::S3::Bucket',
  description: 'A bucket of objects: a Swift container with canned ACLs, tags and static website settings.',
  properties: {
    AccessControl: P.string({
      description: 'A canned access control list: who may read and write the bucket.',
      constraints: [
        C.allowedValues([
          'Private',
          'PublicRead',
          'PublicReadWrite',
          'AuthenticatedRead',
          'BucketOwnerRead',
          'BucketOwnerFullControl',
        ]),
      ],
    }),
    WebsiteConfiguration: P.map({
      description: 'Settings that serve the bucket as a static website.',
      schema: {
        IndexDocument: P.string({ description: 'The object served for a directory.' }),
        ErrorDocument: P.string({ description: 'The object served on an error.' }),
      },
    }),
    Tags: P.list({
      description: 'Tags of the bucket (kept as container metadata).',
      items: P.map({
        schema: {
          Key: P.string({ description: 'The name of the tag.', required: true }),
          Value: P.string({ description: 'The value of the tag.', required: true }),
        },
      }),
    }),
  },
  attributes: {
    DomainName: attr('The host name of the bucket’s object store.', 'string'),
    WebsiteURL: attr('The URL the bucket is served at as a website.', 'string'),
  },

  async create(ctx, properties) {
    const name = physicalResourceName(ctx);
    try {
      // A PUT of an existing container only sets its headers: a create run again is harmless.
      const headers = await headersFor(ctx, properties);
      await ctx.openstack().request(SWIFT, 'PUT', containerPath(name), undefined, { headers });
    } catch (error) {
      throw swiftFailure('creating the container', error);
    }
    return { physicalId: name };
  },

  async delete(ctx) {
    if (ctx.physicalId) {
      await deleteContainer(
        ctx,
        ctx.physicalId,
        `The bucket you tried to delete is not empty (${ctx.physicalId}).`,
      );
    }
    return {};
  },

  async check(ctx) {
    if (!ctx.physicalId) return;
    try {
      await ctx.openstack().request(SWIFT, 'HEAD', containerPath(ctx.physicalId));
    } catch (error) {
      throw swiftFailure('reading the container', error);
    }
  },

  async getReality(ctx) {
    // Heat reads nothing of a bucket back: the container existing is all there is.
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      await ctx.openstack().request(SWIFT, 'HEAD', containerPath(ctx.physicalId));
      return { ...(ctx.storedProperties ?? {}) };
    });
  },

  async attribute(ctx, name) {
    if (!ctx.physicalId) return null;
    const url = await storageUrl(ctx);
    if (name === 'DomainName') return url.hostname;
    if (name === 'WebsiteURL') {
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}/${ctx.physicalId}`;
    }
    return null;
  },
};
