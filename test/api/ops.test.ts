import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { type Authenticator, noauthAuthenticator } from '../../src/api/authenticator.js';
import { apiLogger } from '../../src/api/logging.js';
import { buildServer } from '../../src/api/server.js';
import { defaultConfig } from '../../src/config/index.js';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi, tenant } from './harness.js';

/** A logger writing JSON lines into memory, as `hearth serve` writes them to stderr. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = apiLogger('trace', { write: (line: string) => void lines.push(line) });
  return { logger, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, the samples of it (comments skipped). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    const text = m[3]!;
    out.push({ name: m[1]!, labels, value: text === '+Inf' ? Infinity : Number(text) });
  }
  return out;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined if none. */
function value(all: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = all.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

describe('API operations: /healthz', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi({ auth: 'standalone' });
  });
  after(() => api.close());

  it('answers 200 without a token when the store answers, with the live engines', async () => {
    const res = await api.call('GET', '/healthz');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'ok', store: 'ok', engines: 0 });
    await api.engine.heartbeat(true);
    assert.equal((await api.call('GET', '/healthz')).json().engines, 1);
  });

  it('answers 503 with Heat’s error body, and logs the error with the request id, when the store does not', async () => {
    const log = capturedLogger();
    const down = await startApi({ logger: log.logger });
    try {
      await down.engine.deps.store.close();
      const res = await down.call('GET', '/healthz');
      assert.equal(res.statusCode, 503);
      const body = res.json() as HeatError;
      assert.equal(body.code, 503);
      assert.equal(body.title, 'Service Unavailable');
      assert.equal(body.error.type, 'ServiceUnavailable');
      assert.doesNotMatch(body.error.message, /closed/, 'the cause stays in the log');
      const errors = log.records().filter((r) => r.level === 50);
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.reqId, res.headers['x-openstack-request-id']);
      assert.match((errors[0]!.err as { message: string }).message, /the store is closed/);
    } finally {
      await down.close();
    }
  });
});

describe('API operations: the engine loop of `hearth serve`', () => {
  it('sleeps while idle without leaving a listener on the stop signal each time', async () => {
    const api = await startApi();
    try {
      const stop = new AbortController();
      let rounds = 0;
      await api.engine.runUntil(async () => ++rounds > 5, { signal: stop.signal });
      assert.equal(rounds, 6);
      assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
    } finally {
      await api.close();
    }
  });
});

