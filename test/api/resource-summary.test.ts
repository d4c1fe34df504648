import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApi, tenant, type TestApi } from './harness.js';

// 30 resources: 20 None (n00..n19), 8 RandomString (Key0..Key7), one failing TestResource and a
// group whose two members are a nested stack.
const TEMPLATE = {
  heat_template_version: '2018-08-31',
  resources: {
    ...Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`n${String(i).padStart(2, '0')}`, { type: 'OS::Heat::None' }]),
    ),
    ...Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`Key${i}`, { type: 'OS::Heat::RandomString' }]),
    ),
    // Last: the failure ends the create, once everything else is made.
    broken: {
      type: 'OS::Heat::TestResource',
      properties: { fail: true },
      depends_on: ['group', ...Array.from({ length: 20 }, (_, i) => `n${String(i).padStart(2, '0')}`)],
    },
    group: {
      type: 'OS::Heat::ResourceGroup',
      properties: { count: 2, resource_def: { type: 'OS::Heat::None' } },
    },
  },
};

interface Summary {
  total: number;
  by_type: Record<string, Record<string, number>>;
  by_status: Record<string, number>;
  nested: { total: number; resources: { resource_name: string; links: { href: string; rel: string }[] }[] };
}
interface Page {
  resources: { resource_name: string; resource_type: string; resource_status: string }[];
  next_marker?: string;
}

describe('the console’s resource summary and pages (Hearth routes)', () => {
  let api: TestApi;
  let a: { projectId: string; token: string };
  let b: { projectId: string; token: string };
  let base: string;
  before(async () => {
    api = await startApi({ auth: 'standalone' });
    a = await tenant(api, 'sum-a');
    b = await tenant(api, 'sum-b');
    const created = await api.call('POST', `/v1/${a.projectId}/stacks`, {
      token: a.token,
      body: { stack_name: 'big', template: TEMPLATE },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = (created.json() as { stack: { id: string } }).stack;
    await api.settle(id);
    base = `/v1/${a.projectId}/stacks/big/${id}`;
  });
  after(() => api.close());

  const get = async <T>(url: string, token = a.token): Promise<T> => {
    const res = await api.call('GET', url, { token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as T;
  };

  it('counts the resources by type and status as Heat’s list has them, and names the nested stacks', async () => {
    const { resource_summary: summary } = await get<{ resource_summary: Summary }>(
      `${base}/resource-summary`,
    );
    const { resources } = await get<{ resources: Page['resources'] }>(`${base}/resources`);
    assert.equal(summary.total, 30);
    assert.equal(resources.length, 30);
    const byType: Record<string, Record<string, number>> = {};
    for (const r of resources) {
      const row = (byType[r.resource_type] ??= {});
      row[r.resource_status] = (row[r.resource_status] ?? 0) + 1;
    }
    assert.deepEqual(summary.by_type, byType);
    assert.equal(summary.by_type['OS::Heat::None']!.CREATE_COMPLETE, 20);
    assert.equal(summary.by_type['OS::Heat::TestResource']!.CREATE_FAILED, 1);
    assert.equal(
      Object.values(summary.by_status).reduce((x, y) => x + y, 0),
      30,
    );
    assert.equal(summary.nested.total, 1);
    assert.equal(summary.nested.resources[0]!.resource_name, 'group');
    const nested = summary.nested.resources[0]!.links.find((l) => l.rel === 'nested')!.href;
    assert.match(nested, /\/stacks\/big-group-\w+\/[\w-]+$/);
  });

  it('pages through the resources in name order with marker and limit, each once', async () => {
    const names: string[] = [];
    let marker: string | undefined;
    let pages = 0;
    do {
      const page = await get<Page>(
        `${base}/resource-page?limit=7${marker === undefined ? '' : `&marker=${encodeURIComponent(marker)}`}`,
      );
      assert.ok(page.resources.length <= 7);
      names.push(...page.resources.map((r) => r.resource_name));
      marker = page.next_marker;
      pages++;
    } while (marker !== undefined && pages < 10);
    assert.equal(names.length, 30);
    assert.equal(new Set(names).size, 30);
    assert.deepEqual(names, [...names].sort());
  });

  it('filters a page by type, status and a text in the name (case aside)', async () => {
    const byType = await get<Page>(`${base}/resource-page?type=OS::Heat::RandomString`);
    assert.deepEqual(
      byType.resources.map((r) => r.resource_name),
      Array.from({ length: 8 }, (_, i) => `Key${i}`),
    );
    assert.equal(byType.next_marker, undefined);
    const failed = await get<Page>(`${base}/resource-page?status=FAILED`);
    assert.deepEqual(
      failed.resources.map((r) => `${r.resource_name} ${r.resource_status}`),
      ['broken CREATE_FAILED'],
    );
    const exact = await get<Page>(`${base}/resource-page?status=CREATE_COMPLETE&type=OS::Heat::None&limit=5`);
    assert.deepEqual(
      exact.resources.map((r) => r.resource_name),
      ['n00', 'n01', 'n02', 'n03', 'n04'],
    );
    assert.equal(exact.next_marker, 'n04');
    const named = await get<Page>(`${base}/resource-page?name_contains=KEY_`);
    assert.equal(named.resources.length, 0, '_ is no wildcard');
    const key = await get<Page>(`${base}/resource-page?name_contains=kEy`);
    assert.equal(key.resources.length, 8);
  });

  it('refuses bad input with a clear 400, and shows another project’s stack as a 404', async () => {
    for (const [query, text] of [
      ['limit=0', /limit/],
      ['limit=1001', /limit/],
      ['limit=ten', /limit/],
      ['sort=name', /sort/],
    ] as const) {
      const res = await api.call('GET', `${base}/resource-page?${query}`, { token: a.token });
      assert.equal(res.statusCode, 400, query);
      assert.match(res.body, text);
    }
    const extra = await api.call('GET', `${base}/resource-summary?x=1`, { token: a.token });
    assert.equal(extra.statusCode, 400);
    for (const route of ['resource-summary', 'resource-page']) {
      const foreign = await api.call('GET', `${base.replace(a.projectId, b.projectId)}/${route}`, {
        token: b.token,
      });
      assert.equal(foreign.statusCode, 404, route);
      assert.equal((await api.call('GET', `${base}/${route}`)).statusCode, 401, route);
    }
  });
});
