import { isNotFound } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import type { JsonObject } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';
import { showVolume } from '../../openstack/cinder/volumes.js';
import { compute } from '../../openstack/nova/compute.js';
import { reached } from '../../openstack/polling.js';

/** An Instance's Volumes, attached once its server is ACTIVE (Heat's VolumeAttachProgress). */

export type VolumeWant = { volume: string; device: string };

export function volumesOf(properties: Readonly<Record<string, Value>>): VolumeWant[] {
  return ((properties.Volumes ?? []) as JsonObject[]).map((v) => ({
    volume: String(v.VolumeId),
    device: String(v.Device),
  }));
}

/** Asks Nova to attach the volume unless the server has it already (a step run again). */
async function attachOnce(ctx: PluginContext, server: string, want: VolumeWant): Promise<void> {
  const path = `/servers/${server}/os-volume_attachments`;
  try {
    await ctx.openstack().request('compute', 'GET', `${path}/${want.volume}`, undefined, compute());
    return;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  await ctx
    .openstack()
    .request(
      'compute',
      'POST',
      path,
      { volumeAttachment: { volumeId: want.volume, device: want.device } },
      compute(),
    );
}

/**
 * The first call asks for every attachment; later ones look at the volumes until all are in-use.
 * Returns 'done' then, else 'waiting'.
 */
export async function attachVolumes(
  ctx: PluginContext,
  wants: readonly VolumeWant[],
  asked: boolean,
): Promise<'done' | 'waiting'> {
  if (!asked) {
    for (const want of wants) await attachOnce(ctx, ctx.physicalId!, want);
    return 'waiting';
  }
  for (const want of wants) {
    const vol = await showVolume(ctx, want.volume);
    const wait = {
      what: `Volume ${vol.id}`,
      ready: ['in-use'],
      pending: ['available', 'attaching', 'reserved'],
      errors: ['error', 'error_attaching'],
    };
    if (!reached(vol.status, wait)) return 'waiting';
  }
  return 'done';
}
