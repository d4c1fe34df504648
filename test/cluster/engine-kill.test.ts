/**
 * Multi-engine fault test with real processes: three `hearth engine` processes share one
 * PostgreSQL database, each as if on a host of its own (so that a killed engine is noticed only by
 * its heartbeat going stale). Stacks of 1,000 OS::Heat::TestResources are created, then updated,
 * with the CLI; during each of these traversals (the trials) a random engine is SIGKILLed at a
 * random moment and a replacement started. Every trial must end COMPLETE and equal to the
 * template, with no physical object duplicated or leaked, no row left in progress or locked and no
 * work claimed by a dead engine. At the end every stack is deleted and not one physical object may
 * be left.
 *
 * Nothing here depends on the machine's speed: a trial fails when no node finished for STALL_MS
 * (120 s), not after a deadline. A trial whose traversal ended before its kill (its progress polls
 * came too late, on a busy machine) is checked all the same but not counted: another one runs.
 *
 * CLUSTER_SEED=<seed> replays the same templates and kill schedule (kills are tied to progress,
 * so a replay is close, not identical). CLUSTER_TRIALS sets how many (30 by default: `npm run
 * test:cluster`; `npm test` runs a few). CLUSTER_INJECT=duplicate|leak plants a duplicate or a
 * leaked physical object halfway through the first trial (inject.ts): the run must then fail.
 * CLUSTER_STALL_MS changes the no-progress window.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it, type TestContext } from 'node:test';
import { checkObserved, checkReplacements } from '../crash/harness.js';
import { type BigTemplate, bigTemplate, rng } from '../crash/template.js';
import { dropSchemas, freshSchemaUrl, postgresSuiteOptions } from '../support/postgres.js';
import { assertNothingLeft } from './checks.js';
import { Cluster, DEAD_AFTER_MS, type FleetEngine, THOUSAND } from './cluster.js';

const SEED = process.env.CLUSTER_SEED ? Number(process.env.CLUSTER_SEED) : randomInt(1, 2 ** 31);
const ENGINES = 3;
const TRIALS = Number(process.env.CLUSTER_TRIALS ?? 30);
/** Each stack is created then updated: five operations per stack, one after the other. */
const PER_STACK = 5;
/** Trials that ended before their kill (rerun); more than this means kills never land. */
const MAX_MISSED = Math.max(3, TRIALS);
/** A backstop against a hung harness only: the stall checks fail a stuck cluster long before. */
const TEST_TIMEOUT_MS = Math.max(600_000, TRIALS * 120_000);

interface Trial {
  stack: string;
  action: 'CREATE' | 'UPDATE';
  gen: string;
}

