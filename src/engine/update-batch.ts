import { isNestedPlugin } from '../resources/nested-type.js';
import type { ActionResult, ResourcePlugin } from '../resources/contract.js';
import type {
  EventRecord,
  ResourceRecord,
  StackRecord,
  SyncPointRecord,
  TraversalRecord,
  WorkItem,
} from '../store/contract.js';
import { isTemplateError } from '../template/errors.js';
import type { Value } from '../template/functions/types.js';
import type { Json } from '../util/json.js';
import type { EngineDeps } from './deps.js';
import { resourceEvent } from './events.js';
import { hasTimedOut } from './failure.js';
import { holderOf } from './locks.js';
import {
  definitionFor,
  inputsOf,
  type NodeScope,
  type Operation,
  outputsOf,
  payloadOf,
  pluginContext,
} from './node-work.js';
import { CHECK_NODE, type NodeOutput, parseNodeKey } from './nodes.js';
import { propagateMany } from './propagate.js';
import { resolveProperties } from './resolver.js';
import type { TemplateCache } from './templates.js';
import {
  ACTION_OF,
  actionFailed,
  afterAction,
  decide,
  doneChanges,
  resultChanges,
  retryLater,
  runAction,
  startChanges,
} from './update-node.js';

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
  ) {}

  /** Whether an item can go in a batch at all (the rest is decided once its state is loaded). */
  static accepts(item: WorkItem): boolean {
    return item.kind === CHECK_NODE && payloadOf(item).phase === 'start' && item.node.startsWith('u:');
  }

  /** Runs what it can of `items`; returns the items left for the single path. */
  async run(items: readonly WorkItem[]): Promise<WorkItem[]> {
    const scopes = await this.load(items);
    const single: WorkItem[] = [];
    const drop: NodeScope[] = [];
    const plans: Plan[] = [];
    for (const [item, loaded] of scopes) {
      if (!loaded) {
        single.push(item);
        continue;
      }
      const plan = await this.plan(loaded.scope, loaded.row);
      if (plan === 'drop') drop.push(loaded.scope);
      else if (plan === 'single') single.push(item);
      else plans.push(plan);
    }

    const acting = await this.lock(plans.filter((p) => p.op && !p.plugin.inRow));
    const finished: Finished[] = plans.filter((p) => !p.op).map((p) => ({ ...p, result: {} }));
    await Promise.all(
      [...plans.filter((p) => p.op && p.plugin.inRow), ...acting].map(async (plan) => {
        const outcome = await this.act(plan);
        if (outcome === 'single') single.push(plan.scope.item);
        else if (outcome) finished.push(outcome);
      }),
    );
    const lost = await this.record(finished, drop);
    await Promise.all(lost.map((scope) => retryLater(scope)));
    return single;
  }

  /** One transaction: stacks, traversals, sync points (with inputs) and rows of the whole batch. */
  private async load(items: readonly WorkItem[]): Promise<Map<WorkItem, Loaded | undefined>> {
    const { store } = this.deps;
    const byTraversal = new Map<string, WorkItem[]>();
    for (const item of items) {
      const list = byTraversal.get(item.traversalId);
      if (list) list.push(item);
      else byTraversal.set(item.traversalId, [item]);
    }
    const state = await store.tx(async (tx) => {
      const stacks = new Map<string, StackRecord | undefined>();
      const points = new Map<string, SyncPointRecord>();
      const traversals = new Map<string, TraversalRecord | undefined>();
      for (const [traversalId, group] of byTraversal) {
        const stackId = group[0]!.stackId;
        if (!stacks.has(stackId)) stacks.set(stackId, await tx.stacks.get(stackId));
        traversals.set(traversalId, await tx.traversals.get(traversalId));
        const found = await tx.sync.getMany(
          traversalId,
          group.map((i) => i.node),
        );
        for (const point of found) points.set(`${traversalId} ${point.node}`, point);
      }
      const rows = await tx.resources.getMany(items.map((i) => parseNodeKey(i.node).rowId));
      return { stacks, traversals, points, rows: new Map(rows.map((r) => [r.id, r])) };
    });
    const out = new Map<WorkItem, Loaded | undefined>();
    for (const item of items) {
      const stack = state.stacks.get(item.stackId);
      const traversal = state.traversals.get(item.traversalId);
      const row = state.rows.get(parseNodeKey(item.node).rowId);
      // A missing stack, a CHECK, or a replaced row: the single path knows what to do.
      if (!stack || traversal?.action === 'CHECK' || !row || row.replacedBy !== null) {
        out.set(item, undefined);
        continue;
      }
      const scope: NodeScope = {
        deps: this.deps,
        cache: this.cache,
        item,
        stack,
        traversal,
        point: state.points.get(`${item.traversalId} ${item.node}`),
        current: stack.traversalId === item.traversalId && traversal !== undefined,
        holder: holderOf(this.deps.engineId, item.id),
        running: this.running,
      };
      if (scope.current && hasTimedOut(this.deps, stack)) out.set(item, undefined);
      else out.set(item, { scope, row });
    }
    return out;
  }

  /** What update-node.ts would decide, when it is one of the common cases. */
  private async plan(scope: NodeScope, row: ResourceRecord): Promise<Plan | 'drop' | 'single'> {
    if (!scope.current || !scope.point || scope.point.done) return 'drop';
    if (row.engineId !== null || row.status === 'IN_PROGRESS') return 'single';
    const definition = await definitionFor(scope, scope.traversal?.templateId ?? null);
    const resource = definition?.resources.get(row.name);
    if (!definition || !resource || resource.implementation.kind !== 'plugin') return 'single';
    const plugin = this.deps.plugins.plugin(resource.implementation.type);
    if (!plugin || isNestedPlugin(plugin)) return 'single';
    let properties: Record<string, Value>;
    try {
      properties = resolveProperties(definition, resource, plugin, inputsOf(scope.point));
    } catch (err) {
      if (isTemplateError(err)) return 'single';
      throw err;
    }
    const decision = decide(plugin, row, resource.implementation.type, properties);
    if (decision === 'replace') return 'single';
    return { scope, row, plugin, properties, op: decision === 'none' ? undefined : decision };
  }

  /** One transaction takes the locks of the actions that reach outside the row. */
  private async lock(plans: readonly Plan[]): Promise<Plan[]> {
    if (plans.length === 0) return [];
    const now = this.deps.clock.now();
    const locked: Plan[] = [];
    const lost: NodeScope[] = [];
    await this.deps.store.tx(async (tx) => {
      const writes = plans.map((plan) => ({
        plan,
        changes: startChanges(plan.scope, plan.op!, plan.properties),
      }));
      const written = await tx.resources.updateMany(
        writes.map(({ plan, changes }) => ({
          id: plan.row.id,
          expectedKey: plan.row.atomicKey,
          expectedEngine: null,
          changes,
        })),
      );
      const events: Omit<EventRecord, 'id'>[] = [];
      for (const { plan, changes } of writes) {
        if (!written.has(plan.row.id)) {
          lost.push(plan.scope);
          continue;
        }
        const next = { ...plan.row, ...changes, atomicKey: plan.row.atomicKey + 1 };
        events.push(resourceEvent(next, ACTION_OF[plan.op!], 'IN_PROGRESS', 'state changed', now));
        locked.push({ ...plan, row: next, holder: plan.scope.holder });
      }
      await tx.events.append(events);
    });
    await Promise.all(lost.map((scope) => retryLater(scope)));
    return locked;
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
    return { ...plan, result };
  }

  /**
   * One transaction records every finished node: rows (compare-and-swap each), events, reports to
   * dependents and completed work, propagated per traversal with multi-row statements. Returns
   * the nodes whose row changed meanwhile (they run again).
   */
  private async record(finished: readonly Finished[], drop: readonly NodeScope[]): Promise<NodeScope[]> {
    const { deps } = this;
    const now = deps.clock.now();
    const writes: {
      plan: Finished;
      changes: Partial<ResourceRecord>;
      next: ResourceRecord;
      output: NodeOutput;
    }[] = [];
    for (const plan of finished) {
      const row = { ...plan.row, ...resultChanges(plan.row, plan.result) };
      const { refId, attributes } = await outputsOf(
        plan.plugin,
        pluginContext(plan.scope, row),
        plan.properties,
      );
      const changes = doneChanges(plan.scope, row, plan.properties, attributes, plan.op);
      const output = { name: row.name, rowId: row.id, refId, attributes };
      writes.push({ plan, changes, next: { ...row, ...changes }, output });
    }
    if (writes.length === 0 && drop.length === 0) return [];
    return deps.store.tx(async (tx) => {
      const lost: NodeScope[] = [];
      const events: Omit<EventRecord, 'id'>[] = [];
      const completed = drop.map((scope) => scope.item.id);
      const reports = new Map<string, { stack: StackRecord; finished: Map<string, Json> }>();
      const written = await tx.resources.updateMany(
        writes.map(({ plan, changes }) => ({
          id: plan.row.id,
          expectedKey: plan.row.atomicKey,
          expectedEngine: plan.holder ?? null,
          changes,
        })),
      );
      for (const { plan, output, next } of writes) {
        const { scope, op } = plan;
        if (!written.has(next.id)) {
          lost.push(scope);
          continue;
        }
        if (op) {
          // An in-row action took no lock, so its start is told here, with its end.
          if (plan.plugin.inRow)
            events.push(resourceEvent(next, ACTION_OF[op], 'IN_PROGRESS', 'state changed', now));
          events.push(resourceEvent(next, ACTION_OF[op], 'COMPLETE', 'state changed', now));
        }
        completed.push(scope.item.id);
        if (!scope.current) continue;
        const key = scope.item.traversalId;
        let group = reports.get(key);
        if (!group) reports.set(key, (group = { stack: scope.stack, finished: new Map() }));
        group.finished.set(scope.item.node, output as unknown as Json);
      }
      await tx.events.append(events);
      for (const [traversalId, group] of reports) {
        await propagateMany(tx, group.stack, traversalId, group.finished, now);
      }
      await tx.work.completeMany(completed, deps.engineId);
      return lost;
    });
  }
}

interface Loaded {
  scope: NodeScope;
  row: ResourceRecord;
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
