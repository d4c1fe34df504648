import type { JsonObject } from '../../util/json.js';
import type { Status } from './actions.js';

/**
 * A stack snapshot (Heat's `stack snapshot create`): what the stack was (template, environment,
 * files, parameters) and what each resource's type recorded of its data (a volume's backup, a
 * server's image), in `data`, Heat's snapshot document.
 */
export interface SnapshotRecord {
  id: string;
  stackId: string;
  projectId: string;
  name: string | null;
  /** IN_PROGRESS while resources are being snapshotted, then COMPLETE or FAILED. */
  status: Status;
  statusReason: string;
  /** The SNAPSHOT traversal taking it (cleared once it ended). */
  traversalId: string;
  data: JsonObject | null;
  /** Set when its delete was asked: a unit of work deletes what it made, then the row. */
  deleting: boolean;
  createdAt: string;
  updatedAt: string | null;
}

/** The snapshots table. */
export interface SnapshotRepository {
  insert(snapshot: SnapshotRecord): Promise<void>;
  get(id: string): Promise<SnapshotRecord | undefined>;
  /** A stack's snapshots, oldest first. */
  list(stackId: string): Promise<SnapshotRecord[]>;
  /** The snapshot a SNAPSHOT traversal is taking, if any. */
  byTraversal(traversalId: string): Promise<SnapshotRecord | undefined>;
  /** Writes `changes`; false when there is no such snapshot. */
  update(
    id: string,
    changes: Partial<Omit<SnapshotRecord, 'id' | 'stackId' | 'projectId'>>,
  ): Promise<boolean>;
  /**
   * Records what one resource's type kept of it under `data.resources[name]`, merged with what
   * is there (resources of one snapshot record theirs concurrently). False: no such snapshot.
   */
  recordResource(id: string, name: string, entry: JsonObject): Promise<boolean>;
  delete(id: string): Promise<void>;
}
