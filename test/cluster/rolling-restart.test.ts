/**
 * Rolling restart with real processes: three `hearth engine` processes on one PostgreSQL database
 * run an update of 1,000 OS::Heat::TestResources; meanwhile each engine in turn gets a
 * replacement and is stopped with SIGTERM. Each must exit by itself (code 0) within the shutdown
 * bound, and the update must complete exactly as if nothing had happened: every resource updated
 * (or replaced) once, no physical object duplicated or leaked.
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
 * How long a stopped engine may take to exit: shutdown_timeout_ms where the configuration has it
 * (set lower here), else its default of 20 s; plus a margin for closing the store and exiting.
 */
const SHUTDOWN_MS = isOptionName('shutdown_timeout_ms') ? 8000 : 20_000;
const EXIT_MARGIN_MS = 5000;
const OPERATION_MS = 180_000;

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
      { timeout: 400_000 },
      async (t) => {
        const { fleet, probe } = cluster;
        t.diagnostic(`seed ${SEED} (reproduce with CLUSTER_SEED=${SEED})`);
        const template = bigTemplate(SEED, SHAPE);
        cluster.writeTemplate(STACK, template);
        const originals = await cluster.startEngines(3);
        try {
          let started = Date.now();
          await cluster.create(STACK);
          await probe.settle(STACK, () => started + OPERATION_MS);
          const created = checkObserved(await probe.observe(STACK), template, 'g0', 'CREATE');
          t.diagnostic(`created in ${Date.now() - started} ms`);

          started = Date.now();
          await cluster.update(STACK, 'g1');
          const accepted = Date.now();
          for (const engine of originals) {
            const stack = await probe.stack(STACK);
            assert.equal(
              `${stack?.action}_${stack?.status}`,
              'UPDATE_IN_PROGRESS',
              `the update ended before ${engine.host} was restarted: too short to test anything`,
            );
            // The replacement starts while the engine drains; the next one goes once it is up.
            const [replacement, { exit, ms }] = await Promise.all([
              fleet.start(),
              fleet.terminate(engine, SHUTDOWN_MS + EXIT_MARGIN_MS + 10_000),
            ]);
            t.diagnostic(
              `${engine.host} stopped (replaced by ${replacement.host}): exited ${exit.code ?? exit.signal} ` +
                `after ${ms} ms (${Date.now() - accepted} ms into the update)`,
            );
            assert.equal(exit.code, 0, `${engine.host} exited ${exit.code ?? exit.signal} after SIGTERM`);
            assert.ok(
              ms <= SHUTDOWN_MS + EXIT_MARGIN_MS,
              `${engine.host} took ${ms} ms to exit after SIGTERM`,
            );
          }
          await probe.settle(STACK, () => accepted + OPERATION_MS);
          const updated = checkObserved(await probe.observe(STACK), template, 'g1', 'UPDATE');
          checkReplacements(template, created, updated);
          t.diagnostic(`updated in ${Date.now() - accepted} ms (+ cli ${accepted - started} ms)`);
          assert.equal(fleet.running.length, 3, 'the three replacements still run');
        } catch (err) {
          assert.fail(fleet.explain(`seed ${SEED}: ${(err as Error).message}`));
        }
      },
    );
  },
);
