// `npm run demo`: the main job on the embedded default. Creates a stack from examples/hello in a
// throw-away SQLite file, waits for it, prints its resources and outputs, updates it, deletes it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const db = join(mkdtempSync(join(tmpdir(), 'hearth-demo-')), 'hearth.db');
const run = (args) => {
  console.log(`\n$ hearth ${args.join(' ')}`);
  const r = spawnSync(process.execPath, ['bin/hearth.js', '--db', db, ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run(['template', 'validate', '-t', 'examples/hello/hello.yaml']);
run(['stack', 'create', 'hello', '-t', 'examples/hello/hello.yaml', '--wait']);
run(['stack', 'resource', 'list', 'hello']);
run(['stack', 'output', 'show', 'hello', '--all']);
run(['stack', 'update', 'hello', '--existing', '--parameter', 'name=Hearth', '--wait']);
run(['stack', 'output', 'show', 'hello', 'message', '-f', 'value']);
run(['stack', 'delete', 'hello', '--yes', '--wait']);
run(['stack', 'list']);
