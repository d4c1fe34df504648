/**
 * A chain's links are direct dependents (each waits on its predecessor alone): a link's completion
 * enqueues the next carrying its one input in the unit (work.inputs), with no input row and no
 * countdown. The engine is killed (SIGKILL) while the chain is in its middle, its next link queued
 * with that carried input; a restarted `hearth stack run` must resume there: every resource created
 * once (none repeated, none skipped), each value built from its predecessor's.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sleep } from './crasher.js';
import { checkConverged, Child, cli, StateProbe, stateFile } from './harness.js';
import { bigTemplate } from './template.js';

const STACK = 'chain';
/** One chain of 40 links, every other one waiting 0.2 s after its create (persisted polling). */
const SHAPE = { chains: 1, length: 40, fanIn: 0, waitEvery: 2, waitSecs: 0.2, replaced: 0 };
const KILL_AFTER = 15;

interface EventView {
  resource_name: string;
  resource_status: string;
}

describe('a chain run as one unit per link, killed in its middle', () => {
  it('resumes at the link it had reached, repeating and skipping none', { timeout: 300_000 }, async (t) => {
    const seed = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : randomInt(1, 2 ** 31);
    t.diagnostic(`seed ${seed}`);
    const dir = mkdtempSync(join(tmpdir(), 'hearth-chain-'));
    const db = stateFile(dir);
    const template = bigTemplate(seed, SHAPE);
    writeFileSync(join(dir, 'chain.yaml'), template.text);
    const probe = new StateProbe(db);
    let ok = false;
    try {
      const create = new Child(['stack', 'create', STACK, '-t', 'chain.yaml', '--wait'], dir, db);
      const deadline = Date.now() + 120_000;
      while (create.running && probe.completeNames().length < KILL_AFTER && Date.now() < deadline)
        await sleep(5);
      assert.ok(create.running, `the create ended before the kill:\n${create.output}`);
      create.kill();
      await create.exited;

      const before = new Set(probe.completeNames());
      assert.ok(before.size >= KILL_AFTER && before.size < SHAPE.length, `killed at ${before.size} links`);
      // The chain's one unit: the next link (or the one in progress), carrying its predecessor's output.
      const queued = probe.queuedUnits();
      assert.equal(queued.length, 1, `one unit queued: ${JSON.stringify(queued)}`);
      const carried = JSON.parse(queued[0]!.inputs ?? 'null') as Record<string, { name?: string }> | null;
      assert.ok(carried, `the queued unit carries its input: ${JSON.stringify(queued)}`);
      assert.equal(Object.keys(carried).length, 1);

      await cli(dir, db, ['stack', 'run', STACK], 120_000);
      await checkConverged(dir, db, STACK, template, 'g0', 'CREATE');
      const events = JSON.parse(
        await cli(dir, db, ['stack', 'event', 'list', STACK, '-f', 'json']),
      ) as EventView[];
      for (const name of template.names) {
        const of = (status: string) =>
          events.filter((e) => e.resource_name === name && e.resource_status === status).length;
        assert.equal(of('CREATE_COMPLETE'), 1, `${name}: created once`);
        // A link complete before the kill is not started again.
        if (before.has(name)) assert.equal(of('CREATE_IN_PROGRESS'), 1, `${name}: started once`);
      }
      ok = true;
    } finally {
      probe.close();
      if (ok) rmSync(dir, { recursive: true, force: true });
      else t.diagnostic(`state kept in ${dir}`);
    }
  });
});
