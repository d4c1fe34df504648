import type { Command } from 'commander';
import { drainOnSignals } from '../drain.js';
import { type GlobalOptions, openEmbedded } from '../embedded.js';

/**
 * `hearth engine`: runs workers only, until stopped. SIGTERM or SIGINT stops claiming new work;
 * units already running finish and commit before the process exits, within the shutdown timeout
 * (see drain.ts). Operators never prepare an engine for maintenance: stopping it is enough.
 */
export function registerEngineCommand(program: Command, print: (s: string) => void): void {
  program
    .command('engine')
    .description('Run engine workers on the store until stopped (what an operator starts after a crash)')
    .action(async () => {
      const engine = await openEmbedded(program.opts<GlobalOptions>());
      const drain = drainOnSignals(engine, print);
      print(`engine ${engine.deps.engineId} started\n`);
      try {
        await engine.runUntil(async () => false, { signal: drain.signal });
      } finally {
        drain.dispose();
        await engine.stop();
        await engine.deps.store.close();
        print(`engine ${engine.deps.engineId} stopped\n`);
      }
    });
}
