import type { SandboxObject } from '../state.js';

/** The state kind volumes are stored under. */
export const VOLUME = 'volume';

/** One attachment of a volume to a server, as stored in the volume. */
export type AttachmentRecord = {
  attachment_id: string;
  server_id: string;
  device: string;
  attached_at: string;
  host_name: string | null;
};

/**
 * A status the volume reaches by itself at `at` (epoch ms): `creating` -> `available`, `extending`
 * -> back to what it was, `deleting` -> gone (`to: null`). Applied lazily when the volume is read.
 */
export type Transition = {
  to: string | null;
  at: number;
};

/** A stored volume: Cinder's fields that are state (the view adds the derived ones). */
export interface Volume extends SandboxObject {
  name: string | null;
  description: string | null;
  status: string;
  size: number;
  availability_zone: string;
  created_at: string;
  updated_at: string | null;
  volume_type: string;
  volume_type_id: string;
  bootable: boolean;
  readonly: boolean;
  multiattach: boolean;
  metadata: Record<string, string>;
  user_id: string;
  project_id: string;
  snapshot_id: string | null;
  source_volid: string | null;
  image: {
    id: string;
    name: string;
    min_disk: number;
    disk_format: string;
    container_format: string;
  } | null;
  attachments: AttachmentRecord[];
  transition: Transition | null;
}

/** Cinder's volume types: the seeded ones. */
export interface VolumeType {
  id: string;
  name: string;
  description: string | null;
}

export const VOLUME_TYPES: readonly VolumeType[] = [
  { id: '5f4bd5a4-2d6f-4bc4-8a2e-6b9c9d3b0b01', name: '__DEFAULT__', description: 'Default Volume Type' },
  { id: '9c1a7f3e-8d2b-4f55-9e0c-3a6b1d2e4f02', name: 'lvmdriver-1', description: null },
];
export const DEFAULT_VOLUME_TYPE = VOLUME_TYPES[0]!;

/** The only availability zone. */
export const ZONE = 'nova';

/** The microversions served. */
export const MIN_VERSION = '3.0';
export const MAX_VERSION = '3.70';

/** Cinder's timestamps: no zone, microseconds. */
export function cinderTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000');
}
