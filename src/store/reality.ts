import type { Json } from '../util/json.js';

/* The store's records of reality: drift detection results, the observer's heals and counts. */

/** What drift detection found for one resource (engine/reality/drift.ts). */
export type DriftStatus = 'IN_SYNC' | 'MODIFIED' | 'DELETED' | 'ERROR' | 'NOT_CHECKED' | 'FAILED';

export const DRIFT_STATUSES: readonly DriftStatus[] = [
  'IN_SYNC',
  'MODIFIED',
  'DELETED',
  'ERROR',
  'NOT_CHECKED',
  'FAILED',
];

/** The statuses a converge or a heal acts on: the live state is not what was converged to. */
export const DRIFTED: ReadonlySet<DriftStatus> = new Set(['MODIFIED', 'DELETED', 'ERROR']);

/** A property whose live value differs from the one the resource was last converged to. */
export interface PropertyDrift {
  name: string;
  expected: Json;
  actual: Json;
}

/** The last drift detection's result for one resource of a stack (one row per stack and name). */
export interface DriftRecord {
  stackId: string;
  resourceName: string;
  resourceType: string;
  physicalId: string | null;
  status: DriftStatus;
  /** The differing properties (MODIFIED), secret values masked; empty otherwise. */
  diff: PropertyDrift[];
  /** Why a resource was NOT_CHECKED, its ERROR state, or the error of a FAILED read; null otherwise. */
  reason: string | null;
  detectedAt: string;
}

/** How often the observer healed a resource lately (engine/reality/heal-policy.ts): bounds and flapping. */
export interface HealRecord {
  stackId: string;
  resourceName: string;
  rootStackId: string;
  /** Heals started since the resource last stayed in sync for a whole heal window. */
  attempts: number;
  /** When the last one started (ms since the epoch). */
  lastAt: number;
}

/** What continuous observation cost a project, for operators (metrics). */
export interface ObserverCounts {
  projectId: string;
  /** Resources whose live state was read. */
  checks: number;
  /** Observations that found a resource drifted (MODIFIED, DELETED or ERROR). */
  drifts: number;
  /** Heal traversals started. */
  heals: number;
}

/** The last detection over some stacks, counted by the database (one aggregate query). */
export interface DriftSummary {
  counts: Record<DriftStatus, number>;
  /** When the newest result was observed; null when there is none. */
  detectedAt: string | null;
}

/** The results of drift detection. */
export interface DriftRepository {
  /** Replaces every stored result of the stack with `records` (one detection's; none: clears them). */
  replace(stackId: string, rootStackId: string, records: readonly DriftRecord[]): Promise<void>;
  /** The stored results of a stack, by resource name. */
  list(stackId: string): Promise<DriftRecord[]>;
  /** The stored results of these stacks counted by status, with the newest detection time. */
  summary(stackIds: readonly string[]): Promise<DriftSummary>;
}

/** The observer's heal records. */
export interface HealRepository {
  /** The records of a tree's stacks (one read for a whole observation), by stack and name. */
  listTree(rootStackId: string): Promise<HealRecord[]>;
  /** Inserts or replaces these records (by stack and resource name). */
  put(records: readonly HealRecord[]): Promise<void>;
  remove(stackId: string, names: readonly string[]): Promise<void>;
  /** Forgets every record of a tree (a person updated the stack: bounds start again). */
  clearTree(rootStackId: string): Promise<void>;
}

/** The observer's counters, by project. */
export interface ObserverCountRepository {
  /** Adds to a project's counters (created at zero). */
  add(counts: ObserverCounts): Promise<void>;
  list(): Promise<ObserverCounts[]>;
}