describe('engines killed during traversals on PostgreSQL', await postgresSuiteOptions(), () => {
  let cluster: Cluster;
  /** Replacements still starting (the next trial's CLI starts meanwhile). */
  const starting: Promise<FleetEngine>[] = [];

  before(async () => {
    cluster = await Cluster.open(await freshSchemaUrl());
  });

  after(async () => {
    await cluster?.close();
    await dropSchemas();
  });

  it(
    `${TRIALS} creates and updates of 1,000 resources, an engine killed in each, converge exactly`,
    { timeout: TEST_TIMEOUT_MS },
    async (t) => {
      t.diagnostic(
        `seed ${SEED} (reproduce with CLUSTER_SEED=${SEED}); engines presumed dead after ${DEAD_AFTER_MS} ms`,
      );
      const started = Date.now();
      await cluster.startEngines(ENGINES);

      const random = rng(SEED);
      const names: string[] = [];
      let template: BigTemplate | undefined;
      let physical = new Map<string, string>();
      let operations = PER_STACK;
      let killed = 0;
      let missed = 0;
      while (killed < TRIALS) {
        if (operations === PER_STACK) {
          names.push(`k${String(names.length).padStart(2, '0')}`);
          template = bigTemplate(SEED + names.length - 1, THOUSAND);
          cluster.writeTemplate(names.at(-1)!, template);
          operations = 0;
        }
        const trial: Trial =
          operations === 0
            ? { stack: names.at(-1)!, action: 'CREATE', gen: 'g0' }
            : { stack: names.at(-1)!, action: 'UPDATE', gen: `g${operations}` };
        const outcome = await runTrial(t, trial, template!, random);
        if (operations > 0) checkReplacements(template!, physical, outcome.physical);
        physical = outcome.physical;
        operations++;
        if (outcome.killed) killed++;
        else assert.ok(++missed <= MAX_MISSED, `${missed} trials ended before their kill: kills never land`);
      }

      await Promise.all(starting.splice(0));

      // Every stack deleted at once (no kill): not one physical object may be left.
      const deleting = Date.now();
      await cluster.delete(names);
      try {
        await cluster.probe.gone(names);
        assertNothingLeft(await cluster.probe.objects());
      } catch (err) {
        assert.fail(cluster.fleet.explain(`the deletes, seed ${SEED}: ${(err as Error).message}`));
      }
      t.diagnostic(
        `deleted ${names.length} stacks in ${Date.now() - deleting} ms; ${killed} trials killed ` +
          `(${missed} rerun: ended before their kill); ${cluster.fleet.kills.length} engines killed; ` +
          `total ${Date.now() - started} ms`,
      );
    },
  );

  /**
   * Starts the trial's operation with the CLI, kills an engine once a random share of the
   * traversal's nodes is done (one trial in five kills a second one a moment later), starts a
   * replacement for each (still starting, maybe, when the next trial begins), waits for the end and
   * checks the stack; returns the physical ids and whether a kill landed.
   */
  async function runTrial(
    t: TestContext,
    trial: Trial,
    template: BigTemplate,
    random: () => number,
  ): Promise<{ physical: Map<string, string>; killed: boolean }> {
    const { fleet, probe } = cluster;
    const label = `${trial.stack} ${trial.action.toLowerCase()} ${trial.gen}`;
    const share = random() * 0.9;
    const twice = random() < 0.2;
    const kills: string[] = [];
    const begun = Date.now();
    const operation =
      trial.action === 'CREATE' ? cluster.create(trial.stack) : cluster.update(trial.stack, trial.gen);
    await Promise.all([operation, ...starting.splice(0)]);
    const accepted = Date.now();
    let seen = 'no progress seen';

    /** Kills a random engine and starts its replacement. */
    const killOne = async (done: number, total: number) => {
      const running = fleet.running;
      const victim = running[Math.floor(random() * running.length)]!;
      const at = Date.now();
      await fleet.kill(victim, `during ${label} at ${done}/${total} nodes`);
      kills.push(`${victim.host} at ${done}/${total} nodes, ${at - accepted} ms in`);
      const replacement = fleet.start();
      replacement.catch(() => undefined); // awaited (and failing the test) when the next trial begins
      starting.push(replacement);
    };

    let stack;
    let physical: Map<string, string>;
    try {
      stack = await probe.settle(trial.stack, async ({ done, total }) => {
        seen = `${done}/${total} nodes ${Date.now() - accepted} ms in`;
        if (total === 0 || done / total < share) return;
        if (kills.length === 0 || (twice && kills.length === 1)) await killOne(done, total);
      });
      physical = checkObserved(await probe.observe(trial.stack), template, trial.gen, trial.action);
      await cluster.assertNotStuck(trial.stack);
    } catch (err) {
      const what = `${label} (kills: ${kills.join('; ') || 'none'}; seed ${SEED})`;
      assert.fail(cluster.fleet.explain(`${what}: ${(err as Error).message}`));
    }
    const outcome =
      kills.length > 0
        ? `killed ${kills.join(', ')}`
        : `ended before its kill at ${Math.round(share * 100)}% (last seen ${seen}): rerun`;
    t.diagnostic(
      `${label}: ${stack.action}_${stack.status} in ${Date.now() - accepted} ms (+ cli ${accepted - begun} ms); ${outcome}`,
    );
    return { physical, killed: kills.length > 0 };
  }
});
