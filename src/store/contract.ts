import type { AuthRepository } from './contract/auth.js';
import type { ResourceRepository, EventRepository } from './contract/resources.js';
import type { ServiceRepository, SettingRepository } from './contract/services.js';
import type { SnapshotRepository } from './contract/snapshots.js';
import type { SoftwareRepository } from './contract/software.js';
import type { StackLockRepository, StackRepository, TemplateRepository } from './contract/stacks.js';
import type { SyncPointRepository, TraversalRepository } from './contract/traversals.js';
import type { WorkItem, WorkRepository } from './contract/work.js';
import type { DriftRepository, HealRepository, ObserverCountRepository } from './reality.js';
export * from './contract/actions.js';
export * from './contract/auth.js';
export * from './contract/resources.js';
export * from './contract/services.js';
export * from './contract/snapshots.js';
export * from './contract/software.js';
export * from './contract/stacks.js';
export * from './contract/traversals.js';
export * from './contract/work.js';
export * from './queries.js';
export * from './reality.js';

/**
 * The persistence contract of Hearth. The engine reads and writes state only through it, and every
 * backend (sqlite/, postgres/) passes the same contract tests. A `Tx` is one database transaction:
 * a state change and the work it enables commit together (the work queue lives in the same
 * database), so no progress exists only in memory. Each table's records and repository are in
 * contract/ (reality.ts for drift, heals and the observer's counts; queries.ts for filters, pages
 * and counts).
 */

/** Repositories available inside a transaction. Every method runs in the transaction it belongs to. */
export interface Tx {
  stacks: StackRepository;
  templates: TemplateRepository;
  resources: ResourceRepository;
  traversals: TraversalRepository;
  sync: SyncPointRepository;
  events: EventRepository;
  work: WorkRepository;
  drift: DriftRepository;
  heals: HealRepository;
  snapshots: SnapshotRepository;
  stackLocks: StackLockRepository;
  observerCounts: ObserverCountRepository;
  auth: AuthRepository;
  settings: SettingRepository;
  services: ServiceRepository;
  software: SoftwareRepository;
}

export interface Store {
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one read-only transaction (a consistent snapshot of committed state; a write
   * fails). It does not wait for this process's long write transactions (SQLite's read
   * connection): for API reads that must stay quick while the engine works.
   */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Claims up to `limit` items whose runAt has come and that no live claim holds, for `lease` ms.
   * Expired claims (a dead engine) are claimable again.
   */
  claimWork(engineId: string, now: number, limit: number, leaseMs: number): Promise<WorkItem[]>;
  /** The time (ms) the next item becomes claimable, or undefined if the queue is empty. */
  nextWorkTime(): Promise<number | undefined>;
  /**
   * Calls `listener` when work may have become due: after a transaction of this process enqueued
   * or woke some, and, where the backend can tell (PostgreSQL's NOTIFY), another process's. Returns
   * what stops it. A hint only: an engine still polls, at a slower pace.
   */
  onWork(listener: () => void): () => void;
  /** Creates or upgrades the schema (versioned migrations); returns the version it is at. */
  migrate(): Promise<number>;
  /** The version the schema is at (0: no schema yet), without changing anything. */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}
