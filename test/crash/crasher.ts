/**
 * Runs one stack operation through the real CLI while killing its engine processes (SIGKILL) at
 * seeded random moments, restarting it with `hearth stack run`, until a run left alone settles it.
 */
import assert from 'node:assert/strict';
import { Child, type Exit, StateProbe, stateFile } from './harness.js';
import { rng } from './template.js';

/** Longest a run left alone may take before the stack counts as stuck. */
export const SETTLE_MS = 45_000;

/** What the probe sees of the stack: whether an operation was accepted is read from it. */
export interface StackState {
  status: string | undefined;
  traversal: string | undefined;
}

export interface Phase {
  label: string;
  /** The command that starts the operation. */
  start: string[];
  /** Whether the operation was accepted (its transaction committed): from then on `stack run`. */
  begun: (state: StackState) => boolean;
  /** Engine processes to kill. */
  kills: number;
  /** Roughly how many events the operation records, to spread progress-timed kills over it. */
  events: number;
  /** Whether the operation has ended (for a delete: no `stack run` can follow it). */
  done?: (state: StackState) => boolean;
  /** Let a run finish the operation at the end (otherwise it is left in progress). */
  settle: boolean;
}

export interface PhaseReport {
  /** One line per process killed: the command, what triggered the kill, the progress so far. */
  kills: string[];
  /** The run that finished by itself, if one did. */
  final?: Exit;
}

export class Crasher {
  readonly random: () => number;
  readonly probe: StateProbe;
  readonly db: string;
  /** Every kill of every phase, for failure messages. */
  readonly history: string[] = [];

  constructor(
    readonly dir: string,
    readonly stack: string,
    readonly seed: number,
    /** How to run this again: the environment that gives this seed. */
    readonly replay = `CRASH_SEED=${seed}`,
  ) {
    this.random = rng(seed);
    this.db = stateFile(dir);
    this.probe = new StateProbe(this.db);
  }

  state(): StackState {
    return this.probe.stack(this.stack);
  }

  /** Context for a failure: the seed, what was done, what is left in flight. */
  explain(what: string): string {
    return [
      what,
      `seed ${this.seed} (reproduce with ${this.replay}), work dir ${this.dir}`,
      `kills so far:\n  ${this.history.join('\n  ')}`,
      `state:\n${this.probe.diagnostics()}`,
    ].join('\n');
  }

  private record(kills: string[], line: string): void {
    kills.push(line);
    this.history.push(line);
  }

  /** Fails with the context unless the process that ended by itself succeeded. */
  private checkExit(label: string, args: string[], exit: Exit): void {
    if (exit.code === 0) return;
    const what = exit.signal === 'SIGKILL' ? `still running after ${SETTLE_MS} ms` : `exited ${exit.code}`;
    assert.fail(this.explain(`${label}: hearth ${args.join(' ')} ${what}\n${exit.stderr}`));
  }

  /**
   * Starts the operation (again, while no attempt was accepted) or resumes it with `stack run`,
   * killing the process `phase.kills` times. A kill comes once a random share of the operation's
   * events has been recorded (spread over the whole operation, and always after some progress of
   * the restarted engine) or, one time in three, at a random time if that is earlier: during
   * start-up, before the operation is accepted, or while the new engine takes over the dead one's
   * work. One cycle in five runs a second engine beside the first, killed a moment after it, so
   * live engines also take over from dead ones. Then, if asked, lets a run finish.
   */
  async phase(phase: Phase): Promise<PhaseReport> {
    const base = this.probe.events();
    const kills: string[] = [];
    while (kills.length < phase.kills) {
      if (phase.done?.(this.state())) return { kills };
      const begun = phase.begun(this.state());
      const args = begun ? ['stack', 'run', this.stack] : phase.start;
      const child = new Child(args, this.dir, this.db);
      const companion =
        begun && this.random() < 0.2 ? new Child(['stack', 'run', this.stack], this.dir, this.db) : undefined;
      const share = ((kills.length + this.random()) / phase.kills) * 0.85;
      const target = Math.max(
        base + Math.round(phase.events * share),
        this.probe.events() + 1 + Math.floor(this.random() * 40),
      );
      const delay = this.random() < 0.35 ? Math.round(300 + this.random() * 2500) : undefined;
      const gap = Math.round(this.random() * 400);
      const extra = 1 + Math.floor(this.random() * 60);
      const deadline = Date.now() + (delay ?? SETTLE_MS);
      await this.until(child, target, deadline);
      if (child.running && delay === undefined && Date.now() >= deadline) {
        child.kill();
        companion?.kill();
        assert.fail(this.explain(`${phase.label}: no progress for ${SETTLE_MS} ms`));
      }
      const trigger =
        delay !== undefined && Date.now() >= deadline ? `after ${delay} ms` : `at event ${target - base}`;

      let finished = await this.kill(phase.label, child, kills, `killed ${trigger}`, base);
      if (companion) {
        // The second engine goes a moment later, or once it has done a little work alone.
        const killedAt = Date.now();
        await this.until(companion, this.probe.events() + extra, killedAt + gap);
        const later = `(second engine) killed ${Date.now() - killedAt} ms later`;
        finished = (await this.kill(phase.label, companion, kills, later, base)) ?? finished;
      }
      if (finished) return { kills, final: finished };
    }
    if (!phase.settle || phase.done?.(this.state())) return { kills };
    // Left alone, a run (or the start command, if no attempt was accepted) must reach the end.
    const args = phase.begun(this.state()) ? ['stack', 'run', this.stack] : phase.start;
    const child = new Child(args, this.dir, this.db);
    const timer = setTimeout(() => child.kill(), SETTLE_MS);
    const exit = await child.exited;
    clearTimeout(timer);
    this.checkExit(phase.label, args, exit);
    return { kills, final: exit };
  }

  /**
   * Kills `child` if it is still running and records it; returns its exit if it had ended by itself
   * (the operation ended before the kill), failing the test unless it succeeded.
   */
  private async kill(
    label: string,
    child: Child,
    kills: string[],
    how: string,
    base: number,
  ): Promise<Exit | undefined> {
    if (!child.running) {
      const exit = await child.exited;
      this.checkExit(label, child.args, exit);
      return exit;
    }
    child.kill();
    const exit = await child.exited;
    const command = child.args.slice(0, 2).join(' ');
    this.record(
      kills,
      `${label}: ${command} ${how} (ran ${exit.ms} ms; events ${this.probe.events() - base})`,
    );
    return undefined;
  }

  /** Waits until `child` has exited, `events` have been recorded, or `deadline` has passed. */
  private async until(child: Child, events: number, deadline: number): Promise<void> {
    while (child.running && this.probe.events() < events && Date.now() < deadline) await sleep(5);
  }

  close(): void {
    this.probe.close();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
