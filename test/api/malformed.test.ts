import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { snapshotDatabase } from '../cli/state-snapshot.js';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi } from './harness.js';

// Malformed input over every route: bad JSON, wrong types, oversize bodies, unknown stacks, bad
// templates. Each answers 4xx with Heat's error body, the server keeps serving, and nothing
// stored changes (every row of every table compared).

const P = '/v1/proj';
const BODY_LIMIT = 64 * 1024;
const UNKNOWN = { name: 'nope', id: '00000000-0000-4000-8000-000000000000' };
/** Heat's words for a body over max_json_body_size (heat/common/wsgi.py). */
const OVERSIZE = new RegExp(
  `^Request limit exceeded: JSON body size \\(\\d+ bytes\\) exceeds maximum allowed size \\(${BODY_LIMIT} bytes\\)\\.$`,
);

interface Stack {
  name: string;
  id: string;
}

interface RouteCase {
  route: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (stack: Stack) => string;
  /** A valid body (the route takes one). */
  body?: () => Record<string, unknown>;
  /** The body carries a template (and so can carry a bad one). */
  template?: boolean;
  /** The path names a stack (and so can name an unknown one). */
  stack?: boolean;
  /** The body takes a stack's settings (timeout_mins, ...). */
  settings?: boolean;
}

/** One row per route; routes added to the API get a row here. */
export const ROUTES: RouteCase[] = [
  { route: 'list stacks', method: 'GET', path: () => `${P}/stacks` },
  {
    route: 'create stack',
    method: 'POST',
    path: () => `${P}/stacks`,
    body: () => ({ stack_name: 'made', template: SAMPLE_TEMPLATE }),
    template: true,
    settings: true,
  },
  { route: 'lookup stack', method: 'GET', path: (s) => `${P}/stacks/${s.name}`, stack: true },
  { route: 'show stack', method: 'GET', path: (s) => `${P}/stacks/${s.name}/${s.id}`, stack: true },
  {
    route: 'update stack',
    method: 'PUT',
    path: (s) => `${P}/stacks/${s.name}/${s.id}`,
    body: () => ({ template: SAMPLE_TEMPLATE }),
    template: true,
    stack: true,
    settings: true,
  },
  {
    route: 'patch stack',
    method: 'PATCH',
    path: (s) => `${P}/stacks/${s.name}/${s.id}`,
    body: () => ({ parameters: { v: 'x' } }),
    stack: true,
    settings: true,
  },
  { route: 'delete stack', method: 'DELETE', path: (s) => `${P}/stacks/${s.name}/${s.id}`, stack: true },
  {
    route: 'abandon stack',
    method: 'DELETE',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/abandon`,
    stack: true,
  },
  {
    route: 'stack action',
    method: 'POST',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/actions`,
    body: () => ({ check: null }),
    stack: true,
  },
  {
    route: 'validate',
    method: 'POST',
    path: () => `${P}/validate`,
    body: () => ({ template: SAMPLE_TEMPLATE }),
    template: true,
  },
  {
    route: 'preview create',
    method: 'POST',
    path: () => `${P}/stacks/preview`,
    body: () => ({ stack_name: 'previewed', template: SAMPLE_TEMPLATE }),
    template: true,
  },
  {
    route: 'preview update',
    method: 'PUT',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/preview`,
    body: () => ({ template: SAMPLE_TEMPLATE }),
    template: true,
    stack: true,
  },
  {
    route: 'preview patch',
    method: 'PATCH',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/preview`,
    body: () => ({ parameters: { v: 'x' } }),
    stack: true,
  },
  {
    route: 'plan update (Hearth)',
    method: 'PUT',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/plan`,
    body: () => ({ template: SAMPLE_TEMPLATE }),
    template: true,
    stack: true,
  },
  {
    route: 'plan patch (Hearth)',
    method: 'PATCH',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/plan`,
    body: () => ({ parameters: { v: 'x' } }),
    stack: true,
  },
  {
    route: 'list resources',
    method: 'GET',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/resources`,
    stack: true,
  },
  {
    route: 'show resource',
    method: 'GET',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/resources/r1`,
    stack: true,
  },
  {
    route: 'mark resource unhealthy',
    method: 'PATCH',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/resources/r1`,
    body: () => ({ mark_unhealthy: true, resource_status_reason: 'x' }),
    stack: true,
  },
  {
    route: 'signal resource',
    method: 'POST',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/resources/r1/signal`,
    body: () => ({}),
    stack: true,
  },
  { route: 'stack events', method: 'GET', path: (s) => `${P}/stacks/${s.name}/${s.id}/events`, stack: true },
  {
    route: 'stack outputs',
    method: 'GET',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/outputs`,
    stack: true,
  },
  {
    route: 'stack template',
    method: 'GET',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/template`,
    stack: true,
  },
  {
    route: 'stack environment',
    method: 'GET',
    path: (s) => `${P}/stacks/${s.name}/${s.id}/environment`,
    stack: true,
  },
  { route: 'stack files', method: 'GET', path: (s) => `${P}/stacks/${s.name}/${s.id}/files`, stack: true },
];

