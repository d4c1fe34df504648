import { randomUUID } from 'node:crypto';
import type { LockedWrite, StackRecord, Tx } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { currentRows } from '../core/rows.js';
import type { TemplateCache } from '../core/templates.js';
import { ConflictError } from '../core/errors.js';

/**
 * Moves a legacy stack tree (the root and its nested stacks) to the convergence engine, Heat's
 * `heat-manage migrate_convergence_1`. The legacy engine keeps a stack's graph in memory only;
 * convergence needs it on the rows: each current row records the row ids it requires and the
 * template it is converged to. Every stack of the tree gets the flag and a traversal id of its own
 * (a finished convergence stack's shape: an id whose traversal is gone, which the next operation
 * compare-and-swaps away), all in the caller's transaction, so a tree is never half converted.
 */

/** What happened to one tree. `root` is the tree's top stack, `stack` the one the outcome is about. */
export type MigrationResult =
  | { outcome: 'migrated'; root: StackRecord; stacks: number; resources: number }
  /** The tree already runs under convergence: nothing was changed. */
  | { outcome: 'already'; root: StackRecord }
  /** A stack of the tree has an operation running: nothing was changed; try again once it ends. */
  | { outcome: 'in_progress'; root: StackRecord; stack: StackRecord }
  /** A stack of the tree is FAILED: only a settled (COMPLETE) tree is migrated. */
  | { outcome: 'failed'; root: StackRecord; stack: StackRecord };

/** A tree left as it was, and the stack of it that kept it so. */
export type NotMigrated = Extract<MigrationResult, { stack: StackRecord }>;

/**
 * Migrates the tree of stack `stackId` (a nested stack's whole tree: a tree runs under one engine)
 * in the caller's transaction. Undefined when there is no such live stack. Throws ConflictError if
 * a row or stack changed under it, and the template layer's error if a stored template no longer
 * binds (a resource type gone): either way the transaction must roll back.
 */
export async function migrateTree(
  tx: Tx,
  cache: TemplateCache,
  stackId: string,
): Promise<MigrationResult | undefined> {
  const stack = await tx.stacks.get(stackId);
  if (!stack || stack.deletedAt) return undefined;
  const root = stack.rootId === stack.id ? stack : await tx.stacks.get(stack.rootId);
  if (!root || root.deletedAt) return undefined;
  if (root.convergence) return { outcome: 'already', root };
  const tree = await treeOf(tx, root);
  const running = tree.find((s) => s.status === 'IN_PROGRESS');
  if (running) return { outcome: 'in_progress', root, stack: running };
  const failed = tree.find((s) => s.status !== 'COMPLETE');
  if (failed) return { outcome: 'failed', root, stack: failed };

  const legacy = tree.filter((s) => !s.convergence);
  const writes: LockedWrite[] = [];
  for (const s of legacy) writes.push(...(await rowWrites(tx, cache, s)));
  // Multi-row statements: a 10,000-resource tree is a handful of them, not one per row.
  const written = await tx.resources.updateMany(writes);
  if (written.size !== writes.length) {
    throw new ConflictError(`stack "${root.name}" changed while it was being migrated; try again`);
  }
  for (const s of legacy) {
    const changes = { convergence: true, prevTemplateId: null, traversalId: randomUUID() };
    if (!(await tx.stacks.update(s.id, s.traversalId, changes))) {
      throw new ConflictError(`stack "${s.name}" changed while it was being migrated; try again`);
    }
    // The legacy rollback target is released as a finished convergence operation releases it.
    if (s.prevTemplateId && s.prevTemplateId !== s.templateId) await tx.templates.delete(s.prevTemplateId);
  }
  return { outcome: 'migrated', root, stacks: legacy.length, resources: writes.length };
}

/**
 * The locked writes that give one stack's current rows their template and their requirements:
 * the stack's stored template bound as it is (a nested stack's environment carries the
 * parameters its parent gave it), each resource's required names mapped to the rows that carry
 * those names now (not a replaced row).
 */
