/**
 * The legacy engine's task runner: runs a graph's nodes in memory, each once all its prerequisites
 * have finished, at most `concurrency` at a time. The first failure stops new starts; the nodes
 * running then finish, and that failure is thrown. Nodes behind a failure never run.
 */
export async function walkGraph(
  prerequisites: ReadonlyMap<string, readonly string[]>,
  run: (node: string) => Promise<void>,
  concurrency: number,
): Promise<void> {
  const waiting = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  const ready: string[] = [];
  for (const [node, before] of prerequisites) {
    const inGraph = [...new Set(before)].filter((p) => p !== node && prerequisites.has(p));
    waiting.set(node, inGraph.length);
    for (const p of inGraph) {
      const list = dependents.get(p);
      if (list) list.push(node);
      else dependents.set(p, [node]);
    }
    if (inGraph.length === 0) ready.push(node);
  }
  let failure: { error: unknown } | undefined;
  let running = 0;
  let finished = 0;
  await new Promise<void>((resolve) => {
    const launch = () => {
      while (!failure && running < concurrency && ready.length > 0) {
        const node = ready.shift()!;
        running++;
        run(node).then(
          () => {
            for (const next of dependents.get(node) ?? []) {
              const left = waiting.get(next)! - 1;
              waiting.set(next, left);
              if (left === 0) ready.push(next);
            }
            settle();
          },
          (error: unknown) => {
            failure ??= { error };
            settle();
          },
        );
      }
      if (running === 0) resolve();
    };
    const settle = () => {
      running--;
      finished++;
      launch();
    };
    launch();
  });
  if (failure) throw failure.error;
  if (finished < prerequisites.size) throw new Error('internal: the graph has a cycle');
}
