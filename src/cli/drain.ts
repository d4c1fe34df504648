import type { Engine } from '../engine/engine.js';

const DEFAULT_SHUTDOWN_MS = 20_000;

/**
 * How a long-running command (`hearth engine`, `hearth serve`) stops on SIGTERM or SIGINT: it stops
 * claiming work and lets the units it runs finish (`signal` aborts; the caller's loop returns once
 * they have). If that takes longer than the engine's shutdown timeout, it hands back what it still
 * holds and exits anyway: other engines take the work over at once, and any late result of this one
 * is fenced off. A second signal exits the same way without waiting.
 */
export function drainOnSignals(
  engine: Engine,
  print: (s: string) => void,
): { signal: AbortSignal; dispose(): void } {
  const stop = new AbortController();
  const limit = engine.deps.settings.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_MS;
  let timer: NodeJS.Timeout | undefined;
  const giveUp = async (why: string) => {
    print(`engine ${engine.deps.engineId}: ${why}; handing back its work\n`);
    await engine.stop();
    await engine.deps.store.close().catch(() => undefined);
    process.exit(0);
  };
  const onSignal = () => {
    if (stop.signal.aborted) {
      void giveUp('stopped again');
      return;
    }
    print(`engine ${engine.deps.engineId} draining (at most ${limit} ms)\n`);
    stop.abort();
    timer = setTimeout(() => void giveUp(`still busy after ${limit} ms`), limit);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return {
    signal: stop.signal,
    dispose: () => {
      clearTimeout(timer);
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
}
