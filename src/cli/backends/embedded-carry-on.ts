import { startBackgroundEngine } from '../background-engine.js';
import type { Config } from '../../config/index.js';
import type { Engine } from '../../engine/engine.js';
import { engineAlive } from '../../engine/runtime/liveness.js';
import type { GlobalOptions } from '../embedded.js';

/*
 * What keeps an embedded operation going once the command has returned (or been interrupted): a
 * background engine on a SQLite file, an engine of the deployment on a PostgreSQL one. The user is
 * told in one line on stderr (stdout may carry a -f json document).
 */

/** Some other engine than this process's heartbeats on the store. */
async function otherEngineAlive(engine: Engine): Promise<boolean> {
  const { store, clock, settings, engineId } = engine.deps;
  const services = await store.tx((tx) => tx.services.list());
  const now = clock.now();
  return services.some((s) => s.engineId !== engineId && engineAlive(s, now, settings.engineDeadAfterMs));
}

/** Starts what runs the queued work, and says what it is: `watch` is how to follow the stack. */
export async function carryOn(engine: Engine, config: Config, opts: GlobalOptions, name: string) {
  const log = startBackgroundEngine(config, opts);
  const watch = `hearth stack event list ${name} --follow`;
  if (log !== undefined) return `A background engine runs it (log: ${log}); watch with: ${watch}`;
  if (await otherEngineAlive(engine)) return `An engine on this store runs it; watch with: ${watch}`;
  return `No engine runs on this store: add --wait, or run: hearth stack run ${name} (or keep hearth engine running)`;
}

/** Tells the user the work carries on after this command. */
export async function reportCarryOn(engine: Engine, config: Config, opts: GlobalOptions, name: string) {
  process.stderr.write(`${await carryOn(engine, config, opts, name)}\n`);
}

/**
 * Ctrl-C during --wait: hands the claims of this process back (the next engine takes them over at
 * once), starts an engine to carry on, says so and how to resume, and exits 130 as a shell expects.
 */
export async function interruptedWait(
  engine: Engine,
  config: Config,
  opts: GlobalOptions,
  stack: { id: string; name: string },
): Promise<never> {
  const record = await engine.deps.store.tx((tx) => tx.stacks.get(stack.id)).catch(() => undefined);
  await engine.stop();
  const state = record ? `${record.action}_${record.status}` : 'IN_PROGRESS';
  const log = startBackgroundEngine(config, opts);
  const resume = `hearth stack run ${stack.name}`;
  process.stderr.write(
    log !== undefined
      ? `\nInterrupted: the stack stays ${state}; a background engine carries on (log: ${log}; hearth stack show ${stack.name}), or run: ${resume}\n`
      : `\nInterrupted: the stack stays ${state}; to carry on run: ${resume} (or keep hearth engine running)\n`,
  );
  await engine.deps.store.close().catch(() => undefined);
  process.exit(130);
}
