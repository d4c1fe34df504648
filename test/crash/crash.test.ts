/**
 * Crash tests with real processes: a create, update and delete of a 500-resource stack run by the
 * real `hearth` CLI, whose engine processes are killed (SIGKILL) at random moments and restarted
 * with `hearth stack run` until the operation settles. The result must be COMPLETE and equal to the
 * template, with no duplicated and no leaked physical object and no lock left held; after the delete,
 * nothing at all. Two more tests supersede an update while engines are killed (a resumed create).
 *
 * Every run prints its seed; CRASH_SEED=<seed> replays the same template and kill schedule (the
 * moments are tied to progress, so a replay is close, not identical). CRASH_KILLS=<create>,<update>,
 * <delete> changes how many processes the first test kills (default 12,10,5). scripts/crash-soak.mjs
 * repeats the file with fresh seeds. (Not HEARTH_*: the configuration loader rejects unknown names.)
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { Crasher, type PhaseReport, sleep } from './crasher.js';
import {
  checkConverged,
  checkDeleted,
  checkReplacements,
  Child,
  realityObjects,
  StateProbe,
  stateFile,
} from './harness.js';
import { type BigTemplate, bigTemplate, rng } from './template.js';

const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : randomInt(1, 2 ** 31);
const [CREATE_KILLS = 12, UPDATE_KILLS = 10, DELETE_KILLS = 5] = (process.env.CRASH_KILLS ?? '')
  .split(',')
  .filter((n) => n !== '')
  .map(Number);
const STACK = 'big';
const SLOW_PUTS = fileURLToPath(new URL('./slow-puts.ts', import.meta.url));
/** 20 chains of 24 links and 20 fan-in resources: 500; a quarter wait 50 ms; 12 replaced on update. */
const SHAPE = { chains: 20, length: 24, fanIn: 20, waitEvery: 4, replaced: 12 };

const create = ['stack', 'create', STACK, '-t', 'big.yaml', '--wait'];
const update = (gen: string) => [
  'stack',
  'update',
  STACK,
  '-t',
  'big.yaml',
  '--parameter',
  `gen=${gen}`,
  '--wait',
];
/** Events of a create or update of every resource: IN_PROGRESS and COMPLETE each, and a replacement's delete. */
const createEvents = (t: BigTemplate) => 2 * t.names.length;
const updateEvents = (t: BigTemplate) => 2 * t.names.length + 4 * t.replaced.size;

/**
 * Found by these tests (the third reproduced it every time), now fixed: a kill between a plugin's
 * create and the row update that completes it leaves the row CREATE_IN_PROGRESS, locked by a unit
 * of the old traversal. A newer traversal resumed that create with ITS properties; TestResource's
 * create found the object by idempotency key and returned it as it was, so the row recorded the new
 * properties while the object kept the old ones. The engine now saves the properties with the lock,
 * resumes with those, and decides again afterwards (an update here).
 */

