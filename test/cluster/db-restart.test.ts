/**
 * Database restart with real processes: engines on a PostgreSQL server of the test's own (see
 * private-postgres.ts; the shared server serves other tests) run a create, then an update, of
 * 1,000 OS::Heat::TestResources; during the create the server is restarted (a fast shutdown cuts
 * every connection), during the update it is stopped for a second and started again. The engines
 * must carry on by themselves (none may exit) and both traversals complete exactly: COMPLETE,
 * equal to the template, no physical object duplicated or leaked, nothing left in progress, locked
 * or claimed by the dead. A traversal fails only when no node finished for STALL_MS (progress.ts);
 * one that ended before its outage (on a busy machine, a late poll) is followed by another update
 * that gets it. CLUSTER_INJECT: see inject.ts.
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
/** Against a hung harness only: a stuck cluster fails the stall checks long before. */
const BACKSTOP_MS = 1_800_000;
/** Operations tried in all before giving up on an outage landing mid-traversal. */
const MAX_OPERATIONS = 6;

interface Outage {
  what: string;
  run: (db: PrivatePostgres) => Promise<void>;
}
const OUTAGES: Outage[] = [
  { what: 'restarted', run: (db) => db.restart().then(() => undefined) },
  {
    what: 'stopped for 1 s',
    run: async (db) => {
      await db.stop();
      await sleep(1000);
      await db.start();
    },
  },
];

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
    { timeout: BACKSTOP_MS },
    async (t) => {
      const { fleet } = cluster!;
      const db = server!;
      t.diagnostic(`seed ${SEED} (reproduce with CLUSTER_SEED=${SEED}); server ${db.url}`);
      const random = rng(SEED);
      const template = bigTemplate(SEED, THOUSAND);
      cluster!.writeTemplate(STACK, template);
      await cluster!.startEngines(ENGINES);
      try {
        const pending = [...OUTAGES];
        let physical = new Map<string, string>();
        for (let op = 0; pending.length > 0; op++) {
          assert.ok(op < MAX_OPERATIONS, `${op} traversals ended before their outage`);
          const action = op === 0 ? 'CREATE' : 'UPDATE';
          const outcome = await traverse(t, template, action, `g${op}`, 0.1 + random() * 0.5, pending[0]!);
          if (op > 0) checkReplacements(template, physical, outcome.physical);
          physical = outcome.physical;
          if (outcome.outaged) pending.shift();
        }
        assert.equal(fleet.running.length, ENGINES, 'every engine still runs');
      } catch (err) {
        assert.fail(fleet.explain(`seed ${SEED}: ${(err as Error).message}`));
      }
    },
  );

  /**
   * Runs the operation; once `share` of its nodes are done, `outage` takes the server away and
   * brings it back. Checks the result; returns the physical ids and whether the outage landed.
   */
  async function traverse(
    t: TestContext,
    template: BigTemplate,
    action: 'CREATE' | 'UPDATE',
    gen: string,
    share: number,
    outage: Outage,
  ): Promise<{ physical: Map<string, string>; outaged: boolean }> {
    const { fleet, probe } = cluster!;
    const label = `${action.toLowerCase()} ${gen}`;
    const begun = Date.now();
    await (action === 'CREATE' ? cluster!.create(STACK) : cluster!.update(STACK, gen));
    const accepted = Date.now();
    let outaged = '';
    await probe.settle(STACK, async ({ done, total }) => {
      if (outaged !== '' || total === 0 || done / total < share) return;
      const at = Date.now();
      await outage.run(server!);
      outaged = `server ${outage.what} at ${done}/${total} nodes, ${at - accepted} ms in (took ${Date.now() - at} ms)`;
      fleet.note(`${label}: ${outaged}`);
    });
    const physical = checkObserved(await probe.observe(STACK), template, gen, action);
    await cluster!.assertNotStuck(STACK);
    t.diagnostic(
      `${label}: completed in ${Date.now() - accepted} ms (+ cli ${accepted - begun} ms); ` +
        (outaged || `ended before the server was ${outage.what}: another update follows`),
    );
    return { physical, outaged: outaged !== '' };
  }
});
