import { isNotFound } from '../../../openstack/index.js';
import { type DocPath, TemplateError } from '../../../template/errors.js';
import { UNKNOWN, type Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type PluginContext, type PollResult, type RealityState, ResourceFailure } from '../../contract.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { createMarker, deleteOrRetry, failure, present } from '../common.js';
import { again, asAction, oncePerContext, reached, type StatusWait } from '../polling.js';
import {
  BACKUP_MICROVERSION,
  backupIdProperty,
  fromBackup,
  restoreOnto,
  volumeSnapshots,
} from './volume-backup.js';
import { CINDER, findMarkedVolume, MARKER_KEY, showVolume, userMetadata, type Volume } from './volumes.js';

/**
 * A Cinder volume, as OS::Cinder::Volume. Its metadata carries the create marker (`hearth_key`,
 * never shown as the template's metadata), so a create run again after a crash finds it. Create,
 * retype, extend and delete are asynchronous in Cinder: each is persisted polling.
 */

const STEADY = ['available', 'in-use'];
const wait = (id: string, ready: string[], pending: string[], errors: string[] = ['error']): StatusWait => ({
  what: `Volume ${id}`,
  ready,
  pending,
  errors,
});

/** The slow parts of an update, done one after the other (each waits for the volume to settle). */
type Step =
  | { op: 'restore'; backup: string }
  | { op: 'retype'; type: string }
  | { op: 'extend'; size: number }
  | { op: 'read_only'; value: boolean };

async function volumeAction(ctx: PluginContext, action: string, args: Json, microversion?: string) {
  await ctx
    .openstack()
    .request(
      CINDER,
      'POST',
      `/volumes/${ctx.physicalId}/action`,
      { [action]: args },
      microversion ? { microversion } : {},
    );
}

async function runSteps(ctx: PluginContext, steps: Step[]): Promise<PollResult> {
  const vol = await showVolume(ctx);
  const settled = reached(
    vol.status,
    wait(
      vol.id,
      STEADY,
      ['retyping', 'extending', 'attaching', 'detaching', 'reserved', 'restoring-backup'],
      ['error', 'error_extending', 'error_restoring'],
    ),
  );
  if (!settled) return again({ steps } as Json);
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const rest = steps.slice(i + 1) as Json;
    if (step.op === 'restore') {
      await restoreOnto(ctx, step.backup);
      return again({ steps: rest });
    }
    if (step.op === 'retype' && vol.volume_type !== step.type) {
      await volumeAction(ctx, 'os-retype', { new_type: step.type, migration_policy: 'never' });
      return again({ steps: rest });
    }
    if (step.op === 'extend' && vol.size < step.size) {
      // 3.42: an attached (in-use) volume may be extended too.
      await volumeAction(ctx, 'os-extend', { new_size: step.size }, '3.42');
      return again({ steps: rest });
    }
    if (step.op === 'read_only') await volumeAction(ctx, 'os-update_readonly_flag', { readonly: step.value });
  }
  return { done: true };
}

/** Deletes the volume, or polls until it is gone; `busy` counts refusals while it is attached. */
async function deleteStep(
  ctx: PluginContext,
  id: string,
  phase: 'delete' | 'gone',
  busy = 1,
): Promise<PollResult> {
  const what = `the volume ${id}`;
  let vol: Volume;
  try {
    vol = await showVolume(ctx, id);
  } catch (error) {
    if (isNotFound(error)) return { done: true };
    throw failure(`deleting ${what}`, error);
  }
  if (phase === 'gone' || vol.status === 'deleting') {
    reached(vol.status, wait(id, ['deleted'], ['deleting', ...STEADY, 'error'], ['error_deleting']));
    return again({ id, phase: 'gone' });
  }
  // Still attached (Cinder answers 400, or 409 while busy): tried again for a while.
  const result = await deleteOrRetry(
    () => ctx.openstack().request(CINDER, 'DELETE', `/volumes/${id}`),
    what,
    busy,
    [400, 409],
  );
  if (!result.done)
    return again({ id, phase: 'delete', busy: (result.progress as { attempt: number }).attempt });
  return again({ id, phase: 'gone' });
}

