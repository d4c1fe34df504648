import { createHash } from 'node:crypto';
import type { Value } from '../../template/functions/types.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';

/*
 * A group's update_policy (Heat's batch_create and rolling_update) expressed in its generated
 * child template: members go in batches, each batch depending on the one before (so the child's
 * traversal creates or updates them batch by batch), with an OS::Heat::Delay between batches for
 * pause_time. The pauses are named for the member definition they separate, so an update that
 * changes the members makes new pauses, which wait as they are created.
 */

const PAUSE_PREFIX = 'batch-pause-';

export interface Batching {
  size: number;
  pauseSecs: number;
}

function int(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : fallback;
}

/**
 * The batches for creating (batch_create) or updating (rolling_update: at most max_batch_size at
 * a time, and never fewer than min_in_service members left out of a batch) `count` members.
 */
export function batching(
  updatePolicy: Value | undefined,
  creating: boolean,
  count: number,
): Batching | undefined {
  if (!isPlainObject(updatePolicy)) return undefined;
  const policy = creating ? updatePolicy.batch_create : updatePolicy.rolling_update;
  if (!isPlainObject(policy)) return undefined;
  let size = Math.max(1, int(policy.max_batch_size, 1));
  if (!creating) size = Math.max(1, Math.min(size, count - Math.max(0, int(policy.min_in_service, 0))));
  const pauseSecs = typeof policy.pause_time === 'number' ? Math.max(0, policy.pause_time) : 0;
  return { size, pauseSecs };
}

/** Whether a child resource is a pause between batches rather than a member. */
export function isPause(name: string): boolean {
  return name.startsWith(PAUSE_PREFIX);
}

/**
 * Adds the batches' dependencies (and pauses) to `resources`, whose members are `names` in order.
 * `definition` is what the members are made from: it names the pauses.
 */
export function addBatches(
  resources: JsonObject,
  names: readonly string[],
  batches: Batching,
  definition: Json,
): void {
  const tag = createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 8);
  for (let i = batches.size; i < names.length; i++) {
    const batch = Math.floor(i / batches.size);
    const previous = names.slice((batch - 1) * batches.size, batch * batches.size);
    let dependsOn: string[] = previous;
    if (batches.pauseSecs > 0) {
      const pause = `${PAUSE_PREFIX}${batch}-${tag}`;
      if (!Object.hasOwn(resources, pause)) {
        setOwn(resources, pause, {
          type: 'OS::Heat::Delay',
          properties: { min_wait: batches.pauseSecs },
          depends_on: previous,
        });
      }
      dependsOn = [pause];
    }
    (resources[names[i]!] as JsonObject).depends_on = dependsOn;
  }
}
