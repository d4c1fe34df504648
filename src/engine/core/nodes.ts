import type { NewWork, StackRecord } from '../../store/contract.js';
import type { Json } from '../../util/json.js';

/**
 * Graph node keys of a traversal. `u:<row>` creates or updates resource row <row>; `c:<row>`
 * deletes it (cleanup). A replacement row reports under the key of the row it replaces, so a
 * traversal's graph never changes shape once started (except cleanup nodes added for replacements).
 */
export type NodeKind = 'u' | 'c';

export function nodeKey(kind: NodeKind, rowId: number): string {
  return `${kind}:${rowId}`;
}

export function parseNodeKey(key: string): { kind: NodeKind; rowId: number } {
  const kind = key[0];
  const rowId = Number(key.slice(2));
  if ((kind !== 'u' && kind !== 'c') || key[1] !== ':' || !Number.isInteger(rowId)) {
    throw new Error(`internal: bad graph node key "${key}"`);
  }
  return { kind, rowId };
}

/** What a finished update node tells the nodes that need it (the sync point input). */
export interface NodeOutput {
  name: string;
  rowId: number;
  /** The value of get_resource. */
  refId: string | null;
  /** Attribute values (cached), for get_attr. */
  attributes: Record<string, unknown>;
}

/** The unit-of-work kind for graph nodes. */
export const CHECK_NODE = 'check';

/** The unit that runs graph node `node` of a traversal now (with the inputs it carries, if any). */
export function checkUnit(
  stack: StackRecord,
  traversalId: string,
  node: string,
  now: number,
  inputs?: Record<string, Json>,
): NewWork {
  // One shape for every unit (inputs or not): V8 keeps one hidden class for them.
  return {
    rootStackId: stack.rootId,
    stackId: stack.id,
    traversalId,
    kind: CHECK_NODE,
    node,
    runAt: now,
    inputs,
  };
}

/**
 * Stack actions whose traversal visits the rows the stack has, as they are: it creates, replaces
 * and deletes none, and converges nothing to a template (check-node.ts, suspend-node.ts).
 */
export const VISITS: ReadonlySet<string> = new Set(['CHECK', 'SUSPEND', 'RESUME', 'SNAPSHOT']);
