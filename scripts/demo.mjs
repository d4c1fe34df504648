// `npm run demo`: the main job on the embedded default. Creates a stack from examples/hello in a
// SQLite file of its own (named, fresh each run), waits for it, prints its resources and outputs,
// updates it, and leaves it there to look at, saying how.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = process.env.DEMO_CLI ?? 'bin/hearth.js';
// DEMO_DIR: where the database goes (tests give one of their own).
const dir = process.env.DEMO_DIR ?? join(tmpdir(), 'hearth-demo');
const db = join(dir, 'hearth.db');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
console.log(`The demo's database: ${db}`);

const run = (args) => {
  console.log(`\n$ hearth ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [cli, '--db', db, ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run(['template', 'validate', '-t', 'examples/hello/hello.yaml']);
run(['stack', 'create', 'hello', '-t', 'examples/hello/hello.yaml', '--wait']);
run(['stack', 'resource', 'list', 'hello']);
run(['stack', 'output', 'show', 'hello', '--all']);
run(['stack', 'update', 'hello', '--existing', '--parameter', 'name=Hearth', '--wait']);
run(['stack', 'output', 'show', 'hello', 'message', '-f', 'value']);
run(['stack', 'list']);

const hearth = `npx hearth --db ${db}`;
console.log(`
The stack "hello" is still there. Look at it, change it, or remove it:
  ${hearth} stack show hello
  ${hearth} stack event list hello
  ${hearth} stack delete hello --yes --wait`);
