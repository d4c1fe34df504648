import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { isNotFound, OpenStackError } from '../../src/openstack/errors.js';
import {
  backoffMs,
  DEFAULT_RETRY,
  defaultRuntime,
  type HttpRuntime,
  retryAfterMs,
  safeUrl,
  sendRequest,
} from '../../src/openstack/http.js';

/** One scripted answer: status, headers, body (an object is sent as JSON). */
type Answer = [status: number, headers?: Record<string, string>, body?: unknown];

describe('HTTP layer: retries, timeouts, errors', () => {
  let server: Server;
  let url: string;
  let script: Answer[];
  let seen: { method: string; url: string; body: string; headers: IncomingMessage['headers'] }[];
  let waits: number[];
  const runtime: HttpRuntime = {
    ...defaultRuntime(),
    random: () => 0.5,
    // Recorded, not slept (the clock moves on instead): the tests check the waits the layer chose.
    now: () => Date.now() + waits.reduce((sum, ms) => sum + ms, 0),
    sleep: async (ms) => {
      waits.push(ms);
    },
  };

  before(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method!, url: request.url!, body, headers: request.headers });
        const [status, headers = {}, payload] = script.shift() ?? [500, {}, 'script exhausted'];
        if (status === 0) return response.destroy();
        const json = typeof payload === 'object' && payload !== null;
        response.writeHead(status, { 'Content-Type': json ? 'application/json' : 'text/plain', ...headers });
        response.end(payload === undefined ? '' : json ? JSON.stringify(payload) : String(payload));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    script = [];
    seen = [];
    waits = [];
  });

  const send = (method: string, path: string, extra: Partial<Parameters<typeof sendRequest>[0]> = {}) =>
    sendRequest({ service: 'compute', method, url: `${url}${path}`, ...extra }, DEFAULT_RETRY, runtime);

  it('sends JSON and reads JSON, with the request id', async () => {
    script = [[201, { 'x-openstack-request-id': 'req-1' }, { server: { id: 's1' } }]];
    const response = await send('POST', '/servers', { body: { server: { name: 'a' } } });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { server: { id: 's1' } });
    assert.equal(response.requestId, 'req-1');
    assert.equal(response.attempts, 1);
    assert.equal(seen[0]!.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(seen[0]!.body), { server: { name: 'a' } });
  });

  it('retries a GET after a 503, with backoff', async () => {
    script = [
      [503, {}, { serviceUnavailable: { message: 'busy' } }],
      [200, {}, { servers: [] }],
    ];
    const response = await send('GET', '/servers');
    assert.deepEqual(response.body, { servers: [] });
    assert.equal(response.attempts, 2);
    assert.equal(seen.length, 2);
    assert.deepEqual(waits, [backoffMs(DEFAULT_RETRY, 1, () => 0.5)]);
    assert.equal(waits[0], 375);
  });

  it('honours Retry-After on a 429, in seconds and as a date', async () => {
    // Three seconds from now, one of them already waited (the test clock), the date to the second.
    const retryAt = new Date(Date.now() + 3000).toUTCString();
    script = [
      [429, { 'Retry-After': '1' }, { overLimit: { message: 'slow down' } }],
      [429, { 'Retry-After': retryAt }, { overLimit: { message: 'slow down' } }],
      [200, {}, { ok: true }],
    ];
    const response = await send('DELETE', '/servers/s1');
    assert.equal(response.attempts, 3);
    assert.equal(waits[0], 1000);
    assert.ok(waits[1]! > 500 && waits[1]! <= 2000, String(waits[1]));
  });

  it('really waits out Retry-After: 1 with the real clock', async () => {
    script = [
      [429, { 'Retry-After': '1' }, { overLimit: { message: 'slow down' } }],
      [200, {}, { ok: true }],
    ];
    const started = Date.now();
    const response = await sendRequest({ service: 'compute', method: 'GET', url: `${url}/limits` });
    assert.equal(response.attempts, 2);
    assert.ok(Date.now() - started >= 990, `${Date.now() - started} ms`);
  });

  it('retries dropped connections and 502/504, then gives up after the attempts with a clear error', async () => {
    script = [
      [0],
      [502, {}, 'Bad Gateway'],
      [504, {}, "<html><body><h1>504 Gateway Time-out</h1>The server didn't respond in time.</body></html>"],
      [503],
      [503, { 'x-compute-request-id': 'req-last' }, { computeFault: { message: 'still down' } }],
      [200],
    ];
    const error = await send('GET', '/servers/s1').then(
      () => assert.fail('no error'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof OpenStackError);
    assert.equal(error.status, 503);
    assert.equal(error.attempts, 5);
    assert.equal(error.detail, 'still down');
    assert.equal(error.requestId, 'req-last');
    assert.equal(
      error.message,
      `still down (compute: GET ${url}/servers/s1 answered 503, after 5 attempts, request req-last)`,
    );
    assert.equal(seen.length, 5);
    assert.deepEqual(waits, [375, 750, 1500, 3000]);
  });

  it('does not repeat a plain POST, but does one marked safe to repeat', async () => {
    script = [
      [503, {}, { computeFault: { message: 'down' } }],
      [201, {}, { server: { id: 's2' } }],
    ];
    await assert.rejects(
      send('POST', '/servers', { body: {} }),
      (e: OpenStackError) => e.status === 503 && e.attempts === 1,
    );
    assert.equal(seen.length, 1);
    assert.deepEqual(waits, []);
    script = [[503], [202, {}, { server: { id: 's2' } }]];
    const response = await send('POST', '/servers', { body: {}, safeToRepeat: true });
    assert.equal(response.status, 202);
    assert.equal(response.attempts, 2);
  });

  it('does not retry other errors; 404 is isNotFound', async () => {
    script = [[404, {}, { itemNotFound: { code: 404, message: 'Instance s9 could not be found.' } }]];
    const error = await send('GET', '/servers/s9').catch((e: unknown) => e);
    assert.ok(isNotFound(error));
    assert.equal((error as OpenStackError).detail, 'Instance s9 could not be found.');
    assert.equal(seen.length, 1);
    script = [[409, {}, { conflictingRequest: { message: 'busy' } }]];
    assert.equal(isNotFound(await send('DELETE', '/servers/s9').catch((e: unknown) => e)), false);
  });

  it('stops waiting when the deadline would pass, and when Retry-After asks for too long', async () => {
    script = [[503, { 'Retry-After': '600' }], [200]];
    await assert.rejects(send('GET', '/x'), (e: OpenStackError) => e.attempts === 1);
    assert.deepEqual(waits, []);
    script = [[503], [503], [200]];
    await assert.rejects(
      send('GET', '/x', { retry: { deadlineMs: 1000 } }),
      (e: OpenStackError) => e.attempts === 2,
    );
    assert.deepEqual(waits, [375]);
  });

  it('times out a slow answer and reports a refused connection without a status', async () => {
    const slow = createServer(() => undefined);
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const port = (slow.address() as AddressInfo).port;
    try {
      const error = await sendRequest(
        {
          service: 'image',
          method: 'GET',
          url: `http://127.0.0.1:${port}/v2/images`,
          retry: { attempts: 2, timeoutMs: 100 },
        },
        DEFAULT_RETRY,
        runtime,
      ).catch((e: unknown) => e);
      assert.ok(error instanceof OpenStackError);
      assert.equal(error.status, undefined);
      assert.equal(error.attempts, 2);
      assert.match(error.message, /^no answer within 100 ms \(image: GET .* failed, after 2 attempts\)$/);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const unused = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await sendRequest(
      {
        service: 'network',
        method: 'GET',
        url: `http://127.0.0.1:${unused}/v2.0/networks`,
        retry: { attempts: 1 },
      },
      DEFAULT_RETRY,
      runtime,
    ).catch((e: unknown) => e);
    assert.match((refused as Error).message, /^cannot connect \(ECONNREFUSED\)/);
  });

  it('parses Retry-After and hides credentials in URLs', () => {
    assert.equal(retryAfterMs('3', 0), 3000);
    assert.equal(retryAfterMs('Thu, 01 Jan 1970 00:00:10 GMT', 4000), 6000);
    assert.equal(retryAfterMs('soon', 0), undefined);
    assert.equal(retryAfterMs(null, 0), undefined);
    assert.equal(
      safeUrl('http://u:pw@host/v1/x?temp_url_sig=1&token=abc&name=n'),
      'http://host/v1/x?temp_url_sig=1&token=***&name=n',
    );
  });
});
