/**
 * A wait condition survives its engine: the process running `stack create --wait` is killed
 * (SIGKILL) while the condition waits for its handle's signals; one signal is sent while no engine
 * runs but the signal's own, the engine is started again (`stack run`), a second signal is sent,
 * and the stack completes with both signals' data.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sleep } from './crasher.js';
import { Child, cli, StateProbe, stateFile } from './harness.js';

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  handle: {type: OS::Heat::WaitConditionHandle}
  wc:
    type: OS::Heat::WaitCondition
    properties: {handle: {get_resource: handle}, count: 2, timeout: 600}
outputs:
  data: {value: {get_attr: [wc, data]}}
`;

describe('crash: a wait condition signalled after its engine was killed', () => {
  it('completes the stack once the engine runs again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-crash-wc-'));
    const db = stateFile(dir);
    const probe = new StateProbe(db);
    writeFileSync(join(dir, 't.yaml'), TEMPLATE);
    try {
      const create = new Child(['stack', 'create', 's', '-t', 't.yaml', '--wait'], dir, db);
      const deadline = Date.now() + 30_000;
      while (!probe.inProgress().some((r) => r.name === 'wc') && Date.now() < deadline) {
        assert.ok(create.running, 'the create ended before its condition waited');
        await sleep(20);
      }
      create.kill();
      assert.equal((await create.exited).signal, 'SIGKILL');
      assert.equal(probe.stack('s').status, 'CREATE_IN_PROGRESS', 'killed while the condition waits');

      const signal = (data: string) =>
        cli(dir, db, ['stack', 'resource', 'signal', 's', 'handle', '--data', JSON.stringify({ data })]);
      await signal('while down');
      assert.equal(probe.stack('s').status, 'CREATE_IN_PROGRESS', 'one signal of two');

      const run = new Child(['stack', 'run', 's'], dir, db);
      await signal('after restart');
      const timer = setTimeout(() => run.kill(), 60_000);
      const exit = await run.exited;
      clearTimeout(timer);
      assert.equal(exit.code, 0, exit.stderr);

      const shown = JSON.parse(await cli(dir, db, ['stack', 'show', 's', '-f', 'json'])) as {
        stack_status: string;
        stack_status_reason: string;
        outputs: { output_key: string; output_value: unknown }[];
      };
      assert.equal(shown.stack_status, 'CREATE_COMPLETE', shown.stack_status_reason);
      assert.equal(
        shown.outputs.find((o) => o.output_key === 'data')?.output_value,
        '{"1": "while down", "2": "after restart"}',
      );
      assert.deepEqual(probe.lockedRows(), [], 'no lock left held');
    } finally {
      probe.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
