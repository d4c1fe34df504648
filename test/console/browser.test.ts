import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchPage, skipWithoutChromium as skip } from './chromium.js';
import { hearth, workdir } from '../cli/helpers.js';
import { type ServeProcess, serveForClients } from '../cli/serve-process.js';
import { login as cloudLogin, sandboxCloud } from '../sandbox/support.js';
import { ensureConsoleBuilt } from './build.js';

/*
 * The web console in a real browser (Debian's chromium, driven by playwright-core) against a real
 * `hearth serve`: log in with a token, create stacks with the CLI, watch the resources turn
 * COMPLETE on the page without a reload, see a failure's reason, make drift on the sandbox cloud
 * and see its diff and the observer's heal; another project sees nothing. The screenshots of
 * docs/console/ are written here when asked (HEARTH_TEST_SCREENSHOTS=1, `npm run screenshots`).
 */

const SHOTS = resolve(import.meta.dirname, '../../docs/console');
const SCREENSHOTS = process.env.HEARTH_TEST_SCREENSHOTS === '1';
/** A screenshot of docs/console/, only when asked: a test run leaves the tree as it was. */
const shot = async (page: Page, name: string) => {
  if (SCREENSHOTS) await page.screenshot({ path: join(SHOTS, name) });
};

// A chain of three resources, each taking a moment: the page sees them run and finish.
const CHAIN = `heat_template_version: 2018-08-31
resources:
  network:
    type: OS::Heat::TestResource
    properties: {value: net, action_wait_secs: {create: 2}}
  subnet:
    type: OS::Heat::TestResource
    properties: {value: {get_resource: network}, action_wait_secs: {create: 2}}
  server:
    type: OS::Heat::TestResource
    properties: {value: {get_resource: subnet}, action_wait_secs: {create: 2}}
  volume:
    type: OS::Heat::TestResource
    properties: {value: vol, action_wait_secs: {create: 1}}
`;
const FAILING = `heat_template_version: 2018-08-31
resources:
  broken:
    type: OS::Heat::TestResource
    properties: {value: x, fail: true}
`;

// More resources than the graph draws one by one: drawn by type and status.
const MANY = `heat_template_version: 2018-08-31
resources:
${Array.from({ length: 320 }, (_, i) => `  n${i}:\n    type: ${i % 4 === 0 ? 'OS::Heat::RandomString' : 'OS::Heat::None'}\n`).join('')}`;

// As many, after a gate that takes a few seconds: the page opens while most are not yet made.
const GATED = `heat_template_version: 2018-08-31
resources:
  gate:
    type: OS::Heat::TestResource
    properties: {value: g, action_wait_secs: {create: 4}}
${Array.from({ length: 319 }, (_, i) => `  n${i}:\n    type: OS::Heat::None\n    depends_on: gate\n`).join('')}`;

// An update of CHAIN to preview: network (and so subnet) updated, server replaced, volume
// deleted, extra added.
const CHAIN_NEXT = `heat_template_version: 2018-08-31
resources:
  network:
    type: OS::Heat::TestResource
    properties: {value: net2, action_wait_secs: {create: 2}}
  subnet:
    type: OS::Heat::TestResource
    properties: {value: {get_resource: network}, action_wait_secs: {create: 2}}
  server:
    type: OS::Heat::TestResource
    properties: {value: {get_resource: subnet}, action_wait_secs: {create: 2}, update_replace: true}
  extra:
    type: OS::Heat::None
    depends_on: server
`;

