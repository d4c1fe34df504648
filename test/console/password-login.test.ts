import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchPage, skipWithoutChromium as skip } from './chromium.js';
import { workdir } from '../cli/helpers.js';
import { type ServeProcess, startServe } from '../cli/serve-process.js';
import { type ListeningSandbox, listeningSandbox, login } from '../sandbox/support.js';
import { ensureConsoleBuilt } from './build.js';

/*
 * The console's password login in a real browser, against `hearth serve --auth keystone` whose
 * Keystone is a sandbox cloud's: the form's user and password become a Keystone token (the server
 * asks Keystone, POST /console/login) and the page lists the project's stacks; a wrong password is
 * told in words, and opens nothing.
 */

describe('web console: Keystone password login', { skip }, () => {
  let cloud: ListeningSandbox;
  let server: ServeProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureConsoleBuilt();
    // Seeded users' passwords are their names; each has a project of its name.
    cloud = await listeningSandbox({ users: ['alice'], noise: { bootDelayMs: 0 } });
    const sandbox = cloud.env.OS_AUTH_URL!.replace(/\/identity.*$/, '');
    const w = workdir({});
    server = await startServe(['--db', w.db, 'serve', '--auth', 'keystone', '--port', '0'], {
      HEARTH_KEYSTONE_URL: `${sandbox}/identity/v3`,
      HEARTH_KEYSTONE_SERVICE_USER: 'hearth',
      HEARTH_KEYSTONE_SERVICE_PASSWORD: 'hearth',
      HEARTH_KEYSTONE_SERVICE_PROJECT: 'service',
      OS_CLOUD: '',
      OS_AUTH_URL: '',
    });
    ({ browser, page } = await launchPage());
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await cloud?.app.close();
  });

  async function submit(password: string): Promise<void> {
    await page.goto(`${server.url}/console/`);
    await page.getByLabel('a Keystone user and password').check();
    await page.getByLabel('Project name').fill('alice');
    await page.getByLabel('User', { exact: true }).fill('alice');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Domain').fill('Default');
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  it('tells a wrong password in words and opens nothing', async () => {
    await submit('not-alice');
    await page
      .getByRole('alert')
      .filter({ hasText: 'The identity service refused these credentials' })
      .waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Stacks' }).count(), 0);
    assert.equal(await page.evaluate("sessionStorage.getItem('hearth-console-session')"), null);
  });

  it('turns a user and password into a Keystone token and lists the project’s stacks', async () => {
    // A stack of alice's project, made with a token of her own: the console must list it.
    const alice = await login(cloud.app, 'alice');
    const made = await server.request('POST', `/v1/${alice.projectId}/stacks`, {
      token: alice.token,
      body: {
        stack_name: 'hers',
        template: { heat_template_version: '2018-08-31', resources: { n: { type: 'OS::Heat::None' } } },
      },
    });
    assert.equal(made.status, 201, made.text);
    await submit('alice');
    await page.getByRole('heading', { name: 'Stacks' }).waitFor();
    await page.locator('tr[data-stack="hers"]').waitFor();
    const session = JSON.parse(
      (await page.evaluate("sessionStorage.getItem('hearth-console-session')")) ?? '{}',
    ) as { token?: string; project?: string };
    assert.equal(session.project, alice.projectId, 'the project’s id, from Keystone');
    assert.ok(session.token && session.token !== 'alice', 'a token, not the password');
  });
});
