import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServeProcess, startServe } from './serve-process.js';

// `hearth serve` runs the API and the engine on one event loop: big work (binding a large
// template, a traversal start inserting every row, the engine's batches) must leave it free often
// enough that other requests are answered promptly. The bound is the behaviour under test: 200 ms
// over the p99 of the same requests against the idle server, measured in the same run.

const N = Number(process.env.HEARTH_RESPONSIVE_RESOURCES ?? 10_000);
/** Latency allowed over the idle baseline. */
const ALLOWANCE_MS = 200;
/** Requests are sent on a schedule, not one after the other: a stall delays every one sent during it. */
const EVERY_MS = 20;

const PROJECT = 'p';

function bigTemplate(count: number): unknown {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) resources[`r${i}`] = { type: 'OS::Heat::None' };
  return { heat_template_version: '2018-08-31', resources };
}

/** `count` values from one parameter: every update changes every resource. */
function valueTemplate(count: number): unknown {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    resources[`v${i}`] = { type: 'OS::Heat::Value', properties: { value: { get_param: 'p' } } };
  }
  return {
    heat_template_version: '2018-08-31',
    parameters: { p: { type: 'string' } },
    resources,
    outputs: {
      first: { value: { get_attr: ['v0', 'value'] } },
      last: { value: { get_attr: [`v${count - 1}`, 'value'] } },
    },
  };
}

function p99(latencies: readonly number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

/** Polls /healthz and the stack list on a fixed schedule until `stop` resolves; their latencies. */
async function pollWhile(server: ServeProcess, stop: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  const sent: Promise<void>[] = [];
  let i = 0;
  const one = async (path: string) => {
    const start = performance.now();
    const res = await server.request('GET', path);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    latencies.push(performance.now() - start);
  };
  const timer = setInterval(() => {
    sent.push(one(i++ % 2 === 0 ? '/healthz' : `/v1/${PROJECT}/stacks`));
  }, EVERY_MS);
  try {
    await stop;
  } finally {
    clearInterval(timer);
  }
  await Promise.all(sent);
  return latencies;
}

async function showStack(server: ServeProcess, name: string, id: string): Promise<Record<string, unknown>> {
  const res = await server.request('GET', `/v1/${PROJECT}/stacks/${name}/${id}`);
  assert.equal(res.status, 200, res.text);
  return (res.body as { stack: Record<string, unknown> }).stack;
}

/** The stack once its status is no longer `from`. */
async function settled(
  server: ServeProcess,
  name: string,
  id: string,
  from: string,
): Promise<Record<string, unknown>> {
  for (;;) {
    const stack = await showStack(server, name, id);
    if (stack.stack_status !== from) return stack;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function create(server: ServeProcess, body: Record<string, unknown>): Promise<string> {
  const res = await server.request('POST', `/v1/${PROJECT}/stacks`, { body });
  assert.equal(res.status, 201, res.text);
  return (res.body as { stack: { id: string } }).stack.id;
}

describe('hearth serve answers requests while big work runs', { timeout: 600_000 }, () => {
  let dir: string;
  let server: ServeProcess;
  let baseline: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-responsive-'));
    server = await startServe(['--db', join(dir, 'state.db'), 'serve', '--auth', 'noauth', '--port', '0']);
    baseline = await idleP99();
  });

  /**
   * The idle server's p99 under this machine's load now: what the bound is relative to. Measured
   * before and again after each test's work, the larger counting: the machine's load may change
   * meanwhile (other processes); the server's own work is what the bound is about.
   */
  async function idleP99(): Promise<number> {
    return p99(await pollWhile(server, new Promise((resolve) => setTimeout(resolve, 3000))));
  }

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`polls stay under 200 ms over the idle p99 while a ${N}-resource create is accepted and runs`, async (t) => {
    const template = bigTemplate(N);
    const created = (async () => {
      const id = await create(server, { stack_name: 'big', template });
      return settled(server, 'big', id, 'CREATE_IN_PROGRESS');
    })();
    const latencies = await pollWhile(server, created);
    const stack = await created;
    assert.equal(stack.stack_status, 'CREATE_COMPLETE', String(stack.stack_status_reason));
    const worst = p99(latencies);
    baseline = Math.max(baseline, await idleP99());
    t.diagnostic(
      `p99 ${worst.toFixed(0)} ms over ${latencies.length} polls; idle p99 ${baseline.toFixed(0)} ms`,
    );
    assert.ok(
      worst < ALLOWANCE_MS + baseline,
      `p99 ${worst.toFixed(0)} ms over ${latencies.length} requests (idle p99 ${baseline.toFixed(0)} ms)`,
    );
  });

  it('PUTs sent back to back during a running update are each answered promptly, and the last wins', async (t) => {
    const count = 1000;
    const template = valueTemplate(count);
    const id = await create(server, { stack_name: 'values', template, parameters: { p: 'v0' } });
    assert.equal((await settled(server, 'values', id, 'CREATE_IN_PROGRESS')).stack_status, 'CREATE_COMPLETE');

    const path = `/v1/${PROJECT}/stacks/values/${id}`;
    const put = async (p: string): Promise<number> => {
      const start = performance.now();
      const res = await server.request('PUT', path, { body: { template, parameters: { p } } });
      assert.equal(res.status, 202, res.text);
      return performance.now() - start;
    };
    // A PUT does its own work before it answers (binding 1,000 resources, starting the traversal):
    // what it costs on this machine now, with nothing else running, is measured first.
    const alone = await put('v0');
    await settled(server, 'values', id, 'UPDATE_IN_PROGRESS');
    const answered: number[] = [];
    for (let i = 1; i <= 5; i++) {
      answered.push(await put(`v${i}`));
      // Each one was accepted while the one before it ran.
      if (i > 1) assert.equal((await showStack(server, 'values', id)).stack_status, 'UPDATE_IN_PROGRESS');
    }
    const worst = Math.max(...answered);
    const stack = await settled(server, 'values', id, 'UPDATE_IN_PROGRESS');
    baseline = Math.max(baseline, await idleP99());
    const shown = `PUTs answered in ${answered.map((ms) => ms.toFixed(0)).join(', ')} ms; alone ${alone.toFixed(0)} ms; idle p99 ${baseline.toFixed(0)} ms`;
    t.diagnostic(shown);
    // Sharing the loop (and, on a loaded machine, the cores) with the running update's work, a PUT
    // may take three times its own time; waiting for that update (seconds) would be far beyond.
    assert.ok(worst < ALLOWANCE_MS + baseline + 3 * alone, shown);
    assert.equal(stack.stack_status, 'UPDATE_COMPLETE', String(stack.stack_status_reason));
    const outputs = new Map(
      (stack.outputs as { output_key: string; output_value: unknown }[]).map((o) => [
        o.output_key,
        o.output_value,
      ]),
    );
    assert.equal(outputs.get('first'), 'v5');
    assert.equal(outputs.get('last'), 'v5');
  });
});
