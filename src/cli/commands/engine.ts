import type { Command } from 'commander';
import {
  backgroundFiles,
  idleFor,
  LOCK_TOUCH_MS,
  releaseLock,
  takeLock,
  touchLock,
} from '../background-engine.js';
import { drainOnSignals } from '../drain.js';
import { cliConfig, configuredDatabase, type GlobalOptions, openEmbedded, openEngine } from '../embedded.js';
import { sqliteFileOf } from '../../store/index.js';

type Print = (s: string) => void;

/**
 * `hearth engine`: runs workers only, until stopped. SIGTERM or SIGINT stops claiming new work;
 * units already running finish and commit before the process exits, within the shutdown timeout
 * (see drain.ts). Operators never prepare an engine for maintenance: stopping it is enough.
 * `--until-idle` is the background engine commands start (background-engine.ts).
 */
export function registerEngineCommand(program: Command, print: Print): void {
  program
    .command('engine')
    .description('Run engine workers on the store until stopped (what an operator starts after a crash)')
    .option(
      '--until-idle',
      'on a SQLite store: exit once the queue is empty, one such engine per file (what commands start in the background)',
    )
    .action(async (opts: { untilIdle?: boolean }) => {
      if (opts.untilIdle) {
        await runUntilIdle(program.opts<GlobalOptions>(), print);
        return;
      }
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

/** Its lines go to a log file: each one dated. */
function dated(print: Print): Print {
  return (s) => print(`${new Date().toISOString()} ${s}`);
}

async function runUntilIdle(globals: GlobalOptions, plain: Print): Promise<void> {
  const print = dated(plain);
  const config = cliConfig(globals);
  const file = sqliteFileOf(configuredDatabase(config, globals));
  if (file === undefined) throw new Error('engine --until-idle runs on a SQLite store only');
  const { lock } = backgroundFiles(file);
  if (!takeLock(lock)) {
    print(`another background engine runs on ${file}; this one exits\n`);
    return;
  }
  const engine = await openEngine(config, globals);
  const drain = drainOnSignals(engine, print);
  const keepFresh = setInterval(() => touchLock(lock), LOCK_TOUCH_MS);
  keepFresh.unref();
  print(`engine ${engine.deps.engineId} started in the background on ${file}\n`);
  try {
    for (;;) {
      await engine.runUntil(idleFor(engine), { signal: drain.signal });
      releaseLock(lock);
      if (drain.signal.aborted) break;
      // A command that queued work while this engine was letting go saw the lock and started none.
      if ((await engine.deps.store.nextWorkTime()) === undefined) break;
      if (!takeLock(lock)) break;
    }
  } finally {
    clearInterval(keepFresh);
    drain.dispose();
    releaseLock(lock);
    await engine.stop();
    await engine.deps.store.close();
    print(`engine ${engine.deps.engineId} stopped${drain.signal.aborted ? '' : ': the queue is empty'}\n`);
  }
}
