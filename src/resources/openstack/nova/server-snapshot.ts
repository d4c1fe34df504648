import { isNotFound } from '../../../openstack/index.js';
import { isPlainObject, type JsonObject } from '../../../util/json.js';
import { type PluginContext, type PollResult, ResourceFailure, type ResourcePlugin } from '../../contract.js';
import { failure } from '../common.js';
import { again } from '../polling.js';
import { compute, KEY_ITEM } from './compute.js';

/*
 * OS::Nova::Server and stack snapshots (Heat's Server handle_snapshot / handle_restore): the
 * server is imaged (Nova's createImage, polled in Glance until the image is active), a restore
 * boots the server from that image, and a deleted snapshot deletes the image.
 */

async function imageMade(ctx: PluginContext, id: string): Promise<PollResult> {
  const r = await ctx
    .openstack()
    .request<{ status: string }>('image', 'GET', `/images/${encodeURIComponent(id)}`);
  const status = r.body.status.toLowerCase();
  if (status === 'active') return { done: true, data: { snapshot_image_id: id } };
  if (status === 'error' || status === 'deleted' || status === 'killed') {
    throw new ResourceFailure(`The image ${id} of the server ${ctx.physicalId} went to status ${status}`);
  }
  return again({ imageId: id });
}

export const serverSnapshots: Pick<
  ResourcePlugin,
  'snapshot' | 'checkSnapshotComplete' | 'deleteSnapshot' | 'restoreProperties'
> = {
  async snapshot(ctx) {
    try {
      // The image carries the snapshot's key (Nova copies the metadata into its properties): a
      // step run again finds the image it asked for.
      const name = `${ctx.stackName}-${ctx.resourceName}-snapshot`;
      const listed = await ctx
        .openstack()
        .request<{ images: { id: string; [KEY_ITEM]?: string }[] }>(
          'image',
          'GET',
          `/images?name=${encodeURIComponent(name)}`,
        );
      let id = listed.body.images.find((image) => image[KEY_ITEM] === ctx.idempotencyKey)?.id;
      if (id === undefined) {
        const made = await ctx
          .openstack()
          .request<{ image_id: string }>(
            'compute',
            'POST',
            `/servers/${ctx.physicalId}/action`,
            { createImage: { name, metadata: { [KEY_ITEM]: ctx.idempotencyKey } } },
            compute(),
          );
        id = made.body.image_id;
      }
      const first = await imageMade(ctx, id);
      return first.done
        ? { data: first.data ?? {} }
        : {
            data: { snapshot_image_id: id },
            progress: first.progress ?? null,
            pollAfterMs: first.pollAfterMs ?? 1000,
          };
    } catch (error) {
      throw failure(`imaging the server ${ctx.physicalId}`, error);
    }
  },

  async checkSnapshotComplete(ctx, progress) {
    try {
      return await imageMade(ctx, (progress as { imageId: string }).imageId);
    } catch (error) {
      throw failure(`imaging the server ${ctx.physicalId}`, error);
    }
  },

  async deleteSnapshot(ctx, data) {
    const id = data.snapshot_image_id;
    if (typeof id !== 'string') return;
    try {
      await ctx.openstack().request('image', 'DELETE', `/images/${encodeURIComponent(id)}`);
    } catch (error) {
      if (!isNotFound(error)) throw failure(`deleting the image ${id}`, error);
    }
  },

  restoreProperties(properties, data) {
    const imageId = data.snapshot_image_id;
    if (typeof imageId !== 'string') return properties;
    // Heat's handle_restore: unset values dropped (in the network and block device lists too).
    const kept: JsonObject = {};
    for (const [name, value] of Object.entries(properties)) {
      if (value === null) continue;
      const listed = ['block_device_mapping', 'block_device_mapping_v2', 'networks'].includes(name);
      const cleaned = listed && Array.isArray(value) ? value.map((item) => withoutNulls(item)) : value;
      Object.defineProperty(kept, name, {
        value: cleaned,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { ...kept, image: imageId };
  },
};

function withoutNulls<T>(item: T): T {
  if (!isPlainObject(item)) return item;
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== null)) as T;
}
