import type { WorkItem } from '../store/contract.js';
import { CleanupBatch } from './nodes/batches/cleanup-batch.js';
import type { EngineDeps } from './core/deps.js';
import { ROLLBACK } from './nodes/failure.js';
import { LEGACY } from './legacy/begin.js';
import { runLegacy } from './legacy/run.js';
import { CHECK_NODE } from './core/nodes.js';
import { OBSERVE } from './operations/observation.js';
import { runObservation } from './reality/observer.js';
import { RELEASE_CREDENTIALS, runRelease } from './core/release-credentials.js';
import { runNode } from './nodes/run-node.js';
import { runSignal, SIGNAL } from './operations/signal.js';
import { runSnapshotDelete } from './operations/snapshot.js';
import { DELETE_SNAPSHOT } from './core/snapshot-state.js';
import type { TemplateCache } from './core/templates.js';
import { rollbackStack } from './operations/update.js';
import { UpdateBatch } from './nodes/batches/update-batch.js';
import type { UnitRunner, WorkKinds } from './runtime/worker.js';

/**
 * Every kind of unit the engine queues, and what runs it: the registry the worker is built with,
 * so that the worker knows how to claim and run units but nothing of what they mean.
 */
export function engineWorkKinds(deps: EngineDeps, cache: TemplateCache): WorkKinds {
  const runners = new Map<string, UnitRunner>([
    [CHECK_NODE, (item, { running }) => runNode(deps, cache, item, running)],
    [ROLLBACK, (item) => runRollback(deps, cache, item)],
    [SIGNAL, (item) => runSignal(deps, cache, item)],
    [OBSERVE, (item) => runObservation(deps, cache, item)],
    [LEGACY, (item, { stop }) => runLegacy(deps, cache, item, stop)],
    [RELEASE_CREDENTIALS, (item, { log }) => runRelease(deps, item, log)],
    [DELETE_SNAPSHOT, (item, { log }) => runSnapshotDelete(deps, item, log)],
  ]);
  return {
    runners,
    longRunning: new Set([LEGACY]),
    batches: [
      {
        accepts: (item) => UpdateBatch.accepts(item),
        start: ({ running, next }) => {
          const batch = new UpdateBatch(deps, cache, running, next);
          return (items) => batch.run(items);
        },
      },
      {
        accepts: (item) => CleanupBatch.accepts(item),
        start: ({ running, next }) => {
          const batch = new CleanupBatch(deps, cache, running, next);
          return (items) => batch.run(items);
        },
      },
    ],
  };
}

async function runRollback(deps: EngineDeps, cache: TemplateCache, item: WorkItem): Promise<void> {
  await rollbackStack(deps, cache, item.stackId);
  await deps.store.tx((tx) => tx.work.complete(item));
}