/** A fresh directory with the template, a Crasher on it, and the clean-up (kept when the test fails). */
async function withStack(
  t: TestContext,
  offset: number,
  body: (crasher: Crasher, template: BigTemplate) => Promise<void>,
): Promise<void> {
  const seed = SEED + offset;
  t.diagnostic(`seed ${seed} (reproduce with CRASH_SEED=${SEED})`);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-crash-'));
  const template = bigTemplate(seed, SHAPE);
  writeFileSync(join(dir, 'big.yaml'), template.text);
  const crasher = new Crasher(dir, STACK, seed, `CRASH_SEED=${SEED}`);
  const started = Date.now();
  let ok = false;
  try {
    await body(crasher, template);
    ok = true;
  } finally {
    crasher.close();
    t.diagnostic(
      `${crasher.history.length} engine processes killed in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    for (const line of crasher.history) t.diagnostic(line);
    if (ok) rmSync(dir, { recursive: true, force: true });
  }
}

/** checkConverged, with the seed, the kills and the state in the message when it fails. */
async function converged(crasher: Crasher, template: BigTemplate, gen: string, action: 'CREATE' | 'UPDATE') {
  try {
    return await checkConverged(crasher.dir, crasher.db, STACK, template, gen, action);
  } catch (err) {
    assert.fail(crasher.explain(`${action} with gen=${gen} did not converge: ${(err as Error).message}`));
  }
}

function killed(...reports: PhaseReport[]): number {
  return reports.reduce((n, r) => n + r.kills.length, 0);
}

describe('crash recovery with real processes', () => {
  it(
    'a 500-resource create, update and delete, their engines killed over and over, converge exactly',
    { timeout: 600_000 },
    (t) =>
      withStack(t, 0, async (crasher, template) => {
        const created = await crasher.phase({
          label: 'create',
          start: create,
          begun: (s) => s.status !== undefined,
          kills: CREATE_KILLS,
          events: createEvents(template),
          settle: true,
        });
        const before = await converged(crasher, template, 'g0', 'CREATE');

        const updated = await crasher.phase({
          label: 'update',
          start: update('g1'),
          begun: (s) => s.status?.startsWith('UPDATE_') === true,
          kills: UPDATE_KILLS,
          events: updateEvents(template),
          settle: true,
        });
        const after = await converged(crasher, template, 'g1', 'UPDATE');
        checkReplacements(template, before, after);

        const deleted = await crasher.phase({
          label: 'delete',
          start: ['stack', 'delete', STACK, '--yes', '--wait'],
          begun: (s) => s.status?.startsWith('DELETE_') === true,
          done: (s) => s.status === 'DELETE_COMPLETE',
          kills: DELETE_KILLS,
          events: createEvents(template),
          settle: true,
        });
        try {
          await checkDeleted(crasher.dir, crasher.db, STACK);
        } catch (err) {
          assert.fail(crasher.explain(`the delete did not converge: ${(err as Error).message}`));
        }

        // The kill schedule is spread over each operation, so every kill lands unless the event
        // estimate is badly off: that would make this test weaker than it claims.
        const total = killed(created, updated, deleted);
        assert.ok(
          total >= Math.min(20, CREATE_KILLS + UPDATE_KILLS + DELETE_KILLS),
          crasher.explain(`only ${total} kills landed before the operations ended`),
        );
      }),
  );

  it(
    'an update superseded by another while engines are killed converges to the newest template',
    // Fails when a kill leaves a create interrupted inside the plugin call (often, not always).
    { timeout: 600_000 },
    (t) =>
      withStack(t, 1, async (crasher, template) => {
        await crasher.phase({
          label: 'create',
          start: create,
          begun: (s) => s.status !== undefined,
          kills: 0,
          events: createEvents(template),
          settle: true,
        });
        const before = await converged(crasher, template, 'g0', 'CREATE');

        const first = await crasher.phase({
          label: 'update g1',
          start: update('g1'),
          begun: (s) => s.status?.startsWith('UPDATE_') === true,
          kills: 4,
          events: updateEvents(template),
          settle: false,
        });
        // A second update while the first is still in progress (or done, if it ended early).
        const { traversal } = crasher.state();
        const second = await crasher.phase({
          label: 'update g2',
          start: update('g2'),
          begun: (s) => s.traversal !== traversal,
          kills: 5,
          events: updateEvents(template),
          settle: true,
        });
        const after = await converged(crasher, template, 'g2', 'UPDATE');
        checkReplacements(template, before, after);
        assert.ok(killed(first, second) >= 6, crasher.explain('too few kills landed'));
      }),
  );

  it(
    'a create interrupted inside the plugin call, then superseded by an update, applies the update',
    { timeout: 400_000 },
    async (t) => {
      const seed = SEED + 2;
      t.diagnostic(`seed ${seed} (reproduce with CRASH_SEED=${SEED})`);
      // Independent resources without waits: killed while the engine works, the create leaves rows
      // interrupted between the plugin call and the row update that completes it.
      const template = bigTemplate(seed, { chains: 200, length: 1, fanIn: 0, waitEvery: 1000, replaced: 0 });
      const dir = await interruptCreate(t, template, rng(seed));
      const crasher = new Crasher(dir, STACK, seed, `CRASH_SEED=${SEED}`);
      try {
        await crasher.phase({
          label: 'update',
          start: update('g1'),
          begun: (s) => s.status?.startsWith('UPDATE_') === true,
          kills: 0,
          events: updateEvents(template),
          settle: true,
        });
        await converged(crasher, template, 'g1', 'UPDATE');
      } finally {
        // Not kept on failure: the reproduction is deterministic, and this one fails until fixed.
        crasher.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

/**
 * Kills `stack create` of `template` (gen=g0) until the kill leaves what the third test needs,
 * checked rather than hoped for: a row still CREATE_IN_PROGRESS, with no progress saved, whose
 * physical object the interrupted attempt had already made. Returns the directory.
 */
async function interruptCreate(t: TestContext, template: BigTemplate, random: () => number): Promise<string> {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-crash-'));
    writeFileSync(join(dir, 'big.yaml'), template.text);
    const db = stateFile(dir);
    const probe = new StateProbe(db);
    try {
      // One unit at a time (a batch makes its 200 creates in a few milliseconds, rarely hit), each
      // physical write slowed down once made: most kills land inside a plugin call.
      const child = new Child(create, dir, db, { HEARTH_WORK_BATCH_SIZE: '1' }, [SLOW_PUTS]);
      const target = 20 + Math.floor(random() * 200);
      while (child.running && probe.events() < target) await sleep(2);
      child.kill();
      await child.exited;
      const made = new Map(realityObjects(db).map((o) => [o.key, o]));
      const interrupted = probe.inProgress().filter(
        (r) =>
          r.action === 'CREATE' &&
          // The plugin call had not returned: nothing, or only what the lock recorded, is saved.
          (r.progress === null || (JSON.parse(r.progress) as { state?: unknown }).state === null) &&
          made.get(r.uuid)?.properties.value === `g0.${r.name}`,
      );
      if (interrupted.length > 0) {
        t.diagnostic(
          `attempt ${attempt}: killed at event ${target}; creates interrupted after their object was made: ` +
            interrupted.map((r) => r.name).join(', '),
        );
        return dir;
      }
    } finally {
      probe.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
  assert.fail('no kill left a create interrupted inside the plugin call in 10 attempts');
}