// A network of the sandbox cloud, observed and healed: changed by hand, named back by a heal.
const OBSERVED_NET = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: watched-net}}
`;

describe('web console in a browser', { skip }, () => {
  // The stacks' cloud: a sandbox in this process (the CLI calls that block it are short ones).
  const cloud = sandboxCloud({}, { HEARTH_OPENSTACK_CLOUD_SHARED: 'true' });
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;
  let w: ReturnType<typeof workdir>;
  const sessions: Record<string, { project: string; token: string }> = {};

  function cli(who: string, args: string[]): string {
    const s = sessions[who]!;
    const r = hearth(['--url', `${server.url}/v1/${s.project}`, '--token', s.token, ...args], w.dir);
    assert.equal(r.code, 0, `hearth ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  }

  async function login(who: string): Promise<void> {
    const s = sessions[who]!;
    await page.goto(`${server.url}/`);
    await page.getByLabel('Project id').fill(s.project);
    await page.getByLabel('Token', { exact: true }).fill(s.token);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Stacks' }).waitFor();
  }

  before(async () => {
    ensureConsoleBuilt();
    if (SCREENSHOTS) mkdirSync(SHOTS, { recursive: true });
    w = workdir({
      'chain.yaml': CHAIN,
      'failing.yaml': FAILING,
      'many.yaml': MANY,
      'gated.yaml': GATED,
      'net.yaml': OBSERVED_NET,
    });
    const served = await serveForClients(w, [{ name: 'alice' }]);
    server = served.server;
    sessions.alice = { project: served.projectId, token: served.envOf.alice!.OS_TOKEN! };
    // Another project with its own user and token.
    const run = (args: string[]) => {
      const r = w.run(args);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const other = JSON.parse(run(['manage', 'project', 'create', 'other', '-f', 'json'])) as { id: string };
    run(['manage', 'user', 'create', 'mallory', '--project', 'other']);
    const made = JSON.parse(
      run(['manage', 'token', 'create', '--project', 'other', '--user', 'mallory', '-f', 'json']),
    ) as { token: string };
    sessions.mallory = { project: other.id, token: made.token };
    ({ browser, page } = await launchPage());
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('logs in with a token and lists the project’s stacks', async () => {
    await page.goto(`${server.url}/`);
    assert.match(page.url(), /\/console\/$/);
    await page.getByLabel('Project id').fill(sessions.alice!.project);
    await page.getByLabel('Token', { exact: true }).fill('hth_not-a-token');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: /token/i }).waitFor();
    await shot(page, 'login.png');
    await login('alice');
    await page.getByTestId('no-stacks').waitFor();
  });

  it('shows a stack converge live: its resources turn COMPLETE without a reload', async () => {
    cli('alice', ['stack', 'create', 'web', '-t', 'chain.yaml']);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('link', { name: 'web' }).click();
    await page.locator('[data-resource="server"]').waitFor();
    // A mark a reload would wipe.
    await page.evaluate(() => ((globalThis as unknown as { mark: number }).mark = 1));
    const server = page.locator('svg [data-resource="server"]');
    assert.notEqual(await server.getAttribute('data-status'), 'CREATE_COMPLETE', 'seen before it ends');
    await shot(page, 'stack-converging.png');
    for (const name of ['network', 'subnet', 'server', 'volume']) {
      await page
        .locator(`svg [data-resource="${name}"][data-status="CREATE_COMPLETE"]`)
        .waitFor({ timeout: 30_000 });
    }
    await page.locator('h1 [data-status="CREATE_COMPLETE"]').waitFor();
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark),
      1,
      'no reload',
    );
    assert.match((await page.getByTestId('events').textContent()) ?? '', /server\s*CREATE_COMPLETE/);
    await server.click();
    await page.getByTestId('resource-detail').getByText('"value"').waitFor();
    await shot(page, 'stack-complete.png');
  });

  it('shows a failed resource’s reason', async () => {
    cli('alice', ['stack', 'create', 'bad', '-t', 'failing.yaml']);
    await page.goto(`${server.url}/console/`);
    await page.getByRole('link', { name: 'bad' }).click();
    const broken = page.locator('svg [data-resource="broken"][data-status="CREATE_FAILED"]');
    await broken.waitFor({ timeout: 30_000 });
    await broken.click();
    const reason = page.getByTestId('resource-reason');
    await reason.waitFor();
    assert.match((await reason.textContent()) ?? '', /Test Resource failed broken/);
    await shot(page, 'resource-failed.png');
    await page.goto(`${server.url}/console/`);
    await page.locator('tr[data-stack="bad"]').waitFor();
    await shot(page, 'stacks.png');
  });

  it('draws a big stack by type and status from the server’s counts, a type opened a page at a time', async () => {
    cli('alice', ['stack', 'create', 'many', '-t', 'many.yaml', '--wait']);
    await page.goto(`${server.url}/console/`);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.getByRole('link', { name: 'many', exact: true }).click();
    const aggregate = page.getByTestId('aggregate');
    await aggregate.waitFor();
    assert.match((await aggregate.textContent()) ?? '', /320 resources/);
    await aggregate.getByRole('button', { name: 'OS::Heat::None' }).click();
    await aggregate.locator('[data-resource="n1"]').waitFor();
    assert.equal(await page.locator('svg [data-resource]').count(), 0, 'no node per resource');
    assert.equal(await aggregate.locator('[data-resource]').count(), 200, 'a page of 200');
    const range = aggregate.getByTestId('drill-range');
    await range.filter({ hasText: 'Resources 1–200 of 240 of OS::Heat::None, by name.' }).waitFor();
    await aggregate.getByRole('button', { name: 'Next 200' }).click();
    await range.filter({ hasText: 'Resources 201–240 of 240' }).waitFor();
    assert.equal(await aggregate.locator('[data-resource]').count(), 40);
    // Grouped by status instead, from the keyboard: one group of all 320, a page of 200.
    await aggregate.getByLabel('status', { exact: true }).check();
    await aggregate.getByRole('button', { name: 'CREATE_COMPLETE' }).focus();
    await page.keyboard.press('Enter');
    await range.filter({ hasText: 'Resources 1–200 of 320 of CREATE_COMPLETE, by name.' }).waitFor();
    assert.equal(await aggregate.locator('[data-resource]').count(), 200);
    await shot(page, 'stack-aggregate.png');
    // Names found by a text: n31 and n310 to n319.
    await aggregate.getByRole('searchbox').fill('N31');
    await aggregate.getByRole('button', { name: 'Find' }).click();
    await range.filter({ hasText: 'Resources 1–11 of names containing “N31”' }).waitFor();
    assert.equal(await aggregate.locator('[data-resource]').count(), 11);
    // A resource of the list opened: read on its own, the stack's list not needed.
    await aggregate.locator('[data-resource="n31"]').click();
    await page.getByTestId('resource-detail').getByRole('heading', { name: 'n31' }).waitFor();
    // The page never read the stack's whole list: counts and pages only.
    assert.ok(asked.some((p) => p.endsWith('/resource-summary')));
    assert.ok(asked.some((p) => p.endsWith('/resource-page')));
    assert.deepEqual(
      asked.filter((p) => p.endsWith('/resources')),
      [],
    );
  });

  it('keeps a big stack’s counts live while it is created, without a reload', async () => {
    cli('alice', ['stack', 'create', 'gated', '-t', 'gated.yaml']);
    await page.goto(`${server.url}/console/`);
    await page.getByRole('link', { name: 'gated', exact: true }).click();
    const aggregate = page.getByTestId('aggregate');
    await aggregate.getByLabel('status', { exact: true }).check();
    await aggregate.getByRole('button', { name: 'INIT_COMPLETE' }).waitFor();
    await page.evaluate(() => ((globalThis as unknown as { mark: number }).mark = 3));
    // All 320 made: one status left, counted by the server as the stream told the page to ask.
    await aggregate
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'CREATE_COMPLETE' }) })
      .filter({ hasText: '320' })
      .waitFor({ timeout: 60_000 });
    assert.equal(await aggregate.getByRole('button', { name: 'INIT_COMPLETE' }).count(), 0);
    await page.locator('h1 [data-status="CREATE_COMPLETE"]').waitFor();
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark),
      3,
      'no reload',
    );
  });

  it('searches names for a text, case aside, counting every page’s stacks by status', async () => {
    // The project's stacks by now: web, many and gated complete, bad failed.
    await page.goto(`${server.url}/console/`);
    const counts = page.getByTestId('stack-counts');
    const count = (status: string, text: string) =>
      counts.locator(`[data-count="${status}"]`, { hasText: new RegExp(`^${text}$`) }).waitFor();
    await count('COMPLETE', '3 complete');
    await count('FAILED', '1 failed');
    await count('IN_PROGRESS', '0 progress');
    const search = page.getByRole('searchbox');
    await search.fill('MAN');
    await search.press('Enter');
    await count('COMPLETE', '1 complete');
    await count('FAILED', '0 failed');
    await page.locator('tr[data-stack="many"]').waitFor();
    assert.deepEqual(
      await page.locator('tr[data-stack]').evaluateAll((rows) => rows.map((r) => r.dataset.stack)),
      ['many'],
    );
    await search.fill('');
    await search.press('Enter');
    await page.locator('tr[data-stack="bad"]').waitFor();
  });

  it('previews an update as a diff of the graph, changing nothing', async () => {
    await page.goto(`${server.url}/console/`);
    await page.getByRole('link', { name: 'web', exact: true }).click();
    await page.locator('svg [data-resource="server"]').waitFor();
    await page.getByText('Preview an update').click();
    await page.getByLabel(/New template/).fill(CHAIN_NEXT);
    await page.getByRole('button', { name: 'Preview' }).click();
    const graph = page.getByRole('group', { name: 'update preview graph' });
    const expected = {
      network: 'UPDATED',
      // Its value is network's id, which the update may change: Hearth's preview says updated.
      subnet: 'UPDATED',
      server: 'REPLACED',
      volume: 'DELETED',
      extra: 'ADDED',
    };
    for (const [name, change] of Object.entries(expected)) {
      await graph.locator(`[data-resource="${name}"][data-status="${change}"]`).waitFor();
    }
    assert.equal(await graph.locator('[data-resource]').count(), 5);
    assert.match(
      (await page.getByTestId('preview').textContent()) ?? '',
      /1 added.*1 replaced.*2 updated.*1 deleted.*0 unchanged/,
    );
    await shot(page, 'stack-preview.png');
    // A refused template: the API's reason, in words.
    await page
      .getByLabel(/New template/)
      .fill('heat_template_version: 2018-08-31\nresources: {x: {type: No::Such}}\n');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('preview-error').filter({ hasText: 'No::Such' }).waitFor();
    const shown = JSON.parse(cli('alice', ['stack', 'show', 'web', '-f', 'json'])) as {
      stack_status: string;
    };
    assert.equal(shown.stack_status, 'CREATE_COMPLETE', 'a preview changes nothing');
  });

  it('shows drift on the sandbox as a diff, then the observer’s heal, without a reload', async () => {
    cli('alice', ['stack', 'create', 'watched', '-t', 'net.yaml', '--observe', '2', '--heal']);
    await page.goto(`${server.url}/console/`);
    await page.getByRole('link', { name: 'watched' }).click();
    await page.getByText('Observed every 2 s, healed when it drifts.').waitFor();
    const net = page.locator('svg [data-resource="net"]');
    await page
      .locator('svg [data-resource="net"][data-status="CREATE_COMPLETE"]')
      .waitFor({ timeout: 30_000 });
    await net.focus();
    await page.keyboard.press('Enter');
    // Opened from the keyboard; no drift yet (an observation in sync records no event).
    const detail = page.getByTestId('resource-detail');
    await detail.getByRole('heading', { name: 'net' }).waitFor();
    await page.evaluate(() => ((globalThis as unknown as { mark: number }).mark = 2));

    // Renamed by hand, through Neutron's API as the stack's cloud user.
    const { physical_resource_id: id } = JSON.parse(
      cli('alice', ['stack', 'resource', 'show', 'watched', 'net', '-f', 'json']),
    ) as { physical_resource_id: string };
    const { token } = await cloudLogin(cloud.app, 'demo');
    const renamed = await cloud.app.inject({
      method: 'PUT',
      url: `/network/v2.0/networks/${id}`,
      headers: { 'x-auth-token': token },
      payload: { network: { name: 'renamed-by-hand' } },
    });
    assert.equal(renamed.statusCode, 200, renamed.body);

    // The diff, expected vs actual, in the resource's detail; the node marked drifted.
    const diff = detail.getByRole('table', { name: 'drift: expected and actual values' });
    await diff
      .getByRole('row')
      .filter({ hasText: 'watched-net' })
      .filter({ hasText: 'renamed-by-hand' })
      .waitFor({ timeout: 30_000 });
    assert.match((await diff.textContent()) ?? '', /name\s*watched-net\s*renamed-by-hand/);
    const timeline = page.getByTestId('timeline');
    await timeline.locator('[data-moment="drift"][data-subject="net"]').waitFor();
    await diff.scrollIntoViewIfNeeded();
    await shot(page, 'resource-drift.png');

    // The heal names it back: the timeline tells it, the detail shows it in sync again.
    for (const moment of ['heal', 'healed', 'in-sync']) {
      await timeline.locator(`[data-moment="${moment}"]`).waitFor({ timeout: 30_000 });
    }
    await detail
      .getByTestId('drift')
      .and(page.locator('[data-drift="IN_SYNC"]'))
      .waitFor({ timeout: 30_000 });
    assert.equal(
      await page.locator('svg [data-resource="net"][data-drifted]').count(),
      0,
      'no longer marked',
    );
    const back = await cloud.app.inject({
      method: 'GET',
      url: `/network/v2.0/networks/${id}`,
      headers: { 'x-auth-token': token },
    });
    assert.equal((back.json() as { network: { name: string } }).network.name, 'watched-net');
    assert.match(
      (await timeline.textContent()) ?? '',
      /Heal started\s*watched\s*Stack UPDATE started: healing net MODIFIED/,
    );
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark),
      2,
      'no reload',
    );
    await timeline.scrollIntoViewIfNeeded();
    await shot(page, 'stack-healed.png');
  });

  it('shows another project’s token none of it', async () => {
    const { id } = JSON.parse(cli('alice', ['stack', 'show', 'web', '-f', 'json'])) as { id: string };
    await page.getByRole('button', { name: 'Log out' }).click();
    await login('mallory');
    await page.getByTestId('no-stacks').waitFor();
    assert.equal(await page.locator('tr[data-stack]').count(), 0);
    // Alice's stack by its address: the API's 404, as for a stack that does not exist.
    await page.goto(`${server.url}/console/#/stacks/web/${id}`);
    await page.getByTestId('stack-error').filter({ hasText: 'Stack not found' }).waitFor();
    assert.equal(await page.locator('[data-resource]').count(), 0);
  });
});
