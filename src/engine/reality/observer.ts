import { type DriftRecord, DRIFTED, type StackRecord, type Tx, type WorkItem } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { detectDrift, type StackDetection } from './drift.js';
import { resourceEvent, stackEvent } from '../core/events.js';
import { DEFAULT_HEAL_BOUNDS, forgiven, healVerdict } from './heal-policy.js';
import type { HealBounds } from '../core/deps.js';
import { reconvergeStack } from '../operations/update.js';
import { currentRow } from '../core/rows.js';
import type { TemplateCache } from '../core/templates.js';
import { ConflictError } from '../core/errors.js';

/**
 * Continuous convergence (issue 8, level 3). A stack that opts in (`observe`) has one unit of work
 * of kind `observe` in the queue, due every interval: any engine claims it like any other unit, so
 * observation is spread across engines and survives a crash (the claim's lease runs out and another
 * engine runs it). A run reads the live state of every resource of the tree (drift detection,
 * drift.ts), records what changed as events, and, when healing is on and nothing else runs on the
 * stack, starts a heal: an UPDATE to the stack's own template that compares the drifted resources
 * with their live state (converge.ts). Heals are bounded (heal-policy.ts); when one cannot help,
 * the stack fails with the reason. docs/observer.md tells the whole story.
 */

/** A resource the observation found needing a heal. */
interface Finding {
  stackId: string;
  name: string;
  /** DELETED, MODIFIED, ERROR, or the failed action of a row (CREATE_FAILED...). */
  status: string;
}

/** One observation of a stack: read, record, maybe heal, and come back after the interval. */
export async function runObservation(deps: EngineDeps, cache: TemplateCache, item: WorkItem): Promise<void> {
  const stack = await deps.store.tx((tx) => tx.stacks.get(item.stackId));
  if (!stack || stack.deletedAt || !stack.observe || stack.action === 'DELETE') {
    await deps.store.tx((tx) => tx.work.complete(item));
    return;
  }
  const bounds: HealBounds = deps.settings.healBounds ?? DEFAULT_HEAL_BOUNDS;
  const now = deps.clock.now();
  const findings: Finding[] = [];
  /** Resources found in sync (keyOf): their heals may be forgotten. */
  const inSync = new Set<string>();
  const tree = new Map<string, StackRecord>();
  let checks = 0;
  let drifts = 0;
  await detectDrift(deps, stack.id, {
    onStack: async (tx, detection) => {
      tree.set(detection.stack.id, detection.stack);
      await tx.events.append(driftEvents(detection, now));
      const found = new Set<string>();
      for (const record of detection.current) {
        if (record.status !== 'NOT_CHECKED') checks++;
        if (record.status === 'IN_SYNC') inSync.add(keyOf(detection.stack.id, record.resourceName));
        if (!DRIFTED.has(record.status)) continue;
        drifts++;
        found.add(record.resourceName);
        findings.push({ stackId: detection.stack.id, name: record.resourceName, status: record.status });
      }
      // A failed create or update (a server that never became ACTIVE) needs a heal as much.
      for (const row of detection.rows) {
        if (row.status !== 'FAILED' || found.has(row.name)) continue;
        findings.push({ stackId: detection.stack.id, name: row.name, status: `${row.action}_FAILED` });
      }
    },
  });

  const fresh = await deps.store.tx((tx) => tx.stacks.get(stack.id));
  let heals = 0;
  if (fresh?.observe?.heal && !fresh.deletedAt && fresh.status !== 'IN_PROGRESS' && findings.length > 0) {
    heals = await heal(deps, cache, fresh, findings, tree, bounds, now).catch((err: unknown) => {
      // Another operation started meanwhile: it supersedes the heal; the next observation looks again.
      if (err instanceof ConflictError) return 0;
      throw err;
    });
  }
  await deps.store.tx(async (tx) => {
    await forgive(tx, stack.rootId, inSync, bounds, now);
    await tx.observerCounts.add({ projectId: stack.projectId, checks, drifts, heals });
    const policy = fresh && !fresh.deletedAt ? fresh.observe : null;
    if (policy) await tx.work.reschedule(item, deps.clock.now() + policy.intervalMs, item.payload);
    else await tx.work.complete(item);
  });
}

/** Events for what changed since the last detection: newly drifted, or back in sync. */
function driftEvents(detection: StackDetection, now: number) {
  const before = new Map(detection.previous.map((r) => [r.resourceName, r]));
  const events = [];
  for (const record of detection.current) {
    const was = before.get(record.resourceName);
    const subject = {
      stackId: detection.stack.id,
      name: record.resourceName,
      type: record.resourceType,
      physicalId: record.physicalId,
    };
    if (DRIFTED.has(record.status)) {
      if (was && was.status === record.status && JSON.stringify(was.diff) === JSON.stringify(record.diff))
        continue;
      events.push(resourceEvent(subject, 'OBSERVE', 'FAILED', driftReason(record), now));
    } else if (record.status === 'IN_SYNC' && was && DRIFTED.has(was.status)) {
      events.push(resourceEvent(subject, 'OBSERVE', 'COMPLETE', 'Live state in sync again', now));
    }
  }
  return events;
}