describe('API operations: /metrics', () => {
  let api: TestApi;
  let scrape: () => Promise<Sample[]>;
  before(async () => {
    api = await startApi({ auth: 'standalone' });
    scrape = async () => {
      const res = await api.call('GET', '/metrics');
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^text\/plain; version=0\.0\.4/);
      return samples(res.body);
    };
  });
  after(() => api.close());

  it('counts requests by method, route pattern and status (never a name from the URL)', async () => {
    const { projectId, token } = await tenant(api, 'metered');
    const created = await api.call('POST', `/v1/${projectId}/stacks`, {
      token,
      body: { stack_name: 'metered-stack', template: SAMPLE_TEMPLATE },
    });
    assert.equal(created.statusCode, 201);
    const { id } = (created.json() as { stack: { id: string } }).stack;
    await api.settle(id);
    for (let i = 0; i < 2; i++) {
      const shown = await api.call('GET', `/v1/${projectId}/stacks/metered-stack/${id}`, { token });
      assert.equal(shown.statusCode, 200);
    }
    assert.equal((await api.call('GET', `/v1/${projectId}/stacks`)).statusCode, 401);
    assert.equal((await api.call('GET', '/no/such/metered-path')).statusCode, 404);

    const text = (await api.call('GET', '/metrics')).body;
    for (const name of ['metered-stack', id, projectId, 'metered-path'])
      assert.ok(!text.includes(name), `${name} in the metrics`);
    const all = samples(text);
    const requests = (route: string, method: string, status: string) =>
      value(all, 'hearth_http_requests_total', { method, route, status });
    assert.equal(requests('/v1/:project_id/stacks', 'POST', '201'), 1);
    assert.equal(requests('/v1/:project_id/stacks/:stack_name/:stack_id', 'GET', '200'), 2);
    assert.equal(requests('/v1/:project_id/stacks', 'GET', '401'), 1);
    assert.equal(requests('unmatched', 'GET', '404'), 1);
    const latency = (suffix: string, labels: Record<string, string>) =>
      value(all, `hearth_http_request_duration_seconds_${suffix}`, labels);
    const show = { method: 'GET', route: '/v1/:project_id/stacks/:stack_name/:stack_id', status: '200' };
    assert.equal(latency('count', show), 2);
    assert.ok(latency('sum', show)! > 0);
    assert.equal(latency('bucket', { ...show, le: '+Inf' }), 2);
  });

  it('reports the engine: units run by kind, stacks by status, the queue and heartbeats', async () => {
    const before = await scrape();
    const ranBefore = value(before, 'hearth_work_units_total', { kind: 'check' }) ?? 0;
    const { projectId, token } = await tenant(api, 'second');
    const res = await api.call('POST', `/v1/${projectId}/stacks`, {
      token,
      body: { stack_name: 'two', template: SAMPLE_TEMPLATE },
    });
    assert.equal(res.statusCode, 201, res.body);
    const stackId = (res.json() as { stack: { id: string } }).stack.id;
    const during = await scrape();
    assert.equal(value(during, 'hearth_stacks', { action: 'CREATE', status: 'IN_PROGRESS' }), 1);
    assert.equal(value(during, 'hearth_work_queue_items', { state: 'due' }), 1, 'r1 only: r2 waits on it');
    await api.settle(stackId);

    const all = await scrape();
    // Two resources: two update nodes.
    assert.equal(value(all, 'hearth_work_units_total', { kind: 'check' }), ranBefore + 2);
    assert.equal(value(all, 'hearth_work_units_failed_total', { kind: 'check' }), undefined);
    assert.equal(value(all, 'hearth_work_unit_duration_seconds_count', { kind: 'check' }), ranBefore + 2);
    assert.equal(value(all, 'hearth_stacks', { action: 'CREATE', status: 'COMPLETE' }), 2);
    assert.equal(value(all, 'hearth_stacks', { action: 'CREATE', status: 'IN_PROGRESS' }), undefined);
    for (const state of ['due', 'claimed', 'scheduled'])
      assert.equal(value(all, 'hearth_work_queue_items', { state }), 0, state);
    assert.equal(value(all, 'hearth_work_queue_next_due_timestamp_seconds'), Infinity);
    const beat = value(all, 'hearth_engine_heartbeat_timestamp_seconds', {
      engine_id: api.engine.deps.engineId,
    });
    assert.ok(beat !== undefined && Math.abs(beat - Date.now() / 1000) < 60, String(beat));
    assert.ok(value(all, 'process_cpu_user_seconds_total')! > 0, 'process metrics too');

    // A unit that fails (a graph node key no traversal makes) is counted and rescheduled.
    const runAt = Date.now() + 3_600_000;
    await api.engine.deps.store.tx((tx) =>
      tx.work.enqueue([
        { rootStackId: stackId, stackId, traversalId: 't-x', kind: 'check', node: 'bad' },
        { rootStackId: stackId, stackId, traversalId: 't-y', kind: 'check', node: 'u:1', runAt },
      ]),
    );
    assert.equal(await api.engine.worker.runDue(), 1);
    const failed = await scrape();
    assert.equal(value(failed, 'hearth_work_units_failed_total', { kind: 'check' }), 1);
    assert.equal(value(failed, 'hearth_work_units_total', { kind: 'check' }), ranBefore + 3);
    assert.equal(value(failed, 'hearth_work_queue_items', { state: 'scheduled' }), 2);
    const [retry] = await api.engine.deps.store.tx((tx) => tx.work.listForTraversal('t-x'));
    assert.ok(retry && retry.runAt < runAt);
    assert.equal(value(failed, 'hearth_work_queue_next_due_timestamp_seconds'), retry.runAt / 1000);
  });

  it('keeps one registry per server: a second server counts its own requests', async () => {
    const observers = () => (api.engine.worker as unknown as { observers: Set<unknown> }).observers.size;
    const observing = observers();
    const other = await buildServer({
      engine: api.engine,
      authenticator: noauthAuthenticator(),
      limits: { ...defaultConfig(), max_json_body_size: 1 << 20, max_stacks_per_tenant: 10 },
    });
    try {
      await other.inject({ method: 'GET', url: '/healthz' });
      const mine = samples((await other.inject({ method: 'GET', url: '/metrics' })).body);
      assert.equal(value(mine, 'hearth_http_requests_total', { route: '/healthz' }), 1);
      assert.equal(value(mine, 'hearth_http_requests_total', { route: '/v1/:project_id/stacks' }), undefined);
      const theirs = await scrape();
      assert.ok(
        value(theirs, 'hearth_http_requests_total', { route: '/v1/:project_id/stacks', method: 'POST' })! >=
          1,
      );
      assert.equal(observers(), observing + 1);
    } finally {
      await other.close();
    }
    assert.equal(observers(), observing, 'a closed server no longer observes the engine');
  });
});

