import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs the project's test runner on the files matching `filter`; every stdout chunk with its time. */
function runner(filter: string): Promise<{ code: number | null; chunks: { at: number; text: string }[] }> {
  const child = spawn(process.execPath, ['scripts/run-tests.mjs', filter], {
    cwd: ROOT,
    // Without the variable node's runner sets in a test file's process, which would make the
    // inner runner's run() skip every file as a recursive call.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')),
      FORCE_COLOR: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: { at: number; text: string }[] = [];
  child.stdout.setEncoding('utf8').on('data', (text: string) => chunks.push({ at: Date.now(), text }));
  child.stderr.resume();
  return new Promise((done) => child.on('close', (code) => done({ code, chunks })));
}

// Issue 29 item 15: the runner says what passed as each file ends, not only when its pass does.
describe('scripts/run-tests.mjs', () => {
  it('streams a line per file as it ends, before the pass prints its whole output, then the total', async () => {
    const { code, chunks } = await runner('test/graph/');
    const text = chunks.map((c) => c.text).join('');
    assert.equal(code, 0, text);
    const lines = text.split('\n');
    const streamed = lines.findIndex((l) => /^\[SQLite\] ok {3}test\/graph\/graph\.test\.ts › /.test(l));
    const block = lines.findIndex((l) => l.startsWith('===== SQLite pass: 4 files'));
    assert.ok(streamed >= 0, `no streamed line for graph.test.ts:\n${text}`);
    assert.ok(block > streamed, 'the streamed lines come before the pass’s block');
    // Named by their sources although they run bundled.
    assert.ok(!/\.cache|\.test\.js/.test(lines.slice(0, block).join('\n')), text);
    assert.match(lines.filter(Boolean).at(-1)!, /^\d+ passed, 0 failed$/);
  });
});
