import type { ResourceRecord, StackRecord, Store, Tx } from '../../src/store/contract.js';

/**
 * Legacy stacks for the tests, until the legacy engine makes its own: a settled convergence tree
 * turned into the shape the legacy engine leaves (every stack `convergence: false` with no
 * traversal id, rows with no `requires` and no template: it keeps the graph in memory only).
 */
export async function legacyShape(store: Store, rootId: string, prevTemplateId?: string): Promise<void> {
  await store.tx(async (tx) => {
    for (const stack of await treeOf(tx, rootId)) {
      await tx.stacks.update(stack.id, null, {
        convergence: false,
        traversalId: '',
        ...(stack.id === rootId && prevTemplateId ? { prevTemplateId } : {}),
      });
      const rows = await tx.resources.listActive(stack.id);
      const written = await tx.resources.updateMany(
        rows.map((row) => ({
          id: row.id,
          expectedKey: row.atomicKey,
          expectedEngine: row.engineId,
          changes: { requires: [], templateId: null },
        })),
      );
      if (written.size !== rows.length) throw new Error('legacyShape: a row changed meanwhile');
    }
  });
}

/** The live stacks of a tree, root first. */
export async function treeOf(tx: Tx, rootId: string): Promise<StackRecord[]> {
  const root = await tx.stacks.get(rootId);
  if (!root) throw new Error(`no stack ${rootId}`);
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(await tx.stacks.children(tree[i]!.id)));
  return tree;
}

/** A tree's stacks and their live rows, as stored (to show that something changed nothing). */
export async function snapshot(
  store: Store,
  rootId: string,
): Promise<{ stacks: StackRecord[]; rows: ResourceRecord[] }> {
  return store.tx(async (tx) => {
    const stacks = await treeOf(tx, rootId);
    const rows: ResourceRecord[] = [];
    for (const stack of stacks) rows.push(...(await tx.resources.listActive(stack.id)));
    return { stacks, rows };
  });
}
