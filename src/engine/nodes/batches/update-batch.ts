import { isNestedPlugin } from '../../../resources/nested-type.js';
import type { ActionResult, ResourcePlugin } from '../../../resources/contract.js';
import type { ResourceRecord, WorkItem } from '../../../store/contract.js';
import { yieldIfSliceSpent } from '../../../util/loop-slice.js';
import { isTemplateError } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';
import type { Json } from '../../../util/json.js';
import { type BatchResult, type ClaimedNext, loadBatch, lockBatch, recordBatch } from './batch.js';
import type { EngineDeps } from '../../core/deps.js';
import { resourceEvent } from '../../core/events.js';
import { isExternal } from '../external.js';
import { hasHook } from '../../context/hooks.js';
import { REPLACE_PREP_KEY } from '../replace-hooks.js';
import {
  definitionFor,
  inputsOf,
  type NodeScope,
  type Operation,
  outputsOf,
  payloadOf,
  pluginContext,
  requiresWhileRunning,
} from '../../context/node-work.js';
import { CHECK_NODE, type NodeOutput } from '../../core/nodes.js';
import { resolveProperties } from '../../context/resolver.js';
import type { TemplateCache } from '../../core/templates.js';
import { decide } from '../../context/update-decision.js';
import { ACTION_OF, doneChanges, resultChanges, startChanges } from '../record.js';
import { actionFailed, afterAction, runAction } from '../update-node.js';
import { retryLater } from '../../context/node-work.js';

/**
 * The common case of update nodes, many at once: a node starting on a settled, unlocked row whose
 * resource needs nothing, or an action that completes at once. A batch shares its transactions
 * (load, lock, record + propagate: three for the whole batch, two for in-row types) and their
 * multi-row statements; the semantics are update-node.ts's, step for step. Anything less common
 * (a lock held, a replacement, a nested stack, a failure, a long action) goes to the single path.
 */
export class UpdateBatch {
  constructor(
    private readonly deps: EngineDeps,
    private readonly cache: TemplateCache,
    private readonly running: ReadonlySet<number>,
    /** Where the dependents this batch makes ready go, claimed (none: they are enqueued due). */
    private readonly next?: ClaimedNext,
  ) {}

  /** Whether an item can go in a batch at all (the rest is decided once its state is loaded). */
  static accepts(item: WorkItem): boolean {
    return item.kind === CHECK_NODE && payloadOf(item).phase === 'start' && item.node.startsWith('u:');
  }

  /** Runs what it can of `items`; returns the items left for the single path. */
  async run(items: readonly WorkItem[]): Promise<WorkItem[]> {
    const loaded = await loadBatch(this.deps, this.cache, this.running, items);
    const single: WorkItem[] = [];
    const drop: NodeScope[] = [];
    const plans: Plan[] = [];
    for (const [item, state] of loaded) {
      // A missing or replaced row: the single path knows what to do.
      if (!state?.row || state.row.replacedBy !== null || REPLACE_PREP_KEY in state.row.data) {
        single.push(item);
        continue;
      }
      // Deciding 256 units is all JavaScript: the loop may take a turn between them.
      await yieldIfSliceSpent();
      const plan = await this.plan(state.scope, state.row);
      if (plan === 'drop') drop.push(state.scope);
      else if (plan === 'single') single.push(item);
      else plans.push(plan);
    }

    const acting = await this.lock(plans.filter((p) => p.op && !p.plugin.inRow));
    const finished: Finished[] = plans.filter((p) => !p.op).map((p) => ({ result: {}, ...p }));
    await Promise.all(
      [...plans.filter((p) => p.op && p.plugin.inRow), ...acting].map(async (plan) => {
        const outcome = await this.act(plan);
        if (outcome === 'single') single.push(plan.scope.item);
        else if (outcome) finished.push(outcome);
      }),
    );
    const lost = await recordBatch(this.deps, await this.results(finished), drop, this.next);
    await Promise.all(lost.map((scope) => retryLater(scope)));
    return single;
  }

