import type { Store, Tx, WorkItem } from '../contract.js';
import type { Dialect, SqlDriver, SqlExecutor } from './driver.js';
import { authRepository, settingsRepository } from './auth.js';
import { driftRepository } from './drift.js';
import { healRepository, observerCountsRepository } from './heals.js';
import { snapshotRepository } from './snapshots.js';
import { softwareRepository } from './software.js';
import { stackLockRepository } from './stack-locks.js';
import { eventsRepository, servicesRepository } from './events.js';
import { migrate, schemaVersion } from './migrate.js';
import { resourcesRepository } from './resources.js';
import { stacksRepository, templatesRepository } from './stacks.js';
import { syncRepository, traversalsRepository } from './sync.js';
import { claimWork, nextWorkTime, workRepository } from './work.js';

/** The store contract over any SQL driver: backends differ only in their driver and dialect. */
export class SqlStore implements Store {
  private readonly workListeners = new Set<() => void>();

  constructor(readonly driver: SqlDriver) {}

  async tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const { dialect } = this.driver;
    let workDue = false;
    const value = await this.driver.transaction(async (db) => {
      // Reset on each attempt: a driver may run the transaction again.
      workDue = false;
      const result = await fn(repositories(db, dialect, () => (workDue = true)));
      // Other processes hear of it at commit (PostgreSQL delivers notifications then).
      if (workDue && dialect.notifyWork) await db.run(dialect.notifyWork);
      return result;
    });
    if (workDue) this.workAvailable();
    return value;
  }

  async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const { driver } = this;
    const { dialect } = driver;
    const refuseWork = () => {
      throw new Error('a read transaction cannot enqueue work');
    };
    if (driver.readTransaction) {
      return driver.readTransaction((db) => fn(repositories(db, dialect, refuseWork)));
    }
    // No read connection (PostgreSQL, where reads never wait for writers; SQLite in memory):
    // an ordinary transaction told to refuse writes.
    return driver.transaction(async (db) => {
      await db.run(dialect.readOnlyBegin);
      try {
        return await fn(repositories(db, dialect, refuseWork));
      } finally {
        if (dialect.readOnlyEnd) await db.run(dialect.readOnlyEnd);
      }
    });
  }

  claimWork(engineId: string, now: number, limit: number, leaseMs: number): Promise<WorkItem[]> {
    return claimWork(this.driver, engineId, now, limit, leaseMs);
  }

  nextWorkTime(): Promise<number | undefined> {
    return nextWorkTime(this.driver);
  }

  onWork(listener: () => void): () => void {
    this.workListeners.add(listener);
    return () => this.workListeners.delete(listener);
  }

  /** Tells this process's listeners that work may be due. */
  protected workAvailable(): void {
    for (const listener of this.workListeners) listener();
  }

  migrate(): Promise<number> {
    return migrate(this.driver);
  }

  schemaVersion(): Promise<number> {
    return schemaVersion(this.driver);
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}

function repositories(db: SqlExecutor, dialect: Dialect, workTouched: () => void): Tx {
  return {
    stacks: stacksRepository(db),
    templates: templatesRepository(db, dialect),
    resources: resourcesRepository(db, dialect),
    traversals: traversalsRepository(db),
    sync: syncRepository(db, dialect),
    events: eventsRepository(db, dialect),
    work: workRepository(db, dialect, workTouched),
    drift: driftRepository(db, dialect),
    heals: healRepository(db, dialect),
    observerCounts: observerCountsRepository(db),
    snapshots: snapshotRepository(db),
    stackLocks: stackLockRepository(db),
    auth: authRepository(db),
    settings: settingsRepository(db),
    services: servicesRepository(db),
    software: softwareRepository(db),
  };
}

/** Brings a newly opened store's schema up to date unless told not to; closes it if that fails. */
export async function migrated<S extends Store>(store: S, migrate = true): Promise<S> {
  if (!migrate) return store;
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
