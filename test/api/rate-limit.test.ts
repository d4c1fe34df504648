import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProjectRateLimiter } from '../../src/api/rate-limit.js';
import { defaultConfig } from '../../src/config/index.js';
import { type HeatError, startApi, type TestApi, tenant } from './harness.js';

// The per-project write rate limit (api_write_rate_limit, api_write_rate_burst). The server's
// clock is the test's, frozen: no assertion depends on how fast the requests run.

const VALIDATE = { template: { heat_template_version: '2018-08-31' } };

describe('API limits: write rate per project', () => {
  let api: TestApi;
  let now = 0;
  let a: { projectId: string; token: string };
  let b: { projectId: string; token: string };

  before(async () => {
    api = await startApi({
      auth: 'standalone',
      limits: { api_write_rate_limit: 1, api_write_rate_burst: 3 },
      now: () => now,
    });
    a = await tenant(api, 'alpha');
    b = await tenant(api, 'beta');
  });
  after(() => api.close());

  const write = (t: { projectId: string; token: string }, token = t.token) =>
    api.call('POST', `/v1/${t.projectId}/validate`, { token, body: VALIDATE });

  it('answers 429 with Retry-After and Heat’s body past the burst; other projects and reads are unaffected', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await write(a)).statusCode, 200, `write ${i + 1} of the burst`);
    const limited = await write(a);
    assert.equal(limited.statusCode, 429, limited.body);
    assert.equal(limited.headers['retry-after'], '1');
    const err = limited.json() as HeatError;
    assert.equal(err.code, 429);
    assert.equal(err.title, 'Too Many Requests');
    assert.equal(err.error.type, 'HTTPTooManyRequests');
    assert.equal(err.error.traceback, null);
    assert.match(err.error.message, /Too many write requests for project .*: the limit is 1 a second/);
    // Every write method counts.
    const del = await api.call(
      'DELETE',
      `/v1/${a.projectId}/stacks/nope/00000000-0000-4000-8000-000000000000`,
      {
        token: a.token,
      },
    );
    assert.equal(del.statusCode, 429);

    // Another project has its own budget; reads are never limited.
    assert.equal((await write(b)).statusCode, 200, 'beta is unaffected');
    assert.equal((await api.call('GET', `/v1/${a.projectId}/stacks`, { token: a.token })).statusCode, 200);

    // A second later alpha has one token again.
    now += 1000;
    assert.equal((await write(a)).statusCode, 200);
    assert.equal((await write(a)).statusCode, 429);
  });

  it('counts only authenticated requests: a stranger cannot spend a project’s budget', async () => {
    now += 3000; // alpha's bucket is full again
    for (let i = 0; i < 10; i++) {
      assert.equal((await write(a, 'not-a-token')).statusCode, 401);
      assert.equal((await write(a, b.token)).statusCode, 403, 'beta’s token in alpha’s URL');
    }
    for (let i = 0; i < 3; i++) assert.equal((await write(a)).statusCode, 200);
  });
});

describe('API limits: write rate defaults', () => {
  it('is on by default, far above what clients send, and 0 turns it off', async () => {
    const config = defaultConfig();
    assert.equal(config.api_write_rate_limit, 50);
    assert.equal(config.api_write_rate_burst, 500);
    const api = await startApi({
      limits: { api_write_rate_limit: 0, api_write_rate_burst: 1 },
      now: () => 0,
    });
    try {
      for (let i = 0; i < 5; i++) {
        const res = await api.call('POST', '/v1/proj/validate', { body: VALIDATE });
        assert.equal(res.statusCode, 200, 'no limit when the rate is 0');
      }
    } finally {
      await api.close();
    }
  });
});

describe('ProjectRateLimiter', () => {
  it('keeps a bounded number of buckets however many projects write', () => {
    const now = 0;
    const limiter = new ProjectRateLimiter(1, 2, () => now, 100);
    for (let i = 0; i < 10_000; i++) assert.equal(limiter.take(`p${i}`), 0);
    assert.ok(limiter.tracked <= 100, `${limiter.tracked} buckets`);
  });

  it('drops refilled buckets first, keeping the recently spent ones', () => {
    let now = 0;
    const limiter = new ProjectRateLimiter(1, 2, () => now, 3);
    limiter.take('old');
    now = 5000; // "old" has refilled: the same as no bucket
    limiter.take('busy');
    limiter.take('busy');
    limiter.take('x');
    limiter.take('y');
    assert.ok(limiter.tracked <= 3);
    assert.ok(limiter.take('busy') > 0, 'busy keeps its empty bucket');
  });

  it('waits the time one token takes to come back', () => {
    let now = 0;
    const limiter = new ProjectRateLimiter(4, 1, () => now);
    assert.equal(limiter.take('p'), 0);
    assert.equal(limiter.take('p'), 0.25);
    now = 250;
    assert.equal(limiter.take('p'), 0);
  });
});
