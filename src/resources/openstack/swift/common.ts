import { isNotFound, OpenStackError } from '../../../openstack/index.js';
import { type PluginContext, ResourceFailure } from '../../contract.js';
import { serviceFailure } from '../common.js';

/** What OS::Swift::Container and AWS::S3::Bucket share: the service, paths, the storage URL, delete. */

export const SWIFT = 'object-store';

export const swiftFailure = (action: string, error: unknown) =>
  serviceFailure(action, error, SWIFT, 'object storage (Swift)');

export const containerPath = (name: string) => `/${encodeURIComponent(name)}`;

/** The account's storage URL (what swiftclient's get_auth answers first), from the catalog. */
export async function storageUrl(ctx: PluginContext): Promise<URL> {
  const cloud = ctx.openstack();
  await cloud.projectId();
  return new URL(await cloud.session.endpoint(SWIFT));
}

/**
 * Deletes container `name` (gone is done); Swift's 409 for a container with objects fails with
 * `nonEmpty`, in Heat's words for the type.
 */
export async function deleteContainer(ctx: PluginContext, name: string, nonEmpty: string): Promise<void> {
  try {
    await ctx.openstack().request(SWIFT, 'DELETE', containerPath(name));
  } catch (error) {
    if (isNotFound(error)) return;
    if (error instanceof OpenStackError && error.status === 409) {
      throw new ResourceFailure(nonEmpty, { heatClass: 'ResourceActionNotSupported' });
    }
    throw swiftFailure('deleting the container', error);
  }
}
