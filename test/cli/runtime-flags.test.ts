import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';

/*
 * The runtime settings of the real `hearth` command (bin/hearth.js): a command that runs
 * operations runs in a node whose young generation is 32 MiB; a quick one starts node once.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'hearth-runtime-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Loaded before bin/hearth.js in every node process of the command (NODE_OPTIONS is inherited):
// each reports its flags and (PROBE_ALLOCATE) how far its young generation grew under a few
// hundred MB of mostly short-lived objects (V8's space, not the flag's text: a flag V8 did not take would show 32 MiB).
const probe = join(dir, 'probe.mjs');
writeFileSync(
  probe,
  `import v8 from 'node:v8';
const keep = [];
if (process.env.PROBE_ALLOCATE)
  for (let i = 0; i < 4e6; i++) { const o = { i, s: 'x' + i }; if (i % 8 === 0) keep.push(o); }
const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
process.stderr.write('probe ' + JSON.stringify({ flags: process.execArgv, youngMiB: young / 2 ** 20, kept: keep.length }) + '\\n');
`,
);

/** The probes' reports of `hearth <args>` (whether or not the command then finds its build). */
function probes(args: string[], allocate = false): { flags: string[]; youngMiB: number }[] {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/hearth.js'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`,
      ...(allocate ? { PROBE_ALLOCATE: '1' } : {}),
    },
  });
  return r.stderr
    .split('\n')
    .filter((line) => line.startsWith('probe '))
    .map((line) => JSON.parse(line.slice('probe '.length)) as { flags: string[]; youngMiB: number });
}

describe('the hearth command runtime', () => {
  it('an engine, a server or a wait runs with a 32 MiB semi-space, in effect in V8', () => {
    const reports = probes(['--db', join(dir, 'h.db'), 'engine', '--help'], true);
    // The first node starts the second with the flag; the second runs the command.
    assert.equal(reports.length, 2, JSON.stringify(reports));
    const [first, command] = reports;
    assert.deepEqual(first!.flags, []);
    assert.ok(first!.youngMiB <= 32, `without the flag: ${first!.youngMiB} MiB`);
    assert.deepEqual(command!.flags, ['--max-semi-space-size=32']);
    assert.ok(command!.youngMiB > 32, `the command's young generation: ${command!.youngMiB} MiB`);
  });

  it('a quick command starts node once; a flag given already is kept', () => {
    assert.equal(probes(['--version']).length, 1);
    assert.equal(probes(['stack', 'list']).length, 1);
    const r = spawnSync(
      process.execPath,
      ['--max-semi-space-size=8', join(ROOT, 'bin/hearth.js'), 'engine', '--help'],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` },
      },
    );
    const reports = r.stderr.split('\n').filter((line) => line.startsWith('probe '));
    assert.equal(reports.length, 1, r.stderr);
    assert.match(reports[0]!, /"--max-semi-space-size=8"/);
  });
});
