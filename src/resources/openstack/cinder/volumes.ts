import type { JsonObject } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';

/** What the Cinder types share: the service, reading a volume, and the create marker in its metadata. */

/** The catalog's service type for Cinder v3 (`volumev3` and `volume` are its aliases). */
export const CINDER = 'block-storage';

/** The metadata key a volume's create marker is kept under. */
export const MARKER_KEY = 'hearth_key';

export type Volume = JsonObject & {
  id: string;
  status: string;
  size: number;
  name: string | null;
  description: string | null;
  volume_type: string | null;
  metadata: Record<string, string>;
  attachments: { server_id: string; device: string; attachment_id?: string }[];
};

export async function showVolume(ctx: PluginContext, id = ctx.physicalId!): Promise<Volume> {
  const r = await ctx
    .openstack()
    .request<{ volume: Volume }>(CINDER, 'GET', `/volumes/${encodeURIComponent(id)}`);
  return r.body.volume;
}

/** The id of the project's volume carrying `marker`, if there is one. */
export async function findMarkedVolume(ctx: PluginContext, marker: string): Promise<string | undefined> {
  const r = await ctx
    .openstack()
    .request<{ volumes: { id: string }[] }>(CINDER, 'GET', '/volumes', undefined, {
      query: { metadata: JSON.stringify({ [MARKER_KEY]: marker }) },
    });
  return r.body.volumes[0]?.id;
}

/** The volume's metadata without the create marker. */
export function userMetadata(volume: Volume): Record<string, string> {
  const { [MARKER_KEY]: _marker, ...rest } = volume.metadata ?? {};
  return rest;
}