  /** What update-node.ts would decide, when it is one of the common cases. */
  private async plan(scope: NodeScope, row: ResourceRecord): Promise<Plan | 'drop' | 'single'> {
    if (!scope.current || !scope.point || scope.point.done) return 'drop';
    if (row.engineId !== null || row.status === 'IN_PROGRESS') return 'single';
    // An adoption (adopt-node.ts) creates nothing: never the batch's create.
    if (scope.traversal?.action === 'ADOPT') return 'single';
    const definition = await definitionFor(scope, scope.traversal?.templateId ?? null, [row.name]);
    const resource = definition?.resources.get(row.name);
    if (!definition || !resource || resource.implementation.kind !== 'plugin') return 'single';
    const plugin = this.deps.plugins.plugin(resource.implementation.type);
    if (!plugin || isNestedPlugin(plugin) || isExternal(row, resource)) return 'single';
    // A converge reads the live state first (converge.ts): one resource at a time.
    if (scope.traversal?.converge && plugin.observes !== false) return 'single';
    let properties: Record<string, Value>;
    try {
      properties = resolveProperties(definition, resource, plugin, inputsOf(scope.point));
    } catch (err) {
      if (isTemplateError(err)) return 'single';
      throw err;
    }
    const decision = decide(
      plugin,
      row,
      resource.implementation.type,
      properties,
      undefined,
      scope.traversal?.templateId,
    );
    if (decision === 'replace') return 'single';
    if (decision !== 'none' && (await hasHook(scope, row, decision))) return 'single';
    return { scope, row, plugin, properties, op: decision === 'none' ? undefined : decision };
  }

  /** One transaction takes the locks of the actions that reach outside the row. */
  private async lock(plans: readonly Plan[]): Promise<Plan[]> {
    const now = this.deps.clock.now();
    const locked = await lockBatch(
      this.deps,
      plans.map((plan) => ({
        row: plan.row,
        expectedEngine: null,
        changes: {
          requires: requiresWhileRunning(plan.scope, plan.row),
          ...startChanges(plan.scope, plan.op!, plan.properties),
        },
      })),
      (index, next) => resourceEvent(next, ACTION_OF[plans[index]!.op!], 'IN_PROGRESS', 'state changed', now),
    );
    await Promise.all(plans.filter((_, i) => !locked.has(i)).map((plan) => retryLater(plan.scope)));
    return [...locked].map(([index, row]) => ({ holder: plans[index]!.scope.holder, ...plans[index]!, row }));
  }

  /**
   * Runs the plugin's action. Done at once: returned for recording. Otherwise a locked action
   * continues on the single path's terms (persisted polling, failure, replacement); an in-row one,
   * which has changed nothing yet, is left to the single path whole.
   */
  private async act(plan: Plan): Promise<Finished | 'single' | undefined> {
    const { scope, plugin, row, op, properties } = plan;
    let result: ActionResult;
    try {
      result = await runAction(scope, plugin, row, op!, properties);
    } catch (err) {
      if (plugin.inRow) return 'single';
      await actionFailed(scope, plugin, row, op!, properties, err);
      return undefined;
    }
    if (result.progress !== undefined) {
      if (plugin.inRow) return 'single';
      await afterAction(scope, plugin, row, op!, properties, result, 0);
      return undefined;
    }
    return { result, ...plan };
  }

  /** What recording each finished node writes, tells and reports. */
  private async results(finished: readonly Finished[]): Promise<BatchResult[]> {
    const now = this.deps.clock.now();
    const out: BatchResult[] = [];
    for (const plan of finished) {
      const { scope, op } = plan;
      const row = { ...plan.row, ...resultChanges(plan.row, plan.result) };
      const { refId, attributes } = await outputsOf(plan.plugin, pluginContext(scope, row), plan.properties);
      const changes = doneChanges(scope, row, plan.properties, attributes, op);
      const output: NodeOutput = { name: row.name, rowId: row.id, refId, attributes };
      out.push({
        scope,
        write: { row: plan.row, expectedEngine: plan.holder ?? null, changes },
        events: (next) => {
          if (!op) return [];
          // An in-row action took no lock, so its start is told here, with its end.
          const started = plan.plugin.inRow
            ? [resourceEvent(next, ACTION_OF[op], 'IN_PROGRESS', 'state changed', now)]
            : [];
          return [...started, resourceEvent(next, ACTION_OF[op], 'COMPLETE', 'state changed', now)];
        },
        output: output as unknown as Json,
      });
    }
    return out;
  }
}

interface Plan {
  scope: NodeScope;
  row: ResourceRecord;
  plugin: ResourcePlugin;
  properties: Record<string, Value>;
  /** Absent: nothing to do but record. */
  op: Operation | undefined;
  /** The lock holder the row has now (set once this batch locked it). */
  holder?: string;
}

interface Finished extends Plan {
  result: ActionResult;
}
