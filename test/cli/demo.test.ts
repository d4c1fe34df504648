import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

// README's quick start (`npm run demo`): it names its database, ends with the stack in place and
// says how to look at it; the commands it prints work.
describe('npm run demo', () => {
  it('creates and updates the hello stack in a named database, and leaves it to look at', async () => {
    const bundle = process.env.HEARTH_TEST_CLI;
    const cli = bundle ?? resolve(ROOT, 'src/cli/index.ts');
    const dir = join(mkdtempSync(join(tmpdir(), 'hearth-demo-test-')), 'demo');
    const env = {
      ...process.env,
      DEMO_CLI: cli,
      DEMO_DIR: dir,
      ...(bundle ? {} : { NODE_OPTIONS: '--import tsx' }),
    };
    const { stdout } = await run(process.execPath, ['scripts/demo.mjs'], {
      cwd: ROOT,
      env,
      timeout: 180_000,
    });
    const db = join(dir, 'hearth.db');
    assert.ok(stdout.startsWith(`The demo's database: ${db}\n`), stdout);
    assert.match(stdout, /\| hello +\| UPDATE_COMPLETE +\|/);
    assert.match(stdout, /Hello, Hearth!/);
    assert.match(stdout, new RegExp(`npx hearth --db ${db} stack show hello\\n`));
    // What it says to run shows the stack.
    const shown = await run(process.execPath, [cli, '--db', db, 'stack', 'show', 'hello', '-f', 'json'], {
      cwd: ROOT,
      env,
    });
    assert.equal((JSON.parse(shown.stdout) as { stack_status: string }).stack_status, 'UPDATE_COMPLETE');
  });
});
