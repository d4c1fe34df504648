import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import type { Config } from '../config/index.js';
import type { Engine } from '../engine/engine.js';
import { sqliteFileOf } from '../store/index.js';
import { configuredDatabase, type GlobalOptions } from './embedded.js';

/*
 * The background engine: a command on a SQLite store that starts work without --wait leaves a
 * detached `hearth engine --until-idle` behind, so the stack progresses after the command returns
 * (as it would with a Heat service). One per file, by a pid file; it exits once the queue is empty.
 * Several engines sharing a store is safe by design, so a race (two at once, one beside a
 * foreground --wait or a `hearth engine`) costs nothing but a process.
 */

/** The lock holder refreshes the pid file this often; one not refreshed for STALE_MS is stale. */
export const LOCK_TOUCH_MS = 5_000;
const STALE_MS = 30_000;
/** How long the queue stays idle before a background engine exits. */
export const IDLE_EXIT_MS = 3_000;

/** The pid file and the log of the background engine of a SQLite file. */
export function backgroundFiles(file: string): { lock: string; log: string } {
  return { lock: `${file}.engine.pid`, log: `${file}.engine.log` };
}

/** The SQLite file a background engine would serve, or undefined (PostgreSQL, turned off). */
export function backgroundFile(config: Config, opts: GlobalOptions): string | undefined {
  if (!config.background_engine) return undefined;
  return sqliteFileOf(configuredDatabase(config, opts));
}

/** A process holds the lock: its pid file is fresh and names a live process (a pid reused after a kill goes stale). */
function holderAlive(lock: string): boolean {
  let text: string;
  let mtime: number;
  try {
    text = readFileSync(lock, 'utf8');
    mtime = statSync(lock).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - mtime > STALE_MS) return false;
  const pid = Number(text.trim());
  // Empty: its holder is writing it this instant.
  if (text.trim() === '') return true;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock for this process, taking over a stale one; false if a live process holds it. */
export function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (holderAlive(lock)) return false;
    try {
      unlinkSync(lock);
    } catch {
      // Another taker removed it first: the next attempt tells who won.
    }
  }
  return false;
}

/** Keeps the lock fresh (so it never looks stale while its holder lives). */
export function touchLock(lock: string): void {
  const now = new Date();
  try {
    utimesSync(lock, now, now);
  } catch {
    // Gone (removed by hand): the next command starts another engine, which is harmless.
  }
}

/** Lets go of the lock if this process holds it. */
export function releaseLock(lock: string): void {
  try {
    if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
  } catch {
    // Already gone.
  }
}

/**
 * Makes sure an engine runs the work queued on this SQLite file: starts a detached one unless one
 * runs. Returns its log file, or undefined when there is none to start (PostgreSQL, turned off).
 * Called after the work is committed: an engine about to exit looks at the queue again after it
 * lets go of the lock, so work it did not see is never left without an engine.
 */
export function startBackgroundEngine(config: Config, opts: GlobalOptions): string | undefined {
  const file = backgroundFile(config, opts);
  const script = process.argv[1];
  if (file === undefined || script === undefined) return undefined;
  const { lock, log } = backgroundFiles(file);
  if (holderAlive(lock)) return log;
  const out = openSync(log, 'a');
  try {
    const args = [...(opts.config ? ['--config', opts.config] : []), '--db', file, 'engine', '--until-idle'];
    const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
      detached: true,
      stdio: ['ignore', out, out],
      env: process.env,
    });
    // A failed start (no such executable) must not crash the command that has done its work.
    child.on('error', (err) => process.stderr.write(`the background engine did not start: ${err.message}\n`));
    child.unref();
  } finally {
    closeSync(out);
  }
  return log;
}

/**
 * `done` for `runUntil` of a background engine: true once the queue has been empty for `graceMs`.
 * Work due later (a delay, a resource polled, a unit parked at a hook or on a wait condition until
 * its next look) keeps it running: timeouts fire as they would with a Heat service.
 */
export function idleFor(engine: Engine, graceMs: number = IDLE_EXIT_MS): () => Promise<boolean> {
  let since: number | undefined;
  return async () => {
    const now = engine.deps.clock.now();
    if ((await engine.deps.store.nextWorkTime()) !== undefined) {
      since = undefined;
      return false;
    }
    since ??= now;
    return now - since >= graceMs;
  };
}