const SECRETS = {
  given: 'given-secret-y2',
  default: 'default-secret-x1',
  onlyDefault: 'only-default-z3',
  patched: 'patched-secret-w4',
  refused: 'refused-secret-q5',
};

const HIDDEN_TEMPLATE = {
  heat_template_version: '2018-08-31',
  parameters: {
    pw: { type: 'string', hidden: true, default: SECRETS.default },
    key: { type: 'string', hidden: true, default: SECRETS.onlyDefault },
    pin: { type: 'string', hidden: true, default: '1234', constraints: [{ allowed_pattern: '[0-9]+' }] },
    v: { type: 'string', default: 'visible' },
  },
  resources: {
    r1: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'pw' } } },
    r2: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'key' } } },
  },
  outputs: { out: { value: { get_param: 'v' } } },
};

describe('API operations: logs and secrets', () => {
  it('logs every request with its id, and never a token, a body or a hidden parameter', async () => {
    const log = capturedLogger();
    const api = await startApi({ auth: 'standalone', logger: log.logger });
    try {
      const { projectId, token } = await tenant(api, 'secretive');
      const P = `/v1/${projectId}`;
      const responses: { id: string; body: string; status: number }[] = [];
      const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
        const res = await api.call(method, url, { token, ...(body ? { body } : {}) });
        responses.push({
          id: res.headers['x-openstack-request-id'] as string,
          body: res.body,
          status: res.statusCode,
        });
        return res;
      };
      const created = await call('POST', `${P}/stacks`, {
        stack_name: 'hushed',
        template: HIDDEN_TEMPLATE,
        parameters: { pw: SECRETS.given },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { id } = (created.json() as { stack: { id: string } }).stack;
      await api.settle(id);
      const shown = await call('GET', `${P}/stacks/hushed/${id}`);
      const parameters = (shown.json() as { stack: { parameters: Record<string, string> } }).stack.parameters;
      assert.deepEqual(
        [parameters.pw, parameters.key, parameters.pin, parameters.v],
        ['******', '******', '******', 'visible'],
      );
      assert.equal((await call('GET', `${P}/stacks`)).statusCode, 200);
      assert.equal((await call('GET', `${P}/stacks/detail`)).statusCode, 200);
      assert.equal((await call('GET', `${P}/stacks/hushed`)).statusCode, 302);
      const patched = await call('PATCH', `${P}/stacks/hushed/${id}`, {
        parameters: { pw: SECRETS.patched },
      });
      assert.equal(patched.statusCode, 202, patched.body);
      assert.equal((await api.settle(id))?.status, 'COMPLETE');
      assert.equal((await call('GET', `${P}/stacks/hushed/${id}`)).statusCode, 200);
      // A hidden value that fails its constraint: refused without being quoted.
      const refused = await call('POST', `${P}/stacks`, {
        stack_name: 'refused',
        template: HIDDEN_TEMPLATE,
        parameters: { pin: SECRETS.refused },
      });
      assert.equal(refused.statusCode, 400);
      assert.match((refused.json() as HeatError).error.message, /"\*{6}" does not match pattern/);

      const events = await api.engine.deps.store.tx((tx) => tx.events.list(id));
      assert.ok(events.length >= 4);
      const logText = log.lines.join('');
      for (const secret of Object.values(SECRETS)) {
        for (const r of responses) assert.ok(!r.body.includes(secret), `${secret} in a ${r.status} response`);
        assert.ok(!JSON.stringify(events).includes(secret), `${secret} in an event`);
        assert.ok(!logText.includes(secret), `${secret} in the log`);
      }
      assert.ok(!logText.includes(token), 'the token in the log');

      // Every line is a request's, with its id: the one its response carried.
      const records = log.records();
      const ids = new Set(responses.map((r) => r.id));
      assert.equal(ids.size, responses.length);
      for (const record of records) assert.ok(ids.has(record.reqId as string), JSON.stringify(record));
      for (const r of responses) {
        const mine = records.filter((l) => l.reqId === r.id);
        assert.deepEqual(
          mine
            .filter((l) => l.msg === 'request completed')
            .map((l) => (l.res as { statusCode: number }).statusCode),
          [r.status],
        );
        const incoming = mine.find((l) => l.msg === 'incoming request')!.req as Record<string, unknown>;
        assert.deepEqual(Object.keys(incoming).sort(), ['host', 'method', 'remoteAddress', 'url']);
      }
    } finally {
      await api.close();
    }
  });

  it('masks the signature of a token or a signed URL (signal, agent metadata, wait condition URLs)', async () => {
    const log = capturedLogger();
    const api = await startApi({ logger: log.logger });
    try {
      const secret = 'c2lnbmF0dXJlLXBhcnQ';
      await api.call('POST', `/v1/signal/hsig_cGF5bG9hZA.${secret}`, { body: {} });
      await api.call('GET', `/v1/agent-metadata/hagt_cGF5bG9hZA.${secret}`);
      const arn = 'arn%3Aopenstack%3Aheat%3A%3Ap%3Astacks/s/id/resources/h';
      await api.call('PUT', `/cfn/v1/waitcondition/${arn}?AWSAccessKeyId=k&Signature=${secret}`, {
        body: {},
      });
      const text = log.lines.join('');
      assert.ok(!text.includes(secret), text);
      assert.match(text, /hagt_cGF5bG9hZA\.\*\*\*/);
      assert.match(text, /AWSAccessKeyId=k&Signature=\*\*\*/);
    } finally {
      await api.close();
    }
  });

  it('keeps a request id the client sent in the right form', async () => {
    const api = await startApi();
    try {
      const given = 'req-0b5c5d3e-8a5f-4a38-9c5e-3f1f2a0e9d11';
      const kept = await api.call('GET', '/healthz', { headers: { 'x-openstack-request-id': given } });
      assert.equal(kept.headers['x-openstack-request-id'], given);
      const made = await api.call('GET', '/healthz', { headers: { 'x-openstack-request-id': 'req-forged' } });
      assert.match(made.headers['x-openstack-request-id'] as string, /^req-[0-9a-f-]{36}$/);
    } finally {
      await api.close();
    }
  });

  it('logs a 5xx with its error and request id; the response carries neither the cause nor a trace', async () => {
    const log = capturedLogger();
    const broken: Authenticator = {
      mode: 'standalone',
      authenticate: async () => {
        throw new Error('identity backend on fire');
      },
    };
    const api = await startApi({ auth: broken, logger: log.logger });
    try {
      const res = await api.call('GET', '/v1/p/stacks', { token: 'tok-should-not-leak' });
      assert.equal(res.statusCode, 500);
      const body = res.json() as HeatError;
      assert.equal(body.error.type, 'InternalServerError');
      assert.equal(body.error.traceback, null);
      assert.doesNotMatch(res.body, /fire/);
      const errors = log.records().filter((r) => r.level === 50);
      assert.equal(errors.length, 1);
      assert.equal(errors[0]!.reqId, res.headers['x-openstack-request-id']);
      const err = errors[0]!.err as { message: string; stack: string };
      assert.equal(err.message, 'identity backend on fire');
      assert.match(err.stack, /ops\.test\.ts/);
      assert.ok(!log.lines.join('').includes('tok-should-not-leak'));
    } finally {
      await api.close();
    }
  });
});
