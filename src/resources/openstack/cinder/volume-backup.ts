import { isNotFound } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { PluginContext, ResourcePlugin } from '../../contract.js';
import { failure } from '../common.js';
import { again, asAction, reached } from '../polling.js';
import { CINDER, MARKER_KEY } from './volumes.js';

/*
 * OS::Cinder::Volume and Cinder backups (Heat's Volume handle_snapshot / handle_restore): a stack
 * snapshot backs the volume up (polled until the backup is available), a restore makes the
 * volume from that backup (`backup_id`: a new volume from it, or the backup restored onto the
 * volume when only `backup_id` changed), and a deleted snapshot deletes its backup.
 */

/** The microversion at which Cinder makes a volume from a backup in one call. */
export const BACKUP_MICROVERSION = '3.47';

export const backupIdProperty = P.string({
  description: 'If specified, the backup to create the volume from.',
  updateAllowed: true,
  constraints: [C.custom('cinder.backup')],
});

interface Backup {
  id: string;
  status: string;
  fail_reason?: string | null;
}

async function showBackup(ctx: PluginContext, id: string): Promise<Backup> {
  const r = await ctx
    .openstack()
    .request<{ backup: Backup }>(CINDER, 'GET', `/backups/${encodeURIComponent(id)}`);
  return r.body.backup;
}

async function backupMade(ctx: PluginContext, id: string) {
  const backup = await showBackup(ctx, id);
  if (
    !reached(
      backup.status,
      { what: `Backup ${id}`, ready: ['available'], pending: ['creating'] },
      backup.fail_reason,
    )
  ) {
    return again({ backupId: id });
  }
  return { done: true, data: { backup_id: id } };
}

/** Restores `backupId` onto the volume (an update changing only where it comes from). */
export async function restoreOnto(ctx: PluginContext, backupId: string): Promise<void> {
  await ctx.openstack().request(CINDER, 'POST', `/backups/${encodeURIComponent(backupId)}/restore`, {
    restore: { volume_id: ctx.physicalId },
  });
}

/** The snapshot hooks of the volume type. */
export const volumeSnapshots: Pick<
  ResourcePlugin,
  'snapshot' | 'checkSnapshotComplete' | 'deleteSnapshot' | 'restoreProperties'
> = {
  async snapshot(ctx) {
    try {
      // The backup's description carries the snapshot's key: a step run again finds it.
      const marker = `${MARKER_KEY}=${ctx.idempotencyKey}`;
      const listed = await ctx
        .openstack()
        .request<{ backups: (Backup & { description?: string | null })[] }>(CINDER, 'GET', '/backups/detail');
      let id = listed.body.backups.find((b) => b.description === marker)?.id;
      if (id === undefined) {
        // force: an attached (in-use) volume is backed up too, as Heat asks.
        const made = await ctx.openstack().request<{ backup: Backup }>(CINDER, 'POST', '/backups', {
          backup: {
            volume_id: ctx.physicalId,
            force: true,
            name: `${ctx.stackName}-${ctx.resourceName}-snapshot`,
            description: marker,
          },
        });
        id = made.body.backup.id;
      }
      const first = await backupMade(ctx, id);
      return { ...asAction(first), data: { backup_id: id } };
    } catch (error) {
      throw failure(`backing up the volume ${ctx.physicalId}`, error);
    }
  },

  async checkSnapshotComplete(ctx, progress) {
    const { backupId } = progress as { backupId: string };
    try {
      return await backupMade(ctx, backupId);
    } catch (error) {
      throw failure(`backing up the volume ${ctx.physicalId}`, error);
    }
  },

  async deleteSnapshot(ctx, data) {
    const id = data.backup_id;
    if (typeof id !== 'string') return;
    try {
      await ctx.openstack().request(CINDER, 'DELETE', `/backups/${encodeURIComponent(id)}`);
    } catch (error) {
      if (!isNotFound(error)) throw failure(`deleting the backup ${id}`, error);
    }
  },

  restoreProperties(properties, data) {
    const backupId = data.backup_id;
    if (typeof backupId !== 'string') return properties;
    // Heat's handle_restore: the volume comes from the backup (its size too, should it have grown since).
    const kept: JsonObject = {};
    for (const [name, value] of Object.entries(properties)) {
      if (['imageRef', 'image', 'source_volid', 'size'].includes(name) || value === null) continue;
      Object.defineProperty(kept, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return { ...kept, backup_id: backupId };
  },
};

/** Whether a volume create names a backup (then no other source or size is needed). */
export function fromBackup(properties: Record<string, Value>): boolean {
  return properties.backup_id !== null && properties.backup_id !== undefined;
}
