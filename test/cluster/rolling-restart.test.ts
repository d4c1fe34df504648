/**
 * Rolling restart with real processes: three `hearth engine` processes on one PostgreSQL database
 * run an update of 1,000 OS::Heat::TestResources; meanwhile each engine in turn gets a
 * replacement and is stopped with SIGTERM. Each must exit by itself (code 0), and the update must
 * complete exactly as if nothing had happened: every resource updated (or replaced) once, no
 * physical object duplicated or leaked, nothing left in progress, locked or claimed by the dead.
 *
 * No deadline depends on the machine's speed: a traversal fails when no node finished for
 * STALL_MS (progress.ts), and a stopped engine is only SIGKILLed (failing the test) a minute past
 * its shutdown timeout. An update that ends before every engine was restarted (replacements start
 * slowly on a busy machine) is followed by another one, during which the rest are restarted.
 * CLUSTER_INJECT: see inject.ts.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { isOptionName } from '../../src/config/options.js';
import { checkObserved, checkReplacements } from '../crash/harness.js';
import { bigTemplate } from '../crash/template.js';
import { dropSchemas, freshSchemaUrl, postgresSuiteOptions } from '../support/postgres.js';
import { Cluster, engineEnv } from './cluster.js';

const SEED = process.env.CLUSTER_SEED ? Number(process.env.CLUSTER_SEED) : randomInt(1, 2 ** 31);
const STACK = 'rolling';
/**
 * 40 chains of 24 links and 40 fan-in resources: 1,000, 10 replaced. The links 0, 8 and 16 of each
 * chain wait 4 s after an update, so that the update lasts (12 s at the very least) while three
 * engines are restarted one by one; creates do not wait.
 */
const SHAPE = {
  chains: 40,
  length: 24,
  fanIn: 40,
  waitEvery: 8,
  waitSecs: { create: 0, update: 4 },
  replaced: 10,
};
/**
 * How long a stopped engine may finish its work: shutdown_timeout_ms where the configuration has
 * it (set lower here), else its default of 20 s. Past it, the engine exits by itself; the test
 * SIGKILLs it (and fails) only a generous margin later, closing the store taking long when busy.
 */
const SHUTDOWN_MS = isOptionName('shutdown_timeout_ms') ? 8000 : 20_000;
const EXIT_MARGIN_MS = 60_000;
/** Against a hung harness only: a stuck cluster fails the stall checks long before. */
const BACKSTOP_MS = 1_800_000;
/** Updates tried in all before giving up on restarting every engine during one. */
const MAX_UPDATES = 6;

describe(
  'a rolling restart of every engine during an update on PostgreSQL',
  await postgresSuiteOptions(),
  () => {
    let cluster: Cluster;

    before(async () => {
      const shutdown: Record<string, string> = isOptionName('shutdown_timeout_ms')
        ? { HEARTH_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS) }
        : {};
      cluster = await Cluster.open(await freshSchemaUrl(), engineEnv(shutdown));
    });

    after(async () => {
      await cluster?.close();
      await dropSchemas();
    });

    it(
      'restarting each of 3 engines with SIGTERM during a 1,000-resource update is invisible',
      { timeout: BACKSTOP_MS },
      async (t) => {
        const { fleet, probe } = cluster;
        t.diagnostic(`seed ${SEED} (reproduce with CLUSTER_SEED=${SEED})`);
        const template = bigTemplate(SEED, SHAPE);
        cluster.writeTemplate(STACK, template);
        const pending = await cluster.startEngines(3);
        try {
          let started = Date.now();
          await cluster.create(STACK);
          await probe.settle(STACK);
          let physical = checkObserved(await probe.observe(STACK), template, 'g0', 'CREATE');
          await cluster.assertNotStuck(STACK);
          t.diagnostic(`created in ${Date.now() - started} ms`);

          for (let u = 1; pending.length > 0; u++) {
            assert.ok(u <= MAX_UPDATES, `${u - 1} updates ended before their first engine was restarted`);
            started = Date.now();
            await cluster.update(STACK, `g${u}`);
            const accepted = Date.now();
            for (;;) {
              const stack = await probe.stack(STACK);
              if (pending.length === 0 || `${stack?.action}_${stack?.status}` !== 'UPDATE_IN_PROGRESS') break;
              const engine = pending.shift()!;
              // The replacement starts while the engine drains; the next one goes once it is up.
              const [replacement, { exit, ms }] = await Promise.all([
                fleet.start(),
                fleet.terminate(engine, SHUTDOWN_MS + EXIT_MARGIN_MS),
              ]);
              t.diagnostic(
                `${engine.host} stopped (replaced by ${replacement.host}): exited ${exit.code ?? exit.signal} ` +
                  `after ${ms} ms (${Date.now() - accepted} ms into update g${u})`,
              );
              assert.equal(
                exit.code,
                0,
                `${engine.host} exited ${exit.code ?? exit.signal} ${ms} ms after SIGTERM`,
              );
            }
            await probe.settle(STACK);
            const updated = checkObserved(await probe.observe(STACK), template, `g${u}`, 'UPDATE');
            checkReplacements(template, physical, updated);
            await cluster.assertNotStuck(STACK);
            physical = updated;
            t.diagnostic(`update g${u} in ${Date.now() - accepted} ms (+ cli ${accepted - started} ms)`);
          }
          assert.equal(fleet.running.length, 3, 'the three replacements still run');
        } catch (err) {
          assert.fail(fleet.explain(`seed ${SEED}: ${(err as Error).message}`));
        }
      },
    );
  },
);
