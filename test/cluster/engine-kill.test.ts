/**
 * Multi-engine fault test with real processes: three `hearth engine` processes share one
 * PostgreSQL database, each as if on a host of its own (so that a killed engine is noticed only by
 * its heartbeat going stale). Stacks of 1,000 OS::Heat::TestResources are created, then updated,
 * with the CLI; during each of these traversals (the trials) a random engine is SIGKILLed at a
 * random moment and a replacement started. Every trial must end COMPLETE and equal to the
 * template, with no physical object duplicated or leaked, within an explicit deadline: the
 * heartbeat timeout plus the remaining work. At the end every stack is deleted and not one
 * physical object may be left.
 *
 * CLUSTER_SEED=<seed> replays the same templates and kill schedule (kills are tied to progress,
 * so a replay is close, not identical). CLUSTER_TRIALS sets how many (30 by default: `npm run
 * test:cluster`; `npm test` runs a few).
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it, type TestContext } from 'node:test';
import { cli, checkObserved, checkReplacements } from '../crash/harness.js';
import { type BigTemplate, bigTemplate, rng } from '../crash/template.js';
import { dropSchemas, freshSchemaUrl, postgresSuiteOptions } from '../support/postgres.js';
import { Cluster, DEAD_AFTER_MS, type FleetEngine, LEASE_MS, THOUSAND } from './cluster.js';

const SEED = process.env.CLUSTER_SEED ? Number(process.env.CLUSTER_SEED) : randomInt(1, 2 ** 31);
const ENGINES = 3;
const TRIALS = Number(process.env.CLUSTER_TRIALS ?? 30);
/** Each stack is created then updated: five trials per stack, one after the other. */
const PER_STACK = 5;
const STACKS = Math.ceil(TRIALS / PER_STACK);
/** Longest a trial may run before any kill (a stack stuck without one fails too). */
const UNKILLED_MS = 90_000;

interface Trial {
  stack: string;
  action: 'CREATE' | 'UPDATE';
  gen: string;
}

describe('engines killed during traversals on PostgreSQL', await postgresSuiteOptions(), () => {
  let cluster: Cluster;
  /** The longest trial so far, from its start to its end (kills included). */
  let slowest: number | undefined;
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
    { timeout: 900_000 },
    async (t) => {
      t.diagnostic(
        `seed ${SEED} (reproduce with CLUSTER_SEED=${SEED}); engines presumed dead after ${DEAD_AFTER_MS} ms`,
      );
      const started = Date.now();
      await cluster.startEngines(ENGINES);

      const names = Array.from({ length: STACKS }, (_, s) => `k${String(s).padStart(2, '0')}`);
      const random = rng(SEED);
      for (const [s, stack] of names.entries()) {
        const template = bigTemplate(SEED + s, THOUSAND);
        cluster.writeTemplate(stack, template);
        let physical = await runTrial(t, { stack, action: 'CREATE', gen: 'g0' }, template, random);
        const updates = Math.min(PER_STACK, TRIALS - s * PER_STACK) - 1;
        for (let u = 1; u <= updates; u++) {
          const updated = await runTrial(t, { stack, action: 'UPDATE', gen: `g${u}` }, template, random);
          checkReplacements(template, physical, updated);
          physical = updated;
        }
      }

      await Promise.all(starting.splice(0));

      // Every stack deleted at once (no kill): not one physical object may be left.
      const deleting = Date.now();
      await cli(cluster.dir, cluster.url, ['stack', 'delete', ...names, '--yes']);
      try {
        for (const stack of names) await cluster.probe.gone(stack, deleting + UNKILLED_MS);
        assert.deepEqual(await cluster.probe.objects(), [], 'leaks: physical objects left by the deletes');
      } catch (err) {
        assert.fail(cluster.fleet.explain(`the deletes, seed ${SEED}: ${(err as Error).message}`));
      }
      t.diagnostic(
        `deleted ${names.length} stacks in ${Date.now() - deleting} ms; ${cluster.fleet.kills.length} engines ` +
          `killed; total ${Date.now() - started} ms`,
      );
    },
  );

  /**
   * Starts the trial's operation with the CLI, kills an engine once a random share of the
   * traversal's nodes is done (one trial in five kills a second one a moment later), starts a
   * replacement for each (still starting, maybe, when the next trial begins), waits for the end and
   * checks the stack; returns the physical ids.
   */
  async function runTrial(
    t: TestContext,
    trial: Trial,
    template: BigTemplate,
    random: () => number,
  ): Promise<Map<string, string>> {
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
    // Until a kill, the bound for a stuck stack; after one, what the kill allows (below).
    let deadline = accepted + UNKILLED_MS;
    let killDeadline = 0;
    let seen = 'no progress seen';

    /**
     * Kills a random engine and starts its replacement. The kill allows the heartbeat timeout and
     * a lease, then twice the time the rest of the work takes at the pace so far (at the slowest
     * earlier trial's, early on), with 10 s to spare for the replacement starting on a busy machine.
     */
    const killOne = async (done: number, total: number) => {
      const running = fleet.running;
      const victim = running[Math.floor(random() * running.length)]!;
      const at = Date.now();
      await fleet.kill(victim, `during ${label} at ${done}/${total} nodes`);
      kills.push(`${victim.host} at ${done}/${total} nodes, ${at - accepted} ms in`);
      const replacement = fleet.start();
      replacement.catch(() => undefined); // awaited (and failing the test) when the next trial begins
      starting.push(replacement);
      const fraction = done / total;
      const projected = fraction > 0.1 ? ((at - accepted) * (1 - fraction)) / fraction : 0;
      const remaining = Math.max(projected, (1 - fraction) * (slowest ?? 30_000));
      killDeadline = Math.max(killDeadline, at + DEAD_AFTER_MS + LEASE_MS + 2 * remaining + 10_000);
      deadline = killDeadline;
    };

    let stack;
    let physical: Map<string, string>;
    try {
      stack = await probe.settle(
        trial.stack,
        () => deadline,
        async ({ done, total }) => {
          seen = `${done}/${total} nodes ${Date.now() - accepted} ms in`;
          if (total === 0 || done / total < share) return;
          if (kills.length === 0 || (twice && kills.length === 1)) await killOne(done, total);
        },
      );
      physical = checkObserved(await probe.observe(trial.stack), template, trial.gen, trial.action);
      assert.ok(kills.length > 0, `ended before its kill at ${Math.round(share * 100)}% (last seen ${seen})`);
    } catch (err) {
      const what = `${label} (kills: ${kills.join('; ') || 'none'}; seed ${SEED})`;
      assert.fail(cluster.fleet.explain(`${what}: ${(err as Error).message}`));
    }
    slowest = Math.max(slowest ?? 0, Date.now() - accepted);
    t.diagnostic(
      `${label}: ${stack.action}_${stack.status} in ${Date.now() - accepted} ms (+ cli ${accepted - begun} ms); ` +
        `killed ${kills.join(', ')}`,
    );
    return physical;
  }
});
