/**
 * Crash tests with real processes: a create and an update of a 500-resource stack run by the real
 * `hearth` CLI, whose engine process is killed (SIGKILL) at random moments and restarted with
 * `hearth stack run` until the operation settles; the result must be complete and equal to the
 * template, with no duplicated and no leaked physical object.
 *
 * Reproduce a run with CRASH_SEED=<seed> (printed at the start and in every failure);
 * CRASH_KILLS=<create>,<update> changes how many kills each phase gets (default 12,10).
 * scripts/crash-soak.mjs repeats the test with fresh seeds.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkConverged, Child, type Exit, StateProbe, stateFile } from './harness.js';
import { bigTemplate, rng } from './template.js';

const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : randomInt(1, 2 ** 31);
const [CREATE_KILLS, UPDATE_KILLS] = (process.env.CRASH_KILLS ?? '12,10').split(',').map(Number) as [
  number,
  number,
];
const STACK = 'big';
const SHAPE = { chains: 20, length: 24, fanIn: 20, waitEvery: 4, replaced: 12 };
/** Longest a run left alone may take before the stack counts as stuck. */
const SETTLE_MS = 90_000;

interface Phase {
  label: string;
  /** The command that starts the operation. */
  start: string[];
  /** Whether the stack's status shows the operation was accepted (its transaction committed). */
  begun: (status: string | undefined) => boolean;
  kills: number;
  /** Roughly how many events the operation records, to spread progress-timed kills over it. */
  events: number;
}

interface PhaseReport {
  kills: string[];
  /** The run that finished by itself. */
  final: Exit;
}

class Crasher {
  readonly random: () => number;
  readonly probe: StateProbe;
  readonly db: string;

  constructor(
    readonly dir: string,
    seed: number,
  ) {
    this.random = rng(seed);
    this.db = stateFile(dir);
    this.probe = new StateProbe(this.db);
  }

  /** Context for a failure: the seed, what was done, what is left in flight. */
  explain(what: string, kills: string[]): string {
    return `${what}\nseed ${SEED} (CRASH_SEED=${SEED}), work dir ${this.dir}\nkills so far:\n  ${kills.join('\n  ')}\nstate:\n${this.probe.diagnostics()}`;
  }

