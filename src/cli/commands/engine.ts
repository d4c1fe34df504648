import type { Command } from 'commander';
import { type GlobalOptions, openEmbedded } from '../embedded.js';

/**
 * `hearth engine`: runs workers only, until stopped. SIGTERM or SIGINT stops claiming new work;
 * units already running finish and commit before the process exits (a unit cut short would be
 * claimed again by another engine after its lease, so stopping early is safe too).
 */
export function registerEngineCommand(program: Command, print: (s: string) => void): void {
  program
    .command('engine')
    .description('Run engine workers on the store until stopped (what an operator starts after a crash)')
    .action(async () => {
      const engine = await openEmbedded(program.opts<GlobalOptions>());
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      print(`engine ${engine.deps.engineId} started\n`);
      try {
        await engine.runUntil(async () => false, { signal: stop.signal });
      } finally {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        await engine.stop();
        await engine.deps.store.close();
        print(`engine ${engine.deps.engineId} stopped\n`);
      }
    });
}
