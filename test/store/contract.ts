import type { Store } from '../../src/store/contract.js';
import { authContract } from './contract-auth.js';
import { driftContract } from './contract-drift.js';
import { healContract } from './contract-heals.js';
import { snapshotContract } from './contract-snapshots.js';
import { softwareContract } from './contract-software.js';
import { stackLockContract } from './contract-stack-locks.js';
import { eventsContract } from './contract-events.js';
import { resourcesContract } from './contract-resources.js';
import { resourcePagesContract } from './contract-resource-pages.js';
import { scaleContract } from './contract-scale.js';
import { stacksContract } from './contract-stacks.js';
import { templatesContract } from './contract-templates.js';
import { transactionContract } from './contract-tx.js';
import { syncContract } from './contract-sync.js';
import { workContract, type WorkContractOptions } from './contract-work.js';

export interface StoreContractOptions extends WorkContractOptions {
  /** Bound on each at-scale step (default 4000 ms: test files run side by side in CI). */
  scaleBoundMs?: number;
}

/**
 * The store contract, as tests every backend must pass. `open` returns a new, migrated, empty
 * store each time (the tests close it).
 */
export function storeContractTests(open: () => Promise<Store>, options: StoreContractOptions = {}): void {
  transactionContract(open);
  stacksContract(open);
  templatesContract(open, options.openPair);
  resourcesContract(open);
  resourcePagesContract(open);
  syncContract(open);
  workContract(open, options);
  eventsContract(open);
  driftContract(open);
  healContract(open);
  snapshotContract(open);
  softwareContract(open);
  stackLockContract(open);
  authContract(open);
  scaleContract(open, options.scaleBoundMs);
}
