/**
 * Database restart with real processes: engines on a PostgreSQL server of the test's own (see
 * private-postgres.ts; the shared server serves other tests) run a create, then an update, of
 * 1,000 OS::Heat::TestResources; during the create the server is restarted (a fast shutdown cuts
 * every connection), during the update it is stopped for a second and started again. The engines
 * must carry on by themselves (none may exit) and both traversals complete exactly: COMPLETE,
 * equal to the template, no physical object duplicated or leaked.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it, type TestContext } from 'node:test';
import { sleep } from '../crash/crasher.js';
import { checkObserved, checkReplacements } from '../crash/harness.js';
import { type BigTemplate, bigTemplate, rng } from '../crash/template.js';
import { Cluster, THOUSAND } from './cluster.js';
import { PrivatePostgres, privatePostgresSuiteOptions } from './private-postgres.js';

const SEED = process.env.CLUSTER_SEED ? Number(process.env.CLUSTER_SEED) : randomInt(1, 2 ** 31);
const STACK = 'restarted';
const ENGINES = 2;
/** Longest a traversal may take before its outage. */
const OPERATION_MS = 120_000;

describe('a database restart during traversals', privatePostgresSuiteOptions(), () => {
  let server: PrivatePostgres | undefined;
  let cluster: Cluster | undefined;

  before(async () => {
    server = await PrivatePostgres.start();
    cluster = await Cluster.open(server.url);
  });

  after(async () => {
    await cluster?.close();
    await server?.close();
  });

  it(
    'engines carry on through a restart of PostgreSQL; the traversals complete exactly',
    { timeout: 400_000 },
    async (t) => {
      const { fleet } = cluster!;
      const db = server!;
      t.diagnostic(`seed ${SEED} (reproduce with CLUSTER_SEED=${SEED}); server ${db.url}`);
      const random = rng(SEED);
      const template = bigTemplate(SEED, THOUSAND);
      cluster!.writeTemplate(STACK, template);
      await cluster!.startEngines(ENGINES);
      try {
        const created = await traverse(t, template, 'CREATE', 'g0', 0.1 + random() * 0.5, async () => {
          await db.restart();
          return 'restarted';
        });
        const updated = await traverse(t, template, 'UPDATE', 'g1', 0.1 + random() * 0.5, async () => {
          await db.stop();
          await sleep(1000);
          await db.start();
          return 'stopped for 1 s';
        });
        checkReplacements(template, created, updated);
        assert.equal(fleet.running.length, ENGINES, 'every engine still runs');
      } catch (err) {
        assert.fail(fleet.explain(`seed ${SEED}: ${(err as Error).message}`));
      }
    },
  );

  /**
   * Runs the operation; once `share` of its nodes are done, `outage` takes the server away and
   * brings it back. Checks the result and returns the physical ids.
   */
  async function traverse(
    t: TestContext,
    template: BigTemplate,
    action: 'CREATE' | 'UPDATE',
    gen: string,
    share: number,
    outage: () => Promise<string>,
  ): Promise<Map<string, string>> {
    const { fleet, probe } = cluster!;
    const label = `${action.toLowerCase()} ${gen}`;
    const begun = Date.now();
    await (action === 'CREATE' ? cluster!.create(STACK) : cluster!.update(STACK, gen));
    const accepted = Date.now();
    let outaged = '';
    let deadline = accepted + OPERATION_MS;
    await probe.settle(
      STACK,
      () => deadline,
      async ({ done, total }) => {
        if (outaged !== '' || total === 0 || done / total < share) return;
        const at = Date.now();
        const what = await outage();
        const back = Date.now();
        outaged = `server ${what} at ${done}/${total} nodes, ${at - accepted} ms in (took ${back - at} ms)`;
        fleet.note(`${label}: ${outaged}`);
        // Once the server is back: twice the rest of the work at the pace so far, and 20 s for
        // the engines to reconnect.
        const remaining = ((at - accepted) * (total - done)) / Math.max(done, 1);
        deadline = back + 2 * remaining + 20_000;
      },
    );
    const physical = checkObserved(await probe.observe(STACK), template, gen, action);
    assert.notEqual(outaged, '', `${label} ended before the server was restarted`);
    t.diagnostic(
      `${label}: completed in ${Date.now() - accepted} ms (+ cli ${accepted - begun} ms); ${outaged}`,
    );
    return physical;
  }
});
