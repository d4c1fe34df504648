import { isNotFound } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext, PollResult, RealityState } from '../../contract.js';
import { deleteOrRetry, failure } from '../common.js';
import { again, asAction, oncePerContext, reached } from '../polling.js';
import { showVolume } from './volumes.js';

/**
 * A volume attached to a server, as OS::Cinder::VolumeAttachment: Nova attaches, Cinder's volume
 * shows it `in-use`. A server and a volume make one attachment, so a create run again after a
 * crash finds the one the first run made. An update detaches, then attaches as the new
 * properties say (in place, as Heat does). The physical id is the id Nova gives the attachment.
 */

/** Which attachment: server, volume and the device asked for. */
type Target = { server: string; volume: string; device: string | null };
type Progress = {
  phase: 'detach' | 'detaching' | 'attaching';
  from?: Target;
  to?: Target;
  id?: string;
  tries?: number;
};
type Attachment = JsonObject & { id: string; serverId: string; volumeId: string; device: string };

const attachmentPath = (t: Target) => `/servers/${t.server}/os-volume_attachments`;

function targetOf(properties: Record<string, Value>): Target {
  return {
    server: properties.instance_uuid as string,
    volume: properties.volume_id as string,
    device: (properties.mountpoint as string | null) || null,
  };
}

/** What the resource is attached as now: recorded at create (data), else its stored properties. */
function currentTarget(ctx: PluginContext): Target | undefined {
  const recorded = ctx.data.attached as Target | undefined;
  if (recorded) return recorded;
  return ctx.storedProperties ? targetOf(ctx.storedProperties) : undefined;
}

async function showAttachment(ctx: PluginContext, t: Target): Promise<Attachment> {
  const r = await ctx
    .openstack()
    .request<{ volumeAttachment: Attachment }>('compute', 'GET', `${attachmentPath(t)}/${t.volume}`);
  return r.body.volumeAttachment;
}

async function startAttach(ctx: PluginContext, to: Target): Promise<PollResult> {
  let id: string;
  try {
    id = (await showAttachment(ctx, to)).id;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const made = await ctx
      .openstack()
      .request<{ volumeAttachment: Attachment }>('compute', 'POST', attachmentPath(to), {
        volumeAttachment: { volumeId: to.volume, ...(to.device ? { device: to.device } : {}) },
      });
    id = made.body.volumeAttachment.id;
  }
  return again({ phase: 'attaching', to, id } as Json);
}

/** Asks Nova to detach; a server busy with another task (409) is asked again for a while. */
async function startDetach(ctx: PluginContext, p: Progress): Promise<PollResult> {
  const from = p.from!;
  const result = await deleteOrRetry(
    () => ctx.openstack().request('compute', 'DELETE', `${attachmentPath(from)}/${from.volume}`),
    `the attachment of volume ${from.volume} to server ${from.server}`,
    p.tries ?? 1,
  );
  const tries = (result.progress as { attempt?: number } | undefined)?.attempt;
  return again({ ...p, phase: result.done ? 'detaching' : 'detach', ...(tries ? { tries } : {}) } as Json);
}

/** Whether the volume no longer shows the server's attachment (a volume gone counts). */
async function detached(ctx: PluginContext, from: Target): Promise<boolean> {
  try {
    const vol = await showVolume(ctx, from.volume);
    if (vol.attachments.some((a) => a.server_id === from.server)) return false;
    return reached(vol.status, {
      what: `Volume ${vol.id}`,
      ready: ['available', 'in-use', 'error'],
      pending: ['detaching'],
      errors: ['error_detaching'],
    });
  } catch (error) {
    if (isNotFound(error)) return true;
    throw error;
  }
}

async function advance(ctx: PluginContext, p: Progress): Promise<PollResult> {
  if (p.phase === 'detach') return startDetach(ctx, p);
  if (p.phase === 'detaching') {
    if (!(await detached(ctx, p.from!))) return again(p as Json);
    return p.to ? startAttach(ctx, p.to) : { done: true };
  }
  const to = p.to!;
  const vol = await showVolume(ctx, to.volume);
  const wait = {
    what: `Volume ${vol.id}`,
    ready: ['in-use'],
    pending: ['available', 'attaching', 'reserved'],
    errors: ['error', 'error_attaching'],
  };
  if (!reached(vol.status, wait)) return again(p as Json);
  return { done: true, physicalId: p.id!, data: { attached: to } };
}

const run = async (action: string, step: () => Promise<PollResult>) => {
  try {
    return await step();
  } catch (error) {
    throw failure(action, error);
  }
};

export const cinderVolumeAttachmentPlugin: CatalogPlugin = {
  type: 'OS::Cinder::VolumeAttachment',
  description:
    'Resource for associating volume to instance. Resource for associating existing volume to instance. Also, the location where the volume is exposed on the instance can be specified.',
  properties: {
    instance_uuid: P.string({
      description: 'The ID of the server to which the volume attaches.',
      required: true,
      updateAllowed: true,
    }),
    volume_id: P.string({
      description: 'The ID of the volume to be attached.',
      required: true,
      updateAllowed: true,
      constraints: [C.custom('cinder.volume')],
    }),
    mountpoint: P.string({
      description:
        'The location where the volume is exposed on the instance. This assignment may not be honored and it is advised that the path /dev/disk/by-id/virtio-<VolumeId> be used instead.',
      updateAllowed: true,
    }),
  },
  attributes: {
    show: attr('Detailed information about resource.', 'map'),
  },

  async create(ctx, properties) {
    const to = targetOf(properties);
    const result = await run('attaching the volume', () => startAttach(ctx, to));
    return { ...asAction(result), data: { attached: to } };
  },

  async checkCreateComplete(ctx, progress) {
    return run('attaching the volume', () => advance(ctx, progress as Progress));
  },

  async update(ctx, properties, previous) {
    const from = currentTarget(ctx) ?? targetOf(previous);
    const to = targetOf(properties);
    return asAction(
      await run('updating the attachment', () => startDetach(ctx, { phase: 'detach', from, to })),
    );
  },

  async checkUpdateComplete(ctx, progress) {
    return run('updating the attachment', () => advance(ctx, progress as Progress));
  },

  async delete(ctx) {
    const from = currentTarget(ctx);
    if (!from) return {};
    return asAction(await run('detaching the volume', () => startDetach(ctx, { phase: 'detach', from })));
  },

  async checkDeleteComplete(ctx, progress) {
    return run('detaching the volume', () => advance(ctx, progress as Progress));
  },

  async getReality(ctx): Promise<RealityState> {
    const t = currentTarget(ctx);
    if (!ctx.physicalId || !t) return { state: 'gone' };
    try {
      const a = await showAttachment(ctx, t);
      return {
        state: 'present',
        properties: {
          instance_uuid: a.serverId,
          volume_id: a.volumeId,
          // Nova picks the device when none is asked for: that is no drift.
          mountpoint: t.device === null ? null : a.device,
        },
      };
    } catch (error) {
      if (isNotFound(error)) return { state: 'gone' };
      throw error;
    }
  },

  async attribute(ctx, name) {
    const t = currentTarget(ctx);
    if (name !== 'show' || !t || !ctx.physicalId) return null;
    return (await oncePerContext(ctx, 'attachment', () => showAttachment(ctx, t))) as Value;
  },
};
