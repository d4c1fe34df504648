import type { ActionResult, ResourcePlugin } from '../../../resources/contract.js';
import type { ResourceRecord, WorkItem } from '../../../store/contract.js';
import type { Json } from '../../../util/json.js';
import { type BatchResult, type ClaimedNext, loadBatch, lockBatch, recordBatch } from './batch.js';
import { hasHook } from '../../context/hooks.js';
import { childStackOf } from '../../context/child-stack.js';
import { afterDelete, deleteFailed, pluginToDelete } from '../cleanup-node.js';
import type { EngineDeps } from '../../core/deps.js';
import { resourceEvent } from '../../core/events.js';
import { type NodeScope, payloadOf, pluginContext } from '../../context/node-work.js';
import { CHECK_NODE } from '../../core/nodes.js';
import type { TemplateCache } from '../../core/templates.js';
import { retryLater } from '../../context/node-work.js';

/**
 * The common case of cleanup nodes, many at once: the first step on an unlocked row whose delete
 * completes at once, or that only leaves the database (never created, retained, a type no longer
 * known). The semantics are cleanup-node.ts's, step for step, with the transactions shared as in
 * update-batch.ts; a nested stack, a held lock, a failure or a long delete goes to the single path.
 */
export class CleanupBatch {
  constructor(
    private readonly deps: EngineDeps,
    private readonly cache: TemplateCache,
    private readonly running: ReadonlySet<number>,
    /** Where the dependents this batch makes ready go, claimed (none: they are enqueued due). */
    private readonly next?: ClaimedNext,
  ) {}

  /** A cleanup node's first step; not a delete being retried (the single path counts those). */
  static accepts(item: WorkItem): boolean {
    const payload = payloadOf(item);
    return (
      item.kind === CHECK_NODE && payload.phase === 'start' && !payload.retries && item.node.startsWith('c:')
    );
  }

  /** Runs what it can of `items`; returns the items left for the single path. */
  async run(items: readonly WorkItem[]): Promise<WorkItem[]> {
    const loaded = await loadBatch(this.deps, this.cache, this.running, items, false);
    const single: WorkItem[] = [];
    const drop: NodeScope[] = [];
    const results: BatchResult[] = [];
    const deleting: Deleting[] = [];
    for (const [item, state] of loaded) {
      if (!state) {
        single.push(item);
        continue;
      }
      const { scope, row } = state;
      if (!scope.current || !scope.point || scope.point.done) drop.push(scope);
      else if (!row || (row.action === 'DELETE' && row.status === 'COMPLETE'))
        results.push({ scope, events: () => [], output: { rowId: row?.id ?? null } });
      else if (row.engineId !== null || childStackOf(row) !== undefined) single.push(item);
      else {
        const plugin = await pluginToDelete(scope, row);
        if (!plugin) results.push(this.finished(scope, row, null, false));
        else if (await hasHook(scope, row, 'delete')) single.push(item);
        else deleting.push({ scope, row, plugin });
      }
    }

    const locked = await this.lock(deleting.filter((d) => !d.plugin.inRow));
    await Promise.all(
      [...deleting.filter((d) => d.plugin.inRow), ...locked].map(async (d) => {
        const outcome = await this.delete(d);
        if (outcome === 'single') single.push(d.scope.item);
        else if (outcome) results.push(outcome);
      }),
    );
    const lost = await recordBatch(this.deps, results, drop, this.next);
    await Promise.all(lost.map((scope) => retryLater(scope)));
    return single;
  }

  /** One transaction locks the rows whose delete reaches outside the row. */
  private async lock(deleting: readonly Deleting[]): Promise<Deleting[]> {
    const now = this.deps.clock.now();
    const locked = await lockBatch(
      this.deps,
      deleting.map(({ scope, row }) => ({
        row,
        expectedEngine: null,
        changes: { engineId: scope.holder, action: 'DELETE', status: 'IN_PROGRESS', reason: 'state changed' },
      })),
      (_, next) => resourceEvent(next, 'DELETE', 'IN_PROGRESS', 'state changed', now),
    );
    await Promise.all(deleting.filter((_, i) => !locked.has(i)).map((d) => retryLater(d.scope)));
    return [...locked].map(([index, row]) => ({
      holder: deleting[index]!.scope.holder,
      ...deleting[index]!,
      row,
    }));
  }

  /**
   * The plugin's delete. Done at once: returned for recording. Otherwise a locked delete goes on
   * on the single path's terms (polling, failure); an in-row one, which has changed nothing yet,
   * is left to the single path whole.
   */
  private async delete(d: Deleting): Promise<BatchResult | 'single' | undefined> {
    const { scope, row, plugin } = d;
    let result: ActionResult;
    try {
      result = await plugin.delete(pluginContext(scope, row));
    } catch (err) {
      if (plugin.inRow) return 'single';
      await deleteFailed(scope, row, err, 0);
      return undefined;
    }
    if (result.progress !== undefined) {
      if (plugin.inRow) return 'single';
      await afterDelete(scope, plugin, row, result, 0, 0);
      return undefined;
    }
    return this.finished(scope, row, plugin.inRow ? null : d.holder!, true);
  }

  /**
   * The row deleted (`deleted`) or only dropped from the database. A stack's delete removes it
   * now, as Heat does; another traversal's cleanup marks it, purged when the traversal ends.
   */
  private finished(
    scope: NodeScope,
    row: ResourceRecord,
    holder: string | null,
    deleted: boolean,
  ): BatchResult {
    const now = this.deps.clock.now();
    const reason = deleted ? 'state changed' : 'deleted from the database only';
    // An in-row delete took no lock, so its start is told here, with its end.
    const toldStart = deleted && holder === null;
    return {
      scope,
      write: {
        row,
        expectedEngine: holder,
        changes: { engineId: null, action: 'DELETE', status: 'COMPLETE', reason, progress: null },
        ...(scope.traversal?.action === 'DELETE' ? { remove: true as const } : {}),
      },
      events: (next) => [
        ...(toldStart ? [resourceEvent(next, 'DELETE', 'IN_PROGRESS', 'state changed', now)] : []),
        resourceEvent(next, 'DELETE', 'COMPLETE', reason, now),
      ],
      output: { rowId: row.id } as Json,
    };
  }
}

interface Deleting {
  scope: NodeScope;
  row: ResourceRecord;
  plugin: ResourcePlugin;
  /** The lock holder the row has now (set once this batch locked it). */
  holder?: string;
}
