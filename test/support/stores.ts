import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/contract.js';
import { freshSchemaUrl } from './postgres.js';

/**
 * The backend the engine suite runs on: SQLite in memory by default, PostgreSQL (a new schema per
 * store) when HEARTH_TEST_BACKEND=postgres. `npm test` runs the suite once on each.
 */
export const TEST_BACKEND = process.env.HEARTH_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** A new, empty, migrated store on the test backend. */
export async function openTestStore(): Promise<Store> {
  if (TEST_BACKEND === 'sqlite') return openStore(':memory:');
  // HEARTH_TEST_PG_CONFLICTS=0.2 makes a fifth of transactions fail once and run again: a caller
  // whose transaction does more than touch the database shows up as a failing test.
  const injectConflicts = Number(process.env.HEARTH_TEST_PG_CONFLICTS ?? 0);
  return openStore(await freshSchemaUrl(), { injectConflicts });
}
