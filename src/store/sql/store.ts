import type { Store, Tx, WorkItem } from '../contract.js';
import type { Dialect, SqlDriver, SqlExecutor } from './driver.js';
import { authRepository, settingsRepository } from './auth.js';
import { eventsRepository, servicesRepository } from './events.js';
import { migrate } from './migrate.js';
import { resourcesRepository } from './resources.js';
import { stacksRepository, templatesRepository } from './stacks.js';
import { syncRepository, traversalsRepository } from './sync.js';
import { claimWork, nextWorkTime, workRepository } from './work.js';

/** The store contract over any SQL driver: backends differ only in their driver and dialect. */
export class SqlStore implements Store {
  constructor(private readonly driver: SqlDriver) {}

  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.driver.transaction((db) => fn(repositories(db, this.driver.dialect)));
  }

  claimWork(engineId: string, now: number, limit: number, leaseMs: number): Promise<WorkItem[]> {
    return claimWork(this.driver, engineId, now, limit, leaseMs);
  }

  nextWorkTime(): Promise<number | undefined> {
    return nextWorkTime(this.driver);
  }

  async migrate(): Promise<void> {
    await migrate(this.driver);
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}

function repositories(db: SqlExecutor, dialect: Dialect): Tx {
  return {
    stacks: stacksRepository(db),
    templates: templatesRepository(db),
    resources: resourcesRepository(db, dialect),
    traversals: traversalsRepository(db),
    sync: syncRepository(db, dialect),
    events: eventsRepository(db, dialect),
    work: workRepository(db, dialect),
    auth: authRepository(db),
    settings: settingsRepository(db),
    services: servicesRepository(db),
  };
}
