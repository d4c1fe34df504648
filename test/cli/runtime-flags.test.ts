import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';

/*
 * The runtime settings of the real `hearth` command (bin/hearth.js, whose first line starts node
 * with them): its young generation may grow to 32 MiB.
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

/** The probes' reports of `hearth <args>` run as a user runs it: the script itself (its first line). */
function probes(args: string[], allocate = false): { flags: string[]; youngMiB: number }[] {
  const r = spawnSync(join(ROOT, 'bin/hearth.js'), args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      // The `node` the script's first line finds: this one.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
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
  it('runs in one node with a 32 MiB semi-space, in effect in V8', () => {
    const reports = probes(['--version'], true);
    assert.equal(reports.length, 1, JSON.stringify(reports));
    const [command] = reports;
    assert.deepEqual(command!.flags, ['--max-semi-space-size=32']);
    // V8's default is 16 MiB: a young generation past it shows the flag taken, not just given.
    assert.ok(command!.youngMiB > 16, `the command's young generation: ${command!.youngMiB} MiB`);
  });
});
