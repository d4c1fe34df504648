// The web console on a big stack (issue 28): `npm run bench:console`. A `hearth serve` child
// (noauth, SQLite) gets a create of BENCH_SIZES resources (default 10000: a gate resource that
// takes BENCH_GATE_SECS, then 100 chains of None after it), and chromium opens the stack's page
// at once. Recorded: the time from navigation to the page being interactive (the resources drawn
// by type, and a type opened into its list), the progress updates the page shows while the
// create runs, the longest main-thread task (longtask) meanwhile, and the load average.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { envList, markdownTable } from './report.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HEARTH = join(ROOT, 'bin/hearth.js');
const CHROMIUM = '/usr/bin/chromium';
const GATE_SECS = Number(process.env.BENCH_GATE_SECS ?? 3);
const PROJECT = 'bench';

function bigTemplate(n: number): Record<string, unknown> {
  const resources: Record<string, unknown> = {
    gate: {
      type: 'OS::Heat::TestResource',
      properties: { value: 'g', action_wait_secs: { create: GATE_SECS } },
    },
  };
  for (let i = 0; i < n - 1; i++) {
    resources[`r${i}`] = {
      type: i % 10 === 0 ? 'OS::Heat::RandomString' : 'OS::Heat::None',
      depends_on: i < 100 ? 'gate' : `r${i - 100}`,
    };
  }
  return { heat_template_version: '2018-08-31', resources };
}

async function startServe(db: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [HEARTH, '--db', db, 'serve', '--auth', 'noauth', '--port', '0'], {
    env: { ...process.env, HEARTH_MAX_JSON_BODY_SIZE: '100000000', HEARTH_MAX_TEMPLATE_SIZE: '100000000' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) done(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`hearth serve exited ${code}`)));
  });
  const stop = () =>
    new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { url, stop };
}

/**
 * Run in the page before its scripts: the session (noauth takes any token for the URL's project),
 * every change of the progress text with the stack's status then, the longest main-thread task.
 */
const inPage = (project: string) => `
  sessionStorage.setItem('hearth-console-session', JSON.stringify({ token: 'bench', project: ${JSON.stringify(project)} }));
  const seen = (globalThis.seen = []);
  globalThis.longest = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) globalThis.longest = Math.max(globalThis.longest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver(() => {
    const text = document.querySelector('[data-testid="progress"]')?.textContent ?? '';
    const status = document.querySelector('h1 [data-status]')?.getAttribute('data-status') ?? '';
    if (text && seen.at(-1)?.text !== text) seen.push({ t: performance.now(), text, status });
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

interface Run {
  size: number;
  /** Navigation to the resources drawn by type (buttons on the page). */
  drawnMs: number;
  /** Navigation to a type opened into its list (a click answered). */
  interactiveMs: number;
  /** Distinct progress texts the page showed while the stack was CREATE_IN_PROGRESS. */
  updates: number;
  /** The page's first progress change after it was interactive, from navigation. */
  firstUpdateMs: number | undefined;
  createS: number;
  longestTaskMs: number;
  load: string;
}

async function runOnce(size: number): Promise<Run> {
  if (!existsSync(join(ROOT, 'dist', 'web', 'index.html'))) throw new Error('npm run build first');
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-console-'));
  const serve = await startServe(join(dir, 'state.db'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    // Logged in already: noauth takes any token for the project of the URL.
    await page.addInitScript({ content: inPage(PROJECT) });
    await page.goto(`${serve.url}/console/`);
    const started = Date.now();
    const res = await fetch(`${serve.url}/v1/${PROJECT}/stacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': 'bench' },
      body: JSON.stringify({ stack_name: 'big', template: bigTemplate(size) }),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
    const { stack } = (await res.json()) as { stack: { id: string } };

    const t0 = Date.now();
    await page.evaluate(`performance.mark('open'); location.hash = '#/stacks/big/${stack.id}'`);
    const aggregate = page.getByTestId('aggregate');
    await aggregate.getByRole('button', { name: 'OS::Heat::None' }).waitFor({ timeout: 60_000 });
    const drawnMs = Date.now() - t0;
    if (process.env.BENCH_VERBOSE)
      console.error(
        await page.evaluate(
          `JSON.stringify(performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/')).map((e) => [e.name.split('/').slice(-1)[0].slice(0, 40), Math.round(e.startTime - performance.getEntriesByName('open')[0].startTime), Math.round(e.responseStart - e.startTime), Math.round(e.responseEnd - e.startTime), e.encodedBodySize]))`,
        ),
      );
    await aggregate.getByRole('button', { name: 'OS::Heat::None' }).click();
    await aggregate.locator('[data-resource]').first().waitFor({ timeout: 60_000 });
    const interactiveMs = Date.now() - t0;

    await page.locator('h1 [data-status="CREATE_COMPLETE"]').waitFor({ timeout: 600_000 });
    const createS = (Date.now() - started) / 1000;
    const { seen, longest, open } = (await page.evaluate(
      `({ seen, longest: globalThis.longest ?? 0, open: performance.getEntriesByName('open')[0].startTime })`,
    )) as { seen: { t: number; text: string; status: string }[]; longest: number; open: number };
    const during = seen.filter((s) => s.t >= open && s.status === 'CREATE_IN_PROGRESS');
    const afterInteractive = during.filter((s) => s.t - open >= interactiveMs);
    return {
      size,
      drawnMs,
      interactiveMs,
      updates: during.length,
      firstUpdateMs: afterInteractive[0] ? Math.round(afterInteractive[0].t - open) : undefined,
      createS,
      longestTaskMs: Math.round(longest),
      load,
    };
  } finally {
    await browser.close();
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [
  [
    'resources',
    'drawn by type',
    'interactive',
    'progress updates during create',
    'first update',
    'create',
    'longest task',
    'load before',
  ],
];
for (const size of envList(process.env.BENCH_SIZES, '10000').map(Number)) {
  const r = await runOnce(size);
  rows.push([
    r.size.toLocaleString('en'),
    `${r.drawnMs} ms`,
    `${r.interactiveMs} ms`,
    String(r.updates),
    r.firstUpdateMs === undefined ? '—' : `${r.firstUpdateMs} ms`,
    `${r.createS.toFixed(1)} s`,
    `${r.longestTaskMs} ms`,
    r.load,
  ]);
  console.error(JSON.stringify(r));
}
console.log(markdownTable(rows));
