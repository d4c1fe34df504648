/**
 * CLUSTER_INJECT=duplicate|leak (read only by the cluster tests' harness) plants a fault in the
 * fake cloud halfway through the first traversal a test waits for, to show the checks catch it:
 * `duplicate` copies one of the stack's physical objects under a new id (same idempotency key),
 * `leak` adds an object no resource points at. Either must fail the test.
 */
import type { PhysicalObject } from '../../src/resources/contract.js';
import type { PostgresReality } from '../../src/resources/reality/postgres.js';
import { TEST_RESOURCE } from '../crash/template.js';

export type Injection = 'duplicate' | 'leak';

/** The injection asked for, if any (an unknown name is an error, not a silent no-op). */
export function requestedInjection(value = process.env.CLUSTER_INJECT): Injection | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'duplicate' || value === 'leak') return value;
  throw new Error(`CLUSTER_INJECT=${value}: expected duplicate or leak`);
}

/** Plants `what` among the objects of `stack`; returns a line saying what was planted. */
export async function inject(reality: PostgresReality, stack: string, what: Injection): Promise<string> {
  if (what === 'leak') {
    const leaked: PhysicalObject = {
      id: `${stack}-injected-leak`,
      key: `${stack}-injected-leak`,
      type: TEST_RESOURCE,
      properties: { value: 'injected' },
      status: 'ACTIVE',
    };
    await reality.put(leaked);
    return `injected a leak: ${leaked.id}`;
  }
  const original = (await reality.list()).find((o) => o.id.startsWith(`${stack}-`));
  if (!original) throw new Error(`CLUSTER_INJECT=duplicate: no object of ${stack} to copy yet`);
  // Made later, so findByKey (oldest first) still answers the original: the engines see no change.
  const copy = { ...original, id: `${original.id}-injected-copy` };
  await reality.put(copy);
  return `injected a duplicate of ${original.id} (key ${original.key}): ${copy.id}`;
}
