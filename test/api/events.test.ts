import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi } from './harness.js';
import { type CreatedStack, createStack, type Link, linkPath } from './stack-helpers.js';

interface Event {
  id: string;
  links: Link[];
  event_time: string;
  logical_resource_id: string;
  resource_name: string;
  physical_resource_id: string | null;
  resource_status: string;
  resource_status_reason: string;
  resource_type?: string;
  resource_properties?: Record<string, unknown>;
}

/** Heat's keys of an event in a list, in its order (events-list.txt). */
const SUMMARY_KEYS = [
  'id',
  'links',
  'event_time',
  'logical_resource_id',
  'resource_name',
  'physical_resource_id',
  'resource_status',
  'resource_status_reason',
];

const NESTED = {
  template: {
    heat_template_version: '2018-08-31',
    resources: { child: { type: 'member.yaml', properties: { v: 'hello' } } },
  },
  files: {
    'member.yaml': `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
resources:
  inner: {type: OS::Heat::Value, properties: {value: {get_param: v}}}
`,
  },
};

describe('API: events', () => {
  let api: TestApi;
  let sample: CreatedStack;
  /** The sample's events as the store recorded them, oldest first. */
  let recorded: string[];
  before(async () => {
    api = await startApi();
    sample = await createStack(api, 'proj', 'sample', { template: SAMPLE_TEMPLATE });
    recorded = (await api.engine.deps.store.tx((tx) => tx.events.list(sample.id))).map((e) => e.uuid);
  });
  after(() => api.close());

  async function events(url: string): Promise<Event[]> {
    const res = await api.call('GET', url);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { events: Event[] }).events;
  }
  const ids = (list: Event[]) => list.map((e) => e.id);

  it('lists a stack’s events newest first, in Heat’s shape, the stack’s own as a resource named after it', async () => {
    const list = await events(`${sample.url}/events`);
    assert.deepEqual(ids(list), [...recorded].reverse());
    for (const e of list) {
      assert.deepEqual(Object.keys(e), SUMMARY_KEYS);
      const resource = `${sample.url}/resources/${e.resource_name}`;
      assert.equal(linkPath(e.links, 'self'), `${resource}/events/${e.id}`);
      assert.equal(linkPath(e.links, 'resource'), resource);
      assert.equal(linkPath(e.links, 'stack'), sample.url);
      assert.equal(e.links.length, 3);
      assert.match(e.event_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    const first = list.at(-1)!;
    assert.equal(first.resource_name, 'sample');
    assert.equal(first.physical_resource_id, sample.id);
    assert.equal(first.resource_status, 'CREATE_IN_PROGRESS');
    assert.equal(first.resource_status_reason, 'Stack CREATE started');
    assert.equal(list[0]!.resource_status, 'CREATE_COMPLETE');
  });

  it('sorts ascending when asked, or when sort keys come without a direction', async () => {
    assert.deepEqual(ids(await events(`${sample.url}/events?sort_dir=asc`)), recorded);
    assert.deepEqual(ids(await events(`${sample.url}/events?sort_keys=event_time`)), recorded);
    assert.deepEqual(
      ids(await events(`${sample.url}/events?sort_keys=event_time&sort_dir=desc`)),
      [...recorded].reverse(),
    );
    const byType = await events(`${sample.url}/events?sort_keys=resource_type&sort_dir=desc`);
    assert.equal(byType.length, recorded.length);
    const shown = await Promise.all(
      byType.map(async (e) => {
        const res = await api.call('GET', `${sample.url}/resources/${e.resource_name}/events/${e.id}`);
        return (res.json() as { event: Event }).event.resource_type!;
      }),
    );
    assert.deepEqual(shown, [...shown].sort().reverse());
  });

  it('pages with limit and marker in either direction', async () => {
    for (const dir of ['asc', 'desc'] as const) {
      const pages: string[][] = [];
      let marker = '';
      for (;;) {
        const page = await events(`${sample.url}/events?sort_dir=${dir}&limit=3${marker}`);
        if (page.length === 0) break;
        assert.ok(page.length <= 3);
        pages.push(ids(page));
        marker = `&marker=${page.at(-1)!.id}`;
      }
      assert.deepEqual(pages.flat(), dir === 'asc' ? recorded : [...recorded].reverse());
      assert.equal(pages.length, Math.ceil(recorded.length / 3));
    }
    assert.deepEqual(await events(`${sample.url}/events?limit=0`), []);
  });

  it('filters by resource name, type, action and status', async () => {
    const r1 = await events(`${sample.url}/events?resource_name=r1&sort_dir=asc`);
    assert.deepEqual(
      r1.map((e) => e.resource_status),
      ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
    );
    const stackOnly = await events(`${sample.url}/events?resource_type=OS::Heat::Stack`);
    assert.ok(stackOnly.length === 2 && stackOnly.every((e) => e.resource_name === 'sample'));
    const done = await events(`${sample.url}/events?resource_status=COMPLETE`);
    assert.equal(done.length, 3);
    assert.ok(done.every((e) => e.resource_status === 'CREATE_COMPLETE'));
    const started = await events(
      `${sample.url}/events?resource_status=CREATE_IN_PROGRESS&resource_action=CREATE`,
    );
    assert.equal(started.length, 3);
    assert.deepEqual(await events(`${sample.url}/events?resource_action=DELETE`), []);
    const two = await events(`${sample.url}/events?resource_name=r1&resource_name=r2`);
    assert.deepEqual(new Set(two.map((e) => e.resource_name)), new Set(['r1', 'r2']));
  });

  it('lists nested stacks’ events with nested_depth, each linking to its stack and to the root', async () => {
    const nest = await createStack(api, 'proj', 'nest', NESTED);
    const own = await events(`${nest.url}/events`);
    assert.ok(own.every((e) => linkPath(e.links, 'stack') === nest.url && e.links.length === 3));
    const all = await events(`${nest.url}/events?nested_depth=1&sort_dir=asc`);
    assert.ok(all.length > own.length);
    const [child] = await api.engine.deps.store.tx((tx) => tx.stacks.children(nest.id));
    const childUrl = `/v1/proj/stacks/${child!.name}/${child!.id}`;
    const inner = all.filter((e) => e.resource_name === 'inner');
    assert.equal(inner.length, 2);
    for (const e of inner) {
      assert.equal(linkPath(e.links, 'stack'), childUrl);
      assert.equal(linkPath(e.links, 'self'), `${childUrl}/resources/inner/events/${e.id}`);
    }
    assert.ok(all.every((e) => linkPath(e.links, 'root_stack') === nest.url));
    // The child's events fall between its parent resource's.
    const order = all.map((e) => `${e.resource_name}:${e.resource_status}`);
    assert.ok(order.indexOf('child:CREATE_IN_PROGRESS') < order.indexOf('inner:CREATE_COMPLETE'));
    assert.ok(order.indexOf('inner:CREATE_COMPLETE') < order.indexOf('child:CREATE_COMPLETE'));
  });

  it('lists a resource’s events; 404 for a resource that has none', async () => {
    const list = await events(`${sample.url}/resources/r2/events`);
    assert.deepEqual(
      list.map((e) => [e.resource_name, e.resource_status]),
      [
        ['r2', 'CREATE_COMPLETE'],
        ['r2', 'CREATE_IN_PROGRESS'],
      ],
    );
    assert.deepEqual(await events(`${sample.url}/resources/r2/events?resource_status=FAILED`), []);
    const missing = await api.call('GET', `${sample.url}/resources/nope/events`);
    assert.equal(missing.statusCode, 404);
    assert.equal((missing.json() as HeatError).error.type, 'HTTPNotFound');
  });

  it('shows one event with its resource type and (empty) properties; 404 for another resource’s', async () => {
    const [latest] = await events(`${sample.url}/resources/r1/events?limit=1`);
    const res = await api.call('GET', `${sample.url}/resources/r1/events/${latest!.id}`);
    assert.equal(res.statusCode, 200, res.body);
    const { event } = res.json() as { event: Event };
    assert.deepEqual(Object.keys(event), [...SUMMARY_KEYS, 'resource_type', 'resource_properties']);
    assert.deepEqual(
      { ...event, resource_type: undefined, resource_properties: undefined },
      {
        ...latest,
        resource_type: undefined,
        resource_properties: undefined,
      },
    );
    assert.equal(event.resource_type, 'OS::Heat::TestResource');
    assert.deepEqual(event.resource_properties, {});
    const stackEvent = (await events(`${sample.url}/events?limit=1`))[0]!;
    const shown = await api.call('GET', `${sample.url}/resources/sample/events/${stackEvent.id}`);
    assert.equal((shown.json() as { event: Event }).event.resource_type, 'OS::Heat::Stack');
    for (const url of [
      `${sample.url}/resources/r2/events/${latest!.id}`,
      `${sample.url}/resources/r1/events/00000000-0000-0000-0000-000000000000`,
    ]) {
      const missing = await api.call('GET', url);
      assert.equal(missing.statusCode, 404);
      assert.equal((missing.json() as HeatError).error.type, 'HTTPNotFound');
    }
  });

  it('refuses bad query values with 400', async () => {
    for (const [query, type] of [
      ['limit=-1', 'HTTPBadRequest'],
      ['limit=many', 'HTTPBadRequest'],
      ['sort_dir=up', 'HTTPBadRequest'],
      ['sort_keys=resource_name', 'HTTPBadRequest'],
      ['nested_depth=x', 'HTTPBadRequest'],
      ['marker=no-such-event', 'InvalidMarker'],
    ] as const) {
      for (const path of ['events', 'resources/r1/events']) {
        const res = await api.call('GET', `${sample.url}/${path}?${query}`);
        assert.equal(res.statusCode, 400, `${path}?${query}`);
        assert.equal((res.json() as HeatError).error.type, type, `${path}?${query}`);
      }
    }
  });
});
