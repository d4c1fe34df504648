import type { Volume } from './types.js';

/** Volumes as Cinder's API shows them. */

function links(base: string, volume: Volume) {
  return [
    { href: `${base}/volume/v3/${volume.project_id}/volumes/${volume.id}`, rel: 'self' },
    { href: `${base}/volume/${volume.project_id}/volumes/${volume.id}`, rel: 'bookmark' },
  ];
}

/** The metadata Cinder shows: the user's, plus the read-only flag once it was set. */
function shownMetadata(volume: Volume): Record<string, string> {
  return volume.readonly ? { ...volume.metadata, readonly: 'True' } : volume.metadata;
}

/** `GET /volumes` items. */
export function summaryView(base: string, volume: Volume) {
  return { id: volume.id, name: volume.name, links: links(base, volume) };
}

/** `GET /volumes/{id}` and `/volumes/detail` items. */
export function detailView(base: string, volume: Volume, admin: boolean) {
  return {
    id: volume.id,
    name: volume.name,
    description: volume.description,
    status: volume.status,
    size: volume.size,
    availability_zone: volume.availability_zone,
    created_at: volume.created_at,
    updated_at: volume.updated_at,
    // Cinder's quirk: an attachment's `id` is the volume's id; its own id is `attachment_id`.
    attachments: volume.attachments.map((a) => ({
      id: volume.id,
      attachment_id: a.attachment_id,
      volume_id: volume.id,
      server_id: a.server_id,
      host_name: a.host_name,
      device: a.device,
      attached_at: a.attached_at,
    })),
    volume_type: volume.volume_type,
    volume_type_id: volume.volume_type_id,
    bootable: volume.bootable ? 'true' : 'false',
    encrypted: false,
    multiattach: volume.multiattach,
    metadata: shownMetadata(volume),
    ...(volume.image
      ? {
          volume_image_metadata: {
            image_id: volume.image.id,
            image_name: volume.image.name,
            min_disk: String(volume.image.min_disk),
            disk_format: volume.image.disk_format,
            container_format: volume.image.container_format,
          },
        }
      : {}),
    'os-vol-tenant-attr:tenant_id': volume.project_id,
    user_id: volume.user_id,
    links: links(base, volume),
    snapshot_id: volume.snapshot_id,
    source_volid: volume.source_volid,
    replication_status: null,
    consistencygroup_id: null,
    group_id: null,
    provider_id: null,
    service_uuid: null,
    shared_targets: true,
    cluster_name: null,
    consumes_quota: true,
    'os-vol-mig-status-attr:migstat': null,
    'os-vol-mig-status-attr:name_id': null,
    ...(admin ? { 'os-vol-host-attr:host': 'sandbox@lvmdriver-1#lvmdriver-1' } : {}),
  };
}
