import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { login } from './support.js';

type Session = { token: string; projectId: string };
type Method = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';

// The sandbox's Swift (object-store) and Aodh (alarming) APIs in their wire formats, each
// project's objects its own.
describe('sandbox Swift and Aodh', () => {
  let app: FastifyInstance;
  let alice: Session;
  let bob: Session;
  const send = (
    who: Session,
    method: Method,
    url: string,
    headers: Record<string, string> = {},
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: { 'x-auth-token': who.token, ...headers },
      ...(payload !== undefined ? { payload: payload as string } : {}),
    });
  const swift = (who: Session, path = '') => `/object-store/v1/AUTH_${who.projectId}${path}`;

  before(async () => {
    app = createSandbox({ users: ['alice', 'bob'] }).app;
    alice = await login(app, 'alice');
    bob = await login(app, 'bob');
  });
  after(() => app?.close());

  it('lists both services in the catalog', async () => {
    const r = await send(alice, 'GET', '/identity/v3/auth/catalog');
    const services = r.json().catalog as { type: string; endpoints: { url: string; region: string }[] }[];
    const url = (type: string) =>
      services.find((s) => s.type === type)!.endpoints.find((e) => e.region === 'RegionOne')!.url;
    assert.match(url('object-store'), new RegExp(`/object-store/v1/AUTH_${alice.projectId}$`));
    assert.match(url('alarming'), /\/alarming$/);
  });

  it('makes, describes, changes, lists and deletes a container as Swift does', async () => {
    const made = await send(alice, 'PUT', swift(alice, '/web'), {
      'X-Container-Read': '.r:*',
      'X-Container-Meta-Color': 'blue',
    });
    assert.equal(made.statusCode, 201);
    assert.equal((await send(alice, 'PUT', swift(alice, '/web'))).statusCode, 202, 'again: accepted');
    await send(alice, 'POST', swift(alice, '/web'), {
      'X-Container-Meta-Size': 'big',
      'X-Remove-Container-Meta-Color': 'x',
    });
    const head = await send(alice, 'HEAD', swift(alice, '/web'));
    assert.equal(head.statusCode, 204);
    assert.equal(head.headers['x-container-read'], '.r:*');
    assert.equal(head.headers['x-container-meta-size'], 'big');
    assert.equal(head.headers['x-container-meta-color'], undefined);
    assert.equal(head.headers['x-container-object-count'], '0');

    assert.equal(
      (await send(alice, 'GET', swift(alice, '/web'))).statusCode,
      204,
      'an empty listing as text',
    );
    const put = await send(
      alice,
      'PUT',
      swift(alice, '/web/a/b.txt'),
      { 'Content-Type': 'text/plain' },
      'hi',
    );
    assert.equal(put.statusCode, 201);
    const listed = await send(alice, 'GET', `${swift(alice, '/web')}?format=json`);
    assert.deepEqual(listed.json(), [{ name: 'a/b.txt', bytes: 2, content_type: 'text/plain' }]);
    assert.equal((await send(alice, 'GET', swift(alice, '/web/a/b.txt'))).body, 'hi');
    const account = await send(alice, 'GET', `${swift(alice)}/?format=json`);
    assert.deepEqual(account.json(), [{ name: 'web', count: 1, bytes: 2 }]);
    assert.equal(account.headers['x-account-container-count'], '1');

    const busy = await send(alice, 'DELETE', swift(alice, '/web'));
    assert.equal(busy.statusCode, 409, 'not empty');
    assert.match(String(busy.headers['content-type']), /text\/html/);
    await send(alice, 'DELETE', swift(alice, '/web/a/b.txt'));
    assert.equal((await send(alice, 'DELETE', swift(alice, '/web'))).statusCode, 204);
    const gone = await send(alice, 'DELETE', swift(alice, '/web'));
    assert.equal(gone.statusCode, 404);
    assert.match(gone.body, /<h1>Not Found<\/h1>/);
  });

  it('keeps each project’s containers its own', async () => {
    await send(alice, 'PUT', swift(alice, '/private'));
    assert.equal((await send(bob, 'HEAD', swift(alice, '/private'))).statusCode, 403);
    assert.equal((await send(bob, 'GET', swift(alice))).statusCode, 403);
    assert.equal((await send(bob, 'PUT', swift(alice, '/private/x'), {}, 'x')).statusCode, 403);
    assert.equal((await send(bob, 'HEAD', swift(bob, '/private'))).statusCode, 404);
    assert.equal((await send(bob, 'GET', `${swift(bob)}?format=json`)).body, '[]');
  });

  it('makes, shows, updates and deletes alarms as Aodh does, each project’s its own', async () => {
    const alarm = {
      name: 'busy',
      type: 'threshold',
      threshold_rule: { meter_name: 'cpu_util', threshold: 80, comparison_operator: 'gt', statistic: 'avg' },
      alarm_actions: ['http://example.test/up'],
    };
    const made = await send(alice, 'POST', '/alarming/v2/alarms', {}, alarm);
    assert.equal(made.statusCode, 201, made.body);
    const id = made.json().alarm_id as string;
    assert.equal(made.json().state, 'insufficient data');
    assert.equal(made.json().project_id, alice.projectId);
    const twice = await send(alice, 'POST', '/alarming/v2/alarms', {}, alarm);
    assert.equal(twice.statusCode, 409);
    assert.equal(twice.json().error_message.faultstring, "Alarm with name='busy' exists");
    const bad = await send(
      alice,
      'POST',
      '/alarming/v2/alarms',
      {},
      { ...alarm, name: 'x', threshold_rule: {} },
    );
    assert.equal(bad.statusCode, 400);

    const changed = await send(
      alice,
      'PUT',
      `/alarming/v2/alarms/${id}`,
      {},
      {
        ...(made.json() as Record<string, unknown>),
        threshold_rule: { ...alarm.threshold_rule, threshold: 90 },
      },
    );
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await send(alice, 'GET', `/alarming/v2/alarms/${id}`)).json().threshold_rule.threshold, 90);

    const stranger = await send(bob, 'GET', `/alarming/v2/alarms/${id}`);
    assert.equal(stranger.statusCode, 404);
    assert.match(stranger.json().error_message.faultstring, /not found/);
    assert.equal((await send(bob, 'DELETE', `/alarming/v2/alarms/${id}`)).statusCode, 404);
    assert.deepEqual((await send(bob, 'GET', '/alarming/v2/alarms')).json(), []);
    assert.equal((await send(alice, 'DELETE', `/alarming/v2/alarms/${id}`)).statusCode, 204);
    assert.equal((await send(alice, 'GET', `/alarming/v2/alarms/${id}`)).statusCode, 404);
  });
});