/** A template whose error is deep inside: the message must name the path to it. */
const BAD_TEMPLATE = {
  heat_template_version: '2018-08-31',
  resources: { a: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'missing' } } } },
};

describe('API: malformed input over every route', () => {
  let api: TestApi;
  let stack: Stack;
  before(async () => {
    api = await startApi({ limits: { max_json_body_size: BODY_LIMIT } });
    const res = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'real', template: SAMPLE_TEMPLATE },
    });
    stack = { name: 'real', id: (res.json() as { stack: { id: string } }).stack.id };
    await api.settle(stack.id);
  });
  after(() => api.close());

  /** Sends a request that must be refused with `status`, and checks the body and the state after. */
  async function refused(
    method: RouteCase['method'],
    url: string,
    status: number,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HeatError> {
    const before = snapshotDatabase(api.dbFile);
    const res = await api.call(method, url, options);
    assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
    const body = res.json() as HeatError;
    assert.equal(body.code, status);
    assert.equal(typeof body.title, 'string');
    assert.equal(typeof body.explanation, 'string');
    assert.equal(typeof body.error.message, 'string');
    assert.equal(typeof body.error.type, 'string');
    assert.equal(body.error.traceback, null);
    assert.deepEqual(snapshotDatabase(api.dbFile), before, `${method} ${url} changed the stored state`);
    const alive = await api.call('GET', `${P}/stacks`);
    assert.equal(alive.statusCode, 200, 'the server keeps serving');
    return body;
  }

  for (const route of ROUTES) {
    describe(route.route, () => {
      if (route.stack) {
        it('an unknown stack is a 404', async () => {
          const err = await refused(
            route.method,
            route.path(UNKNOWN),
            404,
            route.body ? { body: route.body() } : {},
          );
          assert.equal(err.error.type, 'EntityNotFound');
        });
      }
      if (route.body) {
        it('bad JSON is a 400', async () => {
          const err = await refused(route.method, route.path(stack), 400, { body: '{"stack_name": ' });
          assert.equal(err.error.type, 'HTTPBadRequest');
        });
        it('a body of the wrong type is a 400', async () => {
          await refused(route.method, route.path(stack), 400, { body: '[1, 2]' });
          await refused(route.method, route.path(stack), 400, {
            body: { ...route.body!(), parameters: 'x' },
          });
          if (route.template) {
            await refused(route.method, route.path(stack), 400, { body: { ...route.body!(), template: 5 } });
          }
          if (route.settings) {
            await refused(route.method, route.path(stack), 400, {
              body: { ...route.body!(), timeout_mins: 'soon' },
            });
          }
        });
        it('an oversize body is Heat’s 400 RequestLimitExceeded', async () => {
          const padding = 'x'.repeat(BODY_LIMIT + 1);
          const err = await refused(route.method, route.path(stack), 400, {
            body: { ...route.body!(), padding },
          });
          assert.equal(err.error.type, 'RequestLimitExceeded');
          assert.match(err.error.message, OVERSIZE);
        });
      }
      if (route.template) {
        it('a bad template is a 400 naming where the error is', async () => {
          const err = await refused(route.method, route.path(stack), 400, {
            body: { ...route.body!(), template: BAD_TEMPLATE },
          });
          assert.match(err.error.message, /resources\.a\.properties\.value/);
          assert.match(err.error.message, /missing/);
        });
      }
    });
  }

  it('a body that is not JSON at all is refused with 415 or 400, in Heat’s body', async () => {
    const res = await api.call('POST', `${P}/stacks`, {
      body: 'stack_name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.ok([400, 415].includes(res.statusCode), res.body);
    assert.equal((res.json() as HeatError).code, res.statusCode);
  });
});
