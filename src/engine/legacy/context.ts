import type { WorkItem } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import type { TemplateCache } from '../core/templates.js';

/** Everything a legacy walk needs: the engine, the unit that holds the stack, and when to stop. */
export interface LegacyRun {
  deps: EngineDeps;
  cache: TemplateCache;
  /** The unit of work of the operation: its claim fences every operation this walk starts. */
  item: WorkItem;
  /** The lock holder written on the rows this walk works on. */
  holder: string;
  /** Aborted when the engine stops: the walk hands its unit back for another engine to resume. */
  signal: AbortSignal;
  /** The stack's timeout, as a time. */
  deadline: number;
}

/** Resources walked at once (Heat's legacy engine ran every ready resource at once). */
export const LEGACY_CONCURRENCY = 64;

/** A stack operation failed: the reason its stack records. */
export class StackFailed extends Error {
  override readonly name = 'StackFailed';
}

/**
 * The stack's time is up: Heat's legacy reason (`Create timed out`) is the stack's; an operation
 * still running is recorded as aborted.
 */
export class StackTimedOut extends StackFailed {
  constructor(action: string) {
    super(`${action.charAt(0)}${action.slice(1).toLowerCase()} timed out`);
  }
}

/** The engine is stopping, or lost the unit: the walk ends without recording an outcome. */
export class WalkInterrupted extends Error {
  override readonly name = 'WalkInterrupted';
}

/** Throws when the walk must stop: the engine stops, or the stack's time is up. */
export function checkpoint(run: LegacyRun, action: string): void {
  if (run.signal.aborted) throw new WalkInterrupted('the engine is stopping');
  if (run.deps.clock.now() > run.deadline) throw new StackTimedOut(action);
}

/** Waits `ms` in memory (the legacy engine's polling), ended early when the engine stops. */
export function pause(run: LegacyRun, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (run.signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    run.signal.addEventListener('abort', done, { once: true });
  });
}