/** What an event says of a drifted resource (values as drift detection masked them). */
export function driftReason(record: DriftRecord): string {
  if (record.status === 'DELETED') return 'Drift: deleted outside Hearth';
  if (record.status === 'ERROR') return `Drift: ${record.reason ?? 'the cloud reports an error'}`;
  const changes = record.diff.map(
    (d) => `${d.name}: ${JSON.stringify(d.expected)} -> ${JSON.stringify(d.actual)}`,
  );
  return `Drift: changed outside Hearth (${changes.join('; ')})`;
}

/** A resource of the tree, as the observation's sets and maps key it. */
function keyOf(stackId: string, name: string): string {
  return `${stackId}\n${name}`;
}

/** Forgets the heals of resources of the tree that have stayed in sync for a whole window. */
async function forgive(
  tx: Tx,
  rootStackId: string,
  inSync: ReadonlySet<string>,
  bounds: HealBounds,
  now: number,
): Promise<void> {
  const done = new Map<string, string[]>();
  for (const r of await tx.heals.listTree(rootStackId)) {
    if (!inSync.has(keyOf(r.stackId, r.resourceName)) || !forgiven(r, now, bounds)) continue;
    const names = done.get(r.stackId);
    if (names) names.push(r.resourceName);
    else done.set(r.stackId, [r.resourceName]);
  }
  for (const [stackId, names] of done) await tx.heals.remove(stackId, names);
}

/**
 * Starts a heal of what the observation found, within the bounds; or fails the stack with the
 * reason when a resource is past them. Returns the number of heals started (0 or 1).
 */
async function heal(
  deps: EngineDeps,
  cache: TemplateCache,
  stack: StackRecord,
  findings: readonly Finding[],
  tree: ReadonlyMap<string, StackRecord>,
  bounds: HealBounds,
  now: number,
): Promise<number> {
  const intervalMs = stack.observe!.intervalMs;
  return deps.store.tx(async (tx) => {
    // A person's operation may have started since the observation began: it goes first.
    const current = await tx.stacks.get(stack.id);
    if (!current || current.status === 'IN_PROGRESS' || current.traversalId !== stack.traversalId) return 0;
    const records = new Map(
      (await tx.heals.listTree(stack.rootId)).map((r) => [keyOf(r.stackId, r.resourceName), r]),
    );
    const due: { finding: Finding; attempt: number }[] = [];
    for (const finding of findings) {
      const verdict = healVerdict(records.get(keyOf(finding.stackId, finding.name)), intervalMs, now, bounds);
      if (verdict.kind === 'exhausted') {
        await giveUp(tx, stack, tree, finding, verdict.attempts, now);
        return 0;
      }
      if (verdict.kind === 'heal') due.push({ finding, attempt: verdict.attempt });
    }
    if (due.length === 0) return 0;
    // The stacks to converge: those with findings and every stack above them.
    const stacks = new Set<string>();
    for (const { finding } of due) {
      for (let at = tree.get(finding.stackId); at && !stacks.has(at.id); at = tree.get(at.parentId ?? '')) {
        stacks.add(at.id);
      }
    }
    const what = due.map(({ finding }) => `${pathOf(tree, finding)} ${finding.status}`).join(', ');
    await reconvergeStack(tx, deps, cache, stack.id, now, {
      reason: `Stack UPDATE started: healing ${what}`,
      converge: { mode: 'drifted', stacks: [...stacks] },
      // A failed heal rolls back to the template the stack has, not the one before it.
      stackChanges: { prevTemplateId: stack.templateId },
    });
    await tx.heals.put(
      due.map(({ finding, attempt }) => ({
        stackId: finding.stackId,
        resourceName: finding.name,
        rootStackId: stack.rootId,
        attempts: attempt,
        lastAt: now,
      })),
    );
    return 1;
  });
}

/** No right action is left: the stack fails, once, with what needs a person. */
async function giveUp(
  tx: Tx,
  stack: StackRecord,
  tree: ReadonlyMap<string, StackRecord>,
  finding: Finding,
  attempts: number,
  now: number,
): Promise<void> {
  // What the last heal ran into, when it failed (a restricted action, a cloud refusing a create).
  const row = currentRow(await tx.resources.findByName(finding.stackId, finding.name));
  const last = row?.status === 'FAILED' && row.reason ? `; the last heal failed: ${row.reason}` : '';
  const reason =
    `Healing stopped: ${pathOf(tree, finding)} is ${finding.status} again after ${attempts} heals ` +
    `(flapping, or it cannot converge); a person must look at it, then update the stack${last}`;
  if (stack.status === 'FAILED' && stack.reason === reason) return;
  const failed = await tx.stacks.update(stack.id, stack.traversalId, {
    status: 'FAILED',
    reason,
    traversalId: '',
  });
  if (failed) await tx.events.append([stackEvent(stack, stack.action, 'FAILED', reason, now)]);
}

/** A resource's name from the top stack (`group.0.server` for a member's server). */
function pathOf(tree: ReadonlyMap<string, StackRecord>, finding: Finding): string {
  const names = [finding.name];
  for (let at = tree.get(finding.stackId); at?.parentResource; at = tree.get(at.parentId ?? '')) {
    names.unshift(at.parentResource);
  }
  return names.join('.');
}