  /**
   * Starts the operation (again, while it was not accepted) or resumes it with `stack run`, and
   * kills the process `phase.kills` times: at a random time (sometimes before the operation is even
   * accepted, sometimes while the new engine waits out the dead one's leases), or once a random
   * share of the operation's events has been recorded. Then lets a run finish.
   */
  async phase(phase: Phase): Promise<PhaseReport> {
    const base = this.probe.events();
    const kills: string[] = [];
    while (kills.length < phase.kills) {
      const begun = phase.begun(this.probe.status(STACK));
      const args = begun ? ['stack', 'run', STACK] : phase.start;
      const child = new Child(args, this.dir, this.db);
      // The kill comes once a random share of the operation's events is recorded (spread over the
      // whole operation, and always some progress after the restart) or, one time in three, at a
      // random time if that is earlier: during start-up, before the operation is accepted, or while
      // the new engine waits for the dead one's leases to expire.
      const share = ((kills.length + this.random()) / phase.kills) * 0.85;
      const target = Math.max(
        base + Math.round(phase.events * share),
        this.probe.events() + 1 + Math.floor(this.random() * 40),
      );
      const delay = this.random() < 0.35 ? Math.round(300 + this.random() * 2500) : SETTLE_MS;
      const deadline = Date.now() + delay;
      while (child.running && this.probe.events() < target && Date.now() < deadline) await sleep(5);
      if (child.running && delay === SETTLE_MS && Date.now() >= deadline) {
        child.kill();
        assert.fail(this.explain(`${phase.label}: no progress for ${SETTLE_MS} ms`, kills));
      }
      const trigger = Date.now() >= deadline ? `after ${delay} ms` : `at event ${target - base}`;
      if (!child.running) {
        const exit = await child.exited;
        if (exit.code !== 0) {
          assert.fail(
            this.explain(
              `${phase.label}: hearth ${args.join(' ')} exited ${exit.code}\n${exit.stderr}`,
              kills,
            ),
          );
        }
        return { kills, final: exit }; // finished before this kill
      }
      child.kill();
      const exit = await child.exited;
      kills.push(
        `${args.slice(0, 2).join(' ')} killed ${trigger} (${exit.ms} ms, events ${this.probe.events() - base})`,
      );
    }
    // Left alone, a run (or the start command, if no attempt was accepted) must reach the end.
    const args = phase.begun(this.probe.status(STACK)) ? ['stack', 'run', STACK] : phase.start;
    const child = new Child(args, this.dir, this.db);
    const timer = setTimeout(() => child.kill(), SETTLE_MS);
    const exit = await child.exited;
    clearTimeout(timer);
    if (exit.code !== 0) {
      const what =
        exit.signal === 'SIGKILL' ? `stuck: still running after ${SETTLE_MS} ms` : `exited ${exit.code}`;
      assert.fail(this.explain(`${phase.label}: hearth ${args.join(' ')} ${what}\n${exit.stderr}`, kills));
    }
    return { kills, final: exit };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('crash recovery with real processes', () => {
  it(
    'a 500-resource create and update, killed with SIGKILL over and over, converge exactly',
    { timeout: 240_000 },
    async (t) => {
      t.diagnostic(`seed ${SEED} (reproduce with CRASH_SEED=${SEED})`);
      const dir = mkdtempSync(join(tmpdir(), 'hearth-crash-'));
      const template = bigTemplate(SEED, SHAPE);
      writeFileSync(join(dir, 'big.yaml'), template.text);
      const crasher = new Crasher(dir, SEED);
      const started = Date.now();
      let ok = false;
      try {
        const created = await crasher.phase({
          label: 'create',
          start: ['stack', 'create', STACK, '-t', 'big.yaml', '--wait'],
          begun: (status) => status !== undefined,
          kills: CREATE_KILLS,
          events: 2 * template.names.length,
        });
        const before = await checkConverged(dir, crasher.db, STACK, template, 'g0', 'CREATE').catch(
          (err: Error) => assert.fail(crasher.explain(`after create: ${err.message}`, created.kills)),
        );

        const updated = await crasher.phase({
          label: 'update',
          start: ['stack', 'update', STACK, '-t', 'big.yaml', '--parameter', 'gen=g1', '--wait'],
          begun: (status) => status?.startsWith('UPDATE_') === true,
          kills: UPDATE_KILLS,
          events: 2 * template.names.length + 4 * template.replaced.size,
        });
        const after = await checkConverged(dir, crasher.db, STACK, template, 'g1', 'UPDATE').catch(
          (err: Error) => assert.fail(crasher.explain(`after update: ${err.message}`, updated.kills)),
        );
        // Updated in place keeps the physical object; update_replace_value makes a new one.
        for (const name of template.names) {
          if (template.replaced.has(name))
            assert.notEqual(after.get(name), before.get(name), `${name} replaced`);
          else assert.equal(after.get(name), before.get(name), `${name} updated in place`);
        }

        const total = created.kills.length + updated.kills.length;
        t.diagnostic(
          `${total} kills (create ${created.kills.length}, update ${updated.kills.length}) in ${Math.round((Date.now() - started) / 1000)} s`,
        );
        for (const line of [
          ...created.kills.map((k) => `create: ${k}`),
          ...updated.kills.map((k) => `update: ${k}`),
        ])
          t.diagnostic(line);
        assert.ok(
          total >= 20,
          crasher.explain(`only ${total} kills landed before the operations ended`, [
            ...created.kills,
            ...updated.kills,
          ]),
        );
        ok = true;
      } finally {
        crasher.probe.close();
        if (ok) rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
