import type { StackCredentials, StackRecord, Tx, WorkItem } from '../../store/contract.js';
import type { Json } from '../../util/json.js';
import type { EngineDeps } from './deps.js';

/**
 * A deleted root stack's credentials are given up (its Keystone trust deleted, as Heat deletes a
 * stack's trust): a unit of work queued in the transaction that completes the delete, so a crash
 * loses nothing, and run after it, so a Keystone that fails never blocks a delete. A trust already
 * gone is done; other failures are tried again a few times, then logged and left.
 */

export const RELEASE_CREDENTIALS = 'release_credentials';
const TRIES = 4;

interface Payload {
  projectId: string;
  credentials: StackCredentials;
  tries?: number;
}

/** Queues the release of a deleted stack's credentials, if it is a root holding any. */
export async function enqueueRelease(tx: Tx, stack: StackRecord): Promise<void> {
  if (stack.parentId !== null || stack.credentials?.kind !== 'trust') return;
  const payload: Payload = { projectId: stack.projectId, credentials: stack.credentials };
  await tx.work.enqueue([
    {
      rootStackId: stack.rootId,
      stackId: stack.id,
      traversalId: `release:${stack.id}`,
      kind: RELEASE_CREDENTIALS,
      node: RELEASE_CREDENTIALS,
      payload: payload as unknown as Json,
    },
  ]);
}

export async function runRelease(
  deps: EngineDeps,
  item: WorkItem,
  log: (message: string) => void,
): Promise<void> {
  const payload = item.payload as unknown as Payload;
  const tries = (payload.tries ?? 0) + 1;
  try {
    await deps.releaseCredentials?.({ projectId: payload.projectId, credentials: payload.credentials });
  } catch (error) {
    const what = `the credentials of deleted stack ${item.stackId} (project ${payload.projectId})`;
    if (tries < TRIES) {
      log(`${what} could not be released (attempt ${tries}): ${(error as Error).message}; trying again`);
      const next = { ...payload, tries } as unknown as Json;
      await deps.store.tx((tx) => tx.work.reschedule(item, deps.clock.now() + 2000 * 2 ** tries, next));
      return;
    }
    log(`${what} could not be released, giving up: ${(error as Error).message}`);
  }
  await deps.store.tx((tx) => tx.work.complete(item));
}
