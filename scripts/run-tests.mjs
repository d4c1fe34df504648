// Runs every test file under test/ with node's test runner, TypeScript loaded through tsx.
// Node 20's --test takes no globs, so the file list is built here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = collect('test', []).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--enable-source-maps', '--test', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