async function rowWrites(tx: Tx, cache: TemplateCache, stack: StackRecord): Promise<LockedWrite[]> {
  const templateId = stack.templateId;
  if (!templateId) return [];
  const record = await tx.templates.get(templateId);
  if (!record) throw new Error(`stack "${stack.name}": its template ${templateId} is missing from the store`);
  const definition = cache.get(record, {
    stackId: stack.id,
    stackName: stack.name,
    projectId: stack.projectId,
  });
  const rows = new Map(currentRows(await tx.resources.listHeads(stack.id)).map((row) => [row.name, row]));
  const writes: LockedWrite[] = [];
  for (const [name, resource] of definition.resources) {
    const row = rows.get(name);
    // A resource with no row yet is created by the next update, as convergence does.
    if (!row) continue;
    const requires = new Set<number>();
    for (const dependency of resource.requires) {
      const required = rows.get(dependency);
      if (required && required.id !== row.id) requires.add(required.id);
    }
    writes.push({
      id: row.id,
      expectedKey: row.atomicKey,
      expectedEngine: row.engineId,
      changes: { templateId, requires: [...requires] },
    });
  }
  return writes;
}

/** The live stacks of a tree, the root first, each parent before its children. */
async function treeOf(tx: Tx, root: StackRecord): Promise<StackRecord[]> {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(await tx.stacks.children(tree[i]!.id)));
  return tree;
}

/** Migrates the tree of one stack, in a transaction of its own. */
export async function migrateStack(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
): Promise<MigrationResult | undefined> {
  return deps.store.tx((tx) => migrateTree(tx, cache, stackId));
}

/** What `migrateAll` did: counts, and the trees left as they were (with why). */
export interface MigrationSummary {
  migrated: Extract<MigrationResult, { outcome: 'migrated' }>[];
  inProgress: NotMigrated[];
  failed: NotMigrated[];
  /** Top-level stacks already under convergence. */
  already: number;
  /** Trees that could not be migrated, with the error (a template that no longer binds...). */
  errors: { root: StackRecord; error: unknown }[];
}

/**
 * Migrates every legacy top-level stack (nested stacks go with their root), one transaction per
 * tree, so one tree that cannot be migrated holds back no other.
 */
export async function migrateAll(deps: EngineDeps, cache: TemplateCache): Promise<MigrationSummary> {
  const { legacy, already } = await deps.store.tx(async (tx) => ({
    legacy: await tx.stacks.list({ parentId: null, convergence: false }),
    already: await tx.stacks.count({ parentId: null, convergence: true }),
  }));
  const summary: MigrationSummary = { migrated: [], inProgress: [], failed: [], already, errors: [] };
  for (const root of legacy) {
    try {
      const result = await migrateStack(deps, cache, root.id);
      if (!result) continue; // deleted meanwhile
      if (result.outcome === 'migrated') summary.migrated.push(result);
      else if (result.outcome === 'in_progress') summary.inProgress.push(result);
      else if (result.outcome === 'failed') summary.failed.push(result);
      else summary.already++;
    } catch (error) {
      summary.errors.push({ root, error });
    }
  }
  return summary;
}

/**
 * `convergence_migrate_on_update`: before an update of a legacy stack begins its convergence
 * traversal, in the same transaction, the stack's tree is migrated. Returns the stack the
 * traversal starts from: migrated (with its new traversal id), or as given when the option is
 * off, the stack already converges, or its tree cannot be migrated now (the legacy engine runs
 * the update then).
 */
export async function migrateOnUpdate(
  tx: Tx,
  deps: EngineDeps,
  cache: TemplateCache,
  stack: StackRecord,
): Promise<StackRecord> {
  if (stack.convergence || !deps.settings.convergenceMigrateOnUpdate) return stack;
  const result = await migrateTree(tx, cache, stack.id);
  if (result?.outcome !== 'migrated') return stack;
  return (await tx.stacks.get(stack.id)) ?? stack;
}
