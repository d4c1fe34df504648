// API benchmark: `npm run bench:api`. A `hearth serve` equivalent in this process (the same
// engine, server and request logging, noauth, engine workers running) on a fresh SQLite file,
// 100 stacks created through the API, then autocannon against the stack list and the stack show.
// Environment: BENCH_STACKS (100), BENCH_SECONDS (10 per route), BENCH_CONNECTIONS (10),
// BENCH_ROUTES (list,show), BENCH_PROFILE=FILE (a CPU profile of the load phase).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import pino from 'pino';
import { noauthAuthenticator } from '../src/api/authenticator.js';
import { apiLogger } from '../src/api/logging.js';
import { buildServer } from '../src/api/server.js';
import { openEngine } from '../src/cli/embedded.js';
import { defaultConfig } from '../src/config/index.js';

const STACKS = Number(process.env.BENCH_STACKS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUTES = new Set((process.env.BENCH_ROUTES ?? 'list,show').split(','));

/** A small stack of the usual kind: parameters (one hidden), a chain of values, outputs. */
const TEMPLATE = {
  heat_template_version: '2018-08-31',
  description: 'API benchmark stack',
  parameters: {
    name: { type: 'string', default: 'bench' },
    password: { type: 'string', hidden: true, default: 'not-shown' },
    size: { type: 'number', default: 3, constraints: [{ range: { min: 1, max: 10 } }] },
  },
  resources: {
    a: { type: 'OS::Heat::Value', properties: { value: { get_param: 'name' } } },
    b: {
      type: 'OS::Heat::Value',
      properties: { value: { list_join: ['-', [{ get_attr: ['a', 'value'] }, 'b']] } },
    },
    c: { type: 'OS::Heat::Value', properties: { value: { get_param: 'size' }, type: 'number' } },
    d: { type: 'OS::Heat::Value', properties: { value: { get_attr: ['b', 'value'] } } },
    e: { type: 'OS::Heat::Value', properties: { value: { get_attr: ['c', 'value'] }, type: 'number' } },
  },
  outputs: {
    joined: { description: 'the chain', value: { get_attr: ['d', 'value'] } },
    size: { value: { get_attr: ['e', 'value'] } },
  },
};

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-api-'));
// The write rate limit is off: the setup's creates measure the server, not the limiter.
const config = { ...defaultConfig(), database: join(dir, 'state.db'), api_write_rate_limit: 0 };
const engine = await openEngine(config, { db: config.database });
// As `hearth serve` logs (info: two lines a request), into /dev/null.
const logger = apiLogger('info', pino.destination('/dev/null'));
const app = await buildServer({ engine, authenticator: noauthAuthenticator(), limits: config }, { logger });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const stop = new AbortController();
const workers = engine.runUntil(async () => false, { signal: stop.signal });

const base = `${address}/v1/p`;
const created: { id: string; name: string }[] = [];
const t0 = performance.now();
for (let i = 0; i < STACKS; i++) {
  const name = `bench-${String(i).padStart(3, '0')}`;
  const res = await fetch(`${base}/stacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stack_name: name, template: TEMPLATE, parameters: { name } }),
  });
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${await res.text()}`);
  created.push({ id: ((await res.json()) as { stack: { id: string } }).stack.id, name });
}
// The workers converge them; the list says when every one is done.
for (;;) {
  const { stacks } = (await (await fetch(`${base}/stacks`)).json()) as { stacks: { stack_status: string }[] };
  const done = stacks.filter((s) => s.stack_status === 'CREATE_COMPLETE').length;
  if (stacks.some((s) => s.stack_status.endsWith('FAILED'))) throw new Error('a stack failed');
  if (done === STACKS) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const setupMs = performance.now() - t0;

const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}

async function load(label: string, paths: string[]): Promise<Result> {
  let next = 0;
  const result = await autocannon({
    url: address,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }),
      },
    ],
  });
  const rate = result.requests.total / result.duration;
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${label}: ${rate.toFixed(0)} requests/s, latency p50 ${result.latency.p50} ms, ` +
      `p99 ${result.latency.p99} ms, max ${result.latency.max} ms` +
      (failures > 0 ? `, ${failures} FAILED (non-2xx ${result.non2xx}, errors ${result.errors})` : ''),
  );
  return result;
}

console.log(
  `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `Node ${process.version}; ${STACKS} stacks created in ${(setupMs / 1000).toFixed(1)} s; ` +
    `${CONNECTIONS} connections, ${SECONDS} s a route`,
);
if (ROUTES.has('list')) await load('GET /v1/p/stacks', ['/v1/p/stacks']);
if (ROUTES.has('show')) {
  await load(
    'GET /v1/p/stacks/{name}/{id}',
    created.map((s) => `/v1/p/stacks/${s.name}/${s.id}`),
  );
}

if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
}
stop.abort();
await workers;
await app.close();
await engine.stop();
await engine.deps.store.close();
rmSync(dir, { recursive: true, force: true });
