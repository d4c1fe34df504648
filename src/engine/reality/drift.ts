import type { DriftRecord, DriftSummary, ResourceRecord, StackRecord, Tx } from '../../store/contract.js';
import type { Value } from '../../template/functions/types.js';
import { childStackOf } from '../context/child-stack.js';
import type { EngineDeps } from '../core/deps.js';
import { propertyDrift } from '../context/drift-compare.js';
import { errorMessage } from '../core/failure-text.js';
import { pluginContext } from '../context/node-work.js';
import { OperationError } from '../core/errors.js';
import { currentRows } from '../core/rows.js';

/**
 * Drift detection (issue 8, level 1): each resource's live state, read through its type's
 * `getReality`, against the properties it was last created or updated with. Results are stored
 * per stack (`resource_drift`, replaced by the next detection) and counted by one aggregate query.
 * docs/drift.md tells what is compared and how.
 */

export interface DriftOptions {
  /** Resources read at once (default: the `drift_concurrency` setting, else 16). */
  concurrency?: number;
  /**
   * Called for each stack of the tree in the transaction that stores its results, with the
   * results they replace (the observer records what changed as events there).
   */
  onStack?: (tx: Tx, stack: StackDetection) => Promise<void>;
}

/** One stack's detection, as `onStack` sees it. */
export interface StackDetection {
  stack: StackRecord;
  /** The rows checked (the current row of each name). */
  rows: readonly ResourceRecord[];
  previous: readonly DriftRecord[];
  current: readonly DriftRecord[];
}

/** A stored result with the stack it belongs to (a nested stack's resources are listed too). */
export interface ResourceDrift extends DriftRecord {
  stackName: string;
}

export interface StackDrift {
  stackId: string;
  stackName: string;
  summary: DriftSummary;
  resources: ResourceDrift[];
}

/**
 * Detects the drift of a stack and its nested stacks, one stack's rows at a time (its results
 * are written before the next is read), with at most `concurrency` live reads in flight.
 * Returns the summary of what it stored.
 */
export async function detectDrift(
  deps: EngineDeps,
  stackId: string,
  options: DriftOptions = {},
): Promise<DriftSummary> {
  const limit = Math.max(1, options.concurrency ?? deps.settings.driftConcurrency ?? 16);
  const top = await liveStack(deps, stackId);
  const seen: string[] = [];
  const pending = [top.id];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const stack = id === top.id ? top : await deps.store.tx((tx) => tx.stacks.get(id!));
    if (!stack || stack.deletedAt) continue;
    seen.push(stack.id);
    const rows = currentRows(await deps.store.tx((tx) => tx.resources.listActive(stack.id)));
    const records = await mapLimit(rows, limit, (row) => observe(deps, stack, row));
    await deps.store.tx(async (tx) => {
      const previous = options.onStack ? await tx.drift.list(stack.id) : [];
      await tx.drift.replace(stack.id, stack.rootId, records);
      await options.onStack?.(tx, { stack, rows, previous, current: records });
    });
    for (const row of rows) {
      const child = childStackOf(row);
      if (child !== undefined) pending.push(child);
    }
  }
  return deps.store.tx((tx) => tx.drift.summary(seen));
}

/**
 * The last stored results of a stack and its nested stacks (`onlyDrifted`: leaves IN_SYNC out),
 * with their summary. A stack never checked has none.
 */
export async function storedDrift(
  deps: EngineDeps,
  stackId: string,
  options: { onlyDrifted?: boolean } = {},
): Promise<StackDrift> {
  const top = await liveStack(deps, stackId);
  const resources: ResourceDrift[] = [];
  const ids: string[] = [];
  const pending: StackRecord[] = [top];
  for (let stack = pending.pop(); stack !== undefined; stack = pending.pop()) {
    const at = stack;
    ids.push(at.id);
    const [records, children] = await deps.store.tx(
      async (tx) => [await tx.drift.list(at.id), await tx.stacks.children(at.id)] as const,
    );
    for (const record of records) {
      if (!options.onlyDrifted || record.status !== 'IN_SYNC')
        resources.push({ ...record, stackName: at.name });
    }
    pending.push(...[...children].reverse());
  }
  const summary = await deps.store.tx((tx) => tx.drift.summary(ids));
  return { stackId: top.id, stackName: top.name, summary, resources };
}

async function liveStack(deps: EngineDeps, stackId: string): Promise<StackRecord> {
  const stack = await deps.store.tx((tx) => tx.stacks.get(stackId));
  if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
  return stack;
}

/** One resource's result. Never throws: a failing read is the resource's FAILED result. */
async function observe(deps: EngineDeps, stack: StackRecord, row: ResourceRecord): Promise<DriftRecord> {
  const base = {
    stackId: stack.id,
    resourceName: row.name,
    resourceType: row.type,
    physicalId: row.physicalId,
  };
  const at = () => new Date(deps.clock.now()).toISOString();
  const notChecked = (reason: string): DriftRecord => ({
    ...base,
    status: 'NOT_CHECKED',
    diff: [],
    reason,
    detectedAt: at(),
  });
  if (childStackOf(row) !== undefined) return notChecked('a nested stack: its own resources are checked');
  if (row.status === 'IN_PROGRESS') return notChecked(`${row.action} in progress`);
  if (row.physicalId === null) return notChecked('no physical resource');
  const plugin = deps.plugins.plugin(row.type);
  if (!plugin) return notChecked(`no resource type ${row.type}`);
  if (plugin.observes === false) return notChecked(`${row.type} lives in Hearth alone: nothing to observe`);
  try {
    const live = await plugin.getReality(pluginContext({ deps, stack }, row));
    if (live.state === 'gone')
      return { ...base, status: 'DELETED', diff: [], reason: null, detectedAt: at() };
    if (live.failure) return { ...base, status: 'ERROR', diff: [], reason: live.failure, detectedAt: at() };
    const stored = (row.properties ?? {}) as Record<string, Value>;
    const diff = propertyDrift(plugin.properties, stored, live.properties);
    return {
      ...base,
      status: diff.length > 0 ? 'MODIFIED' : 'IN_SYNC',
      diff,
      reason: null,
      detectedAt: at(),
    };
  } catch (err) {
    return {
      ...base,
      status: 'FAILED',
      diff: [],
      reason: errorMessage(err) || 'reading the live state failed',
      detectedAt: at(),
    };
  }
}

/** `fn` over `items` with at most `limit` calls pending at once; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}