export const cinderVolumePlugin: CatalogPlugin = {
  type: 'OS::Cinder::Volume',
  description:
    'A resource that implements Cinder volumes. Cinder volume is a storage in the form of block devices. It can be used, for example, for providing storage to instance. Volume supports creation from snapshot, backup or image. Also volume can be created only by size.',
  properties: {
    availability_zone: P.string({
      description: 'The availability zone in which the volume will be created.',
    }),
    size: P.integer({
      description:
        'The size of the volume in GB. On update only increase in size is supported. This property is required unless property backup_id or source_volid or snapshot_id is specified.',
      updateAllowed: true,
      constraints: [C.range({ min: 1 })],
    }),
    backup_id: backupIdProperty,
    snapshot_id: P.string({
      description: 'If specified, the snapshot to create the volume from.',
      constraints: [C.custom('cinder.snapshot')],
    }),
    name: P.string({ description: 'A name used to distinguish the volume.', updateAllowed: true }),
    description: P.string({ description: 'A description of the volume.', updateAllowed: true }),
    volume_type: P.string({
      description: 'If specified, the type of volume to use, mapping to a specific backend.',
      constraints: [C.custom('cinder.vtype')],
      updateAllowed: true,
    }),
    metadata: P.map({
      description: 'Key/value pairs to associate with the volume.',
      updateAllowed: true,
      default: {},
    }),
    imageRef: P.string({
      description: 'The ID of the image to create the volume from.',
      supportStatus: {
        status: 'HIDDEN',
        version: '5.0.0',
        message: 'Use property image.',
        previousStatus: { status: 'DEPRECATED', version: '2014.1' },
      },
    }),
    image: P.string({
      description: 'If specified, the name or ID of the image to create the volume from.',
      constraints: [C.custom('glance.image')],
    }),
    source_volid: P.string({
      description: 'If specified, the volume to use as source.',
      constraints: [C.custom('cinder.volume')],
    }),
    scheduler_hints: P.map({
      description:
        'Arbitrary key-value pairs specified by the client to help the Cinder scheduler creating a volume.',
      supportStatus: { version: '2015.1' },
    }),
    read_only: P.boolean({
      description: 'Enables or disables read-only access mode of volume.',
      supportStatus: { version: '5.0.0' },
      updateAllowed: true,
    }),
    multiattach: P.boolean({
      description: 'Whether allow the volume to be attached more than once.',
      default: false,
      supportStatus: { status: 'HIDDEN', version: '13.0.0', previousStatus: { version: '6.0.0' } },
    }),
  },
  attributes: {
    availability_zone: attr('The availability zone in which the volume is located.', 'string'),
    size: attr('The size of the volume in GB.', 'string'),
    snapshot_id: attr('The snapshot the volume was created from, if any.', 'string'),
    display_name: attr('Name of the volume.', 'string'),
    display_description: attr('Description of the volume.', 'string'),
    volume_type: attr('The type of the volume mapping to a backend, if any.', 'string'),
    metadata: attr('Key/value pairs associated with the volume.', 'string'),
    source_volid: attr('The volume used as source, if any.', 'string'),
    status: attr('The current status of the volume.', 'string'),
    created_at: attr('The timestamp indicating volume creation.', 'string'),
    bootable: attr('Boolean indicating if the volume can be booted or not.', 'string'),
    metadata_values: attr('Key/value pairs associated with the volume in raw dict form.', 'map'),
    encrypted: attr('Boolean indicating if the volume is encrypted or not.', 'string'),
    attachments: {
      ...attr('A string representation of the list of attachments of the volume.', 'string'),
      supportStatus: {
        status: 'DEPRECATED',
        version: '9.0.0',
        message: 'Use property attachments_list.',
        previousStatus: { version: '2015.1' },
      },
    },
    attachments_list: {
      ...attr('The list of attachments of the volume.', 'list'),
      supportStatus: { version: '9.0.0' },
    },
    multiattach: {
      ...attr('Boolean indicating whether allow the volume to be attached more than once.', 'boolean'),
      supportStatus: { version: '6.0.0' },
    },
    show: attr('Detailed information about resource.', 'map'),
  },

  validate(properties: Record<string, Value>, path: DocPath): void {
    const given = (name: string) => properties[name] !== null && properties[name] !== undefined;
    if (
      ['size', 'image', 'imageRef', 'source_volid', 'snapshot_id', 'backup_id'].some(
        (n) => properties[n] === UNKNOWN,
      )
    )
      return;
    if (given('image') && given('imageRef')) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: image, imageRef',
        path,
      );
    }
    // Heat checks the other sources only when the volume is not made from a backup.
    if (fromBackup(properties)) return;
    const exclusive = ['snapshot_id', 'source_volid', 'image', 'imageRef'].filter(given);
    const noSize = exclusive.filter((n) => n === 'snapshot_id' || n === 'source_volid');
    if (!given('size') && (noSize.length !== 1 || exclusive.length !== 1)) {
      throw new TemplateError(
        'property',
        'If neither "backup_id" nor "size" is provided, one and only one of "source_volid", "snapshot_id" must be ' +
          `specified, but currently specified options: [${exclusive.map((n) => `'${n}'`).join(', ')}].`,
        path,
      );
    }
    if (given('size') && exclusive.length > 1) {
      throw new TemplateError(
        'property',
        'If "size" is provided, only one of "image", "imageRef", "source_volid", "snapshot_id" can be specified, ' +
          `but currently specified options: [${exclusive.map((n) => `'${n}'`).join(', ')}].`,
        path,
      );
    }
  },

  async create(ctx, properties) {
    const cloud = ctx.openstack();
    const marker = createMarker(ctx);
    try {
      let id = await findMarkedVolume(ctx, marker);
      if (id === undefined) {
        const image = properties.image as string | null;
        const imageRef = image
          ? (await cloud.findByNameOrId('image', '/images', 'images', image)).id
          : properties.imageRef;
        const hints = properties.scheduler_hints as JsonObject | null;
        const backup = fromBackup(properties);
        const made = await cloud.request<{ volume: Volume }>(
          CINDER,
          'POST',
          '/volumes',
          {
            volume: {
              ...present(properties, [
                'size',
                'description',
                'availability_zone',
                'snapshot_id',
                'source_volid',
                'backup_id',
                'volume_type',
              ]),
              ...(imageRef ? { imageRef } : {}),
              ...(properties.multiattach ? { multiattach: true } : {}),
              name: (properties.name as string | null) ?? physicalResourceName(ctx),
              metadata: { ...((properties.metadata as JsonObject | null) ?? {}), [MARKER_KEY]: marker },
            },
            ...(hints ? { 'OS-SCH-HNT:scheduler_hints': hints } : {}),
          },
          backup ? { microversion: BACKUP_MICROVERSION } : {},
        );
        id = made.body.volume.id;
      }
      return {
        physicalId: id,
        progress: { readOnly: (properties.read_only as boolean | null) ?? null },
        pollAfterMs: 1000,
      };
    } catch (error) {
      throw failure('creating the volume', error);
    }
  },

  async checkCreateComplete(ctx, progress) {
    const vol = await showVolume(ctx).catch((error: unknown) => {
      throw failure('creating the volume', error);
    });
    if (!reached(vol.status, wait(vol.id, ['available'], ['creating', 'downloading', 'restoring-backup']))) {
      return again(progress);
    }
    // Cinder sets the flag only on an available volume, hence after create.
    const readOnly = (progress as { readOnly: boolean | null }).readOnly;
    if (readOnly !== null) await volumeAction(ctx, 'os-update_readonly_flag', { readonly: readOnly });
    return { done: true, data: { volume_type: vol.volume_type ?? null } };
  },

  async update(ctx, properties, _previous, changed) {
    const cloud = ctx.openstack();
    const path = `/volumes/${ctx.physicalId}`;
    try {
      const vol = await showVolume(ctx);
      const size = properties.size as number | null;
      if (changed.includes('size') && size !== null && size < vol.size) {
        throw new ResourceFailure(`Shrinking volume is not supported (volume ${vol.id} is ${vol.size} GB).`);
      }
      if (changed.includes('name') || changed.includes('description')) {
        await cloud.request(CINDER, 'PUT', path, {
          volume: {
            name: (properties.name as string | null) ?? vol.name,
            description: properties.description ?? null,
          },
        });
      }
      if (changed.includes('metadata')) {
        const marker = vol.metadata[MARKER_KEY];
        await cloud.request(CINDER, 'PUT', `${path}/metadata`, {
          metadata: {
            ...((properties.metadata as JsonObject | null) ?? {}),
            ...(marker ? { [MARKER_KEY]: marker } : {}),
          },
        });
      }
      const steps: Step[] = [];
      if (changed.includes('backup_id') && properties.backup_id) {
        steps.push({ op: 'restore', backup: properties.backup_id as string });
      }
      if (changed.includes('volume_type') && properties.volume_type) {
        steps.push({ op: 'retype', type: properties.volume_type as string });
      }
      if (changed.includes('size') && size !== null && size > vol.size) steps.push({ op: 'extend', size });
      if (changed.includes('read_only') && properties.read_only !== null) {
        steps.push({ op: 'read_only', value: properties.read_only as boolean });
      }
      return steps.length > 0 ? asAction(await runSteps(ctx, steps)) : {};
    } catch (error) {
      throw failure(`updating the volume ${ctx.physicalId}`, error);
    }
  },

  async checkUpdateComplete(ctx, progress) {
    try {
      return await runSteps(ctx, (progress as { steps: Step[] }).steps);
    } catch (error) {
      throw failure(`updating the volume ${ctx.physicalId}`, error);
    }
  },

  async delete(ctx) {
    const id = ctx.physicalId ?? (await findMarkedVolume(ctx, createMarker(ctx)));
    if (id === undefined) return {};
    return asAction(await deleteStep(ctx, id, 'delete'));
  },

  async checkDeleteComplete(ctx, progress) {
    const p = progress as { id: string; phase: 'delete' | 'gone'; busy?: number };
    return deleteStep(ctx, p.id, p.phase, p.busy);
  },

  ...volumeSnapshots,

  async check(ctx) {
    const vol = await showVolume(ctx).catch((error: unknown) => {
      throw failure('checking the volume', error);
    });
    if (!STEADY.includes(vol.status)) {
      throw new ResourceFailure(`Volume ${vol.id} is in status ${vol.status}, expected available or in-use`);
    }
  },

  async getReality(ctx): Promise<RealityState> {
    if (!ctx.physicalId) return { state: 'gone' };
    try {
      const v = await showVolume(ctx);
      const { readonly, ...metadata } = userMetadata(v);
      const stored = ctx.storedProperties ?? {};
      const readOnly = readonly === 'True';
      // Cinder's defaults (its default type, a writable volume) are no drift from an unset property.
      const defaultType = (stored.volume_type ?? null) === null && v.volume_type === ctx.data.volume_type;
      return {
        state: 'present',
        properties: {
          name: v.name,
          description: v.description,
          size: v.size,
          metadata,
          volume_type: defaultType ? null : v.volume_type,
          read_only: (stored.read_only ?? null) === null && !readOnly ? null : readOnly,
        },
        ...(v.status.startsWith('error') ? { failure: `volume status ${v.status}` } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) return { state: 'gone' };
      throw error;
    }
  },

  async attribute(ctx, name) {
    if (!ctx.physicalId) return null;
    const v = await oncePerContext(ctx, 'volume', () => showVolume(ctx));
    const metadata = userMetadata(v);
    switch (name) {
      case 'show':
        return { ...v, metadata } as Value;
      case 'metadata':
        return JSON.stringify(metadata);
      case 'metadata_values':
        return metadata;
      case 'display_name':
        return v.name;
      case 'display_description':
        return v.description;
      case 'size':
        return String(v.size);
      case 'attachments':
        return JSON.stringify(v.attachments);
      case 'attachments_list':
        return v.attachments as Value;
      case 'multiattach':
        return Boolean(v.multiattach);
      case 'encrypted':
        // Heat shows Python's str() of the flag.
        return v.encrypted ? 'True' : 'False';
      default: {
        const value = v[name];
        return value === null || value === undefined ? null : String(value as Json);
      }
    }
  },
};
