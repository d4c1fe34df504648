import type { Resource, StackEvent } from './api.js';

/** How long events gather before the page applies them: one render per batch, not per event. */
export const BATCH_MS = 200;

/**
 * The resources list with a batch of events (oldest first) applied: each named row takes its
 * newest status. One pass over the list and the batch however many events came (a 10,000-resource
 * create sends 20,000). `missing` tells whether a row the events name is not in the list.
 */
export function applyEvents(
  list: Resource[],
  batch: readonly StackEvent[],
): { next: Resource[]; missing: boolean } {
  const newest = new Map<string, StackEvent>();
  for (const e of batch) newest.set(e.resource_name, e);
  let missing = false;
  let found = 0;
  const next = list.map((r) => {
    const e = newest.get(r.resource_name);
    if (!e) return r;
    found++;
    return {
      ...r,
      resource_status: e.resource_status,
      resource_status_reason: e.resource_status_reason,
      physical_resource_id: e.physical_resource_id ?? r.physical_resource_id,
    };
  });
  if (found < newest.size) missing = true;
  return { next: found === 0 ? list : next, missing };
}

/** Gathers items and hands them over at most every `ms`, in order. Returns push and cancel. */
export function batcher<T>(
  ms: number,
  flush: (items: T[]) => void,
): { push: (item: T) => void; cancel: () => void } {
  let items: T[] = [];
  let timer: number | undefined;
  return {
    push(item) {
      items.push(item);
      timer ??= window.setTimeout(() => {
        timer = undefined;
        const batch = items;
        items = [];
        flush(batch);
      }, ms);
    },
    cancel: () => window.clearTimeout(timer),
  };
}
