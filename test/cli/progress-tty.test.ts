/* eslint-disable no-control-regex -- terminal escape codes are what these tests look at */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { hearthNodeArgs } from '../support/hearth-command.js';
import { startServe } from './serve-process.js';
import type { CliResult } from './helpers.js';
import { T, Workdir } from './workdir.js';

// `--wait` as a user sees it: in a real pseudo-terminal (script(1) gives the command one) and in
// a log. The members of a ResourceGroup are a nested stack's; each takes a second or two, so
// work is visibly in progress for several redraws.
const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: 3
      resource_def: {type: ${T}, properties: {action_wait_secs: {create: 2}}}
  after: {type: OS::Heat::None, depends_on: group}
`;

const COLUMNS = 50;
const ESCAPE = /\x1b\[[0-9;]*[A-Za-z]/g;

function quote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Runs `hearth` in a pseudo-terminal COLUMNS wide: what the terminal received, as it came. */
function inTerminal(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const command = [process.execPath, ...hearthNodeArgs(), ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', `stty cols ${COLUMNS} rows 24; exec ${command}`, '/dev/null'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((res) => child.on('close', (code) => res({ code: code ?? -1, stdout, stderr })));
}

describe('--wait progress display', () => {
  it('on a terminal: a redrawn block with a bar, counts over nested stacks, names, then a summary', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    const args = ['--db', w.db, 'stack', 'create', 's', '-t', 't.yaml', '--wait', '-f', 'value'];
    const r = await inTerminal(w.dir, args, { NO_COLOR: '1' });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const screen = r.stdout;
    assert.ok(screen.includes('\x1b[K') && screen.includes('\x1b[J'), 'redrawn in place');
    assert.ok(/\x1b\[\dA/.test(screen), 'the block is taller than a line: redrawn from its top');
    assert.doesNotMatch(screen, /\x1b\[(3\d|2)m/, 'no colour with NO_COLOR');
    const lines = screen.replace(ESCAPE, '').split(/[\r\n]+/);
    // The group's node and its 3 members run together: counted though their rows are the
    // nested stack's; `after` waits for the group.
    assert.ok(
      lines.some((l) => /^[3-9] in progress, 1 waiting, 0 failed/.test(l)),
      screen,
    );
    assert.ok(
      lines.some((l) => /^CREATE_IN_PROGRESS \[[#.]{5,}\] \d\/5 \d+%$/.test(l)),
      'a bar in the status line',
    );
    assert.ok(lines.some((l) => /^running: group/.test(l)));
    assert.ok(
      lines.some((l) => /group\.\d/.test(l)),
      'a member named after its group',
    );
    // Every line of the block fits the terminal, short of its last column.
    const block = lines.filter((l) => /in progress|_IN_PROGRESS|running:/.test(l));
    assert.ok(block.length > 3);
    for (const l of block) assert.ok(l.length < COLUMNS, `${l.length} columns: ${l}`);
    // The block gives way to the summary, on a line of its own.
    assert.match(
      screen,
      /\x1b\[\dACREATE_COMPLETE: 5 resources in \d+\.\ds \(\d+(\.\d)?\/s\)\x1b\[K\x1b\[J\r\n/,
    );
  });

  it('in a log: plain lines (progress, events, the summary: how far a failure got) and no escape codes', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    const r = await w.run(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!/[\r\x1b]/.test(r.stdout + r.stderr), 'nothing redrawn');
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], 'Progress: 0/2 done, 1 in progress, 1 waiting, 0 failed (0.0s)');
    assert.ok(lines.some((l) => /\[group\]: CREATE_COMPLETE/.test(l)));
    assert.ok(
      lines.some((l) => /^CREATE_COMPLETE: 5 resources in \d+\.\ds/.test(l)),
      r.stdout,
    );

    // A failure's summary says how far it got and what failed; the error follows.
    w.write(
      'bad.yaml',
      `heat_template_version: 2018-08-31\nresources:\n  bad: {type: ${T}, properties: {fail: true}}\n`,
    );
    const failed = await w.run(['stack', 'create', 'f', '-t', 'bad.yaml', '--wait']);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stdout, /^CREATE_FAILED after \d+\.\ds: 0\/1 done, 1 failed \(bad\)$/m);
    assert.match(failed.stderr, /CREATE_FAILED/);
  });

  it('remote (--url) on a terminal: the same block with what the API tells (status, time), then the summary', async () => {
    const w = new Workdir({
      't.yaml': `heat_template_version: 2018-08-31
resources:
  slow: {type: ${T}, properties: {action_wait_secs: {create: 2}}}
`,
    });
    const server = await startServe(['--db', w.db, 'serve', '--auth', 'noauth', '--port', '0']);
    try {
      const args = ['--url', `${server.url}/v1/admin`, 'stack', 'create', 's', '-t', 't.yaml', '--wait'];
      const r = await inTerminal(w.dir, args);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /\rCREATE_IN_PROGRESS {2}\d+\.\ds elapsed\x1b\[K\x1b\[J/);
      assert.match(r.stdout, /\rCREATE_COMPLETE in \d+\.\ds\x1b\[K\x1b\[J\r\n/);
    } finally {
      await server.stop();
    }
  });
});
