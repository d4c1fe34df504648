/** How many nodes of a cycle the message names; a million-node cycle would make a useless message. */
const MESSAGE_NODES = 20;

/** Thrown when an order is asked of a graph that has a cycle; carries one cycle as [a, b, ..., a]. */
export class CycleError<K = unknown> extends Error {
  override readonly name = 'CycleError';
  /** Each node requires the next; the first and last entries are the same node. */
  readonly cycle: K[];

  constructor(cycle: K[]) {
    const path =
      cycle.length > MESSAGE_NODES
        ? `${cycle.slice(0, MESSAGE_NODES).map(String).join(' -> ')} -> ... (${cycle.length - 1} nodes)`
        : cycle.map(String).join(' -> ');
    super(`dependency cycle: ${path}`);
    this.cycle = cycle;
  }
}

/** Thrown when a query names a node the graph does not have: a caller bug, not user input. */
export class UnknownNodeError extends Error {
  override readonly name = 'UnknownNodeError';

  constructor(readonly key: unknown) {
    super(`unknown node: ${String(key)}`);
  }
}
