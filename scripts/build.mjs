// `npm run build`: the compiled tree (tsc), the `hearth` command's bundle (build-cli.mjs) and the
// web console (vite). With --if-changed (`prepare`), it does nothing when dist/ was built from the
// same inputs: npm runs `prepare` again at a checkout's first `npx hearth` (it links the project
// into its npx cache), and a newcomer's first command then cost half a minute of CPU rebuilding
// what `npm ci` had just built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { buildCli } from './build-cli.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const STAMP = join(ROOT, 'dist', '.build-inputs');
/** What the build reads: sources, configuration, and the lock (the bundle includes packages). */
const INPUTS = [
  'src',
  'web',
  'bin',
  'scripts/build.mjs',
  'scripts/build-cli.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];
/** What the build writes, so that a dist/ emptied by hand is built again. */
const OUTPUTS = [
  'dist/cli/index.js',
  'dist/bundle/index.js',
  'dist/bundle/hearth.cjs',
  'dist/web/index.html',
];

function files(path, out) {
  if (!existsSync(path)) return out;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name !== 'node_modules' && name !== 'dist') files(join(path, name), out);
    }
  } else out.push(path);
  return out;
}

/** A digest of every input's path and content, and of the Node version that built them. */
function inputsDigest() {
  const hash = createHash('sha256').update(process.version);
  for (const input of INPUTS) {
    for (const file of files(join(ROOT, input), [])) {
      hash.update(`\0${relative(ROOT, file)}\0`).update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

function run(bin, args) {
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', bin), args, { cwd: ROOT, stdio: 'inherit' });
  if (r.error) throw r.error;
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const digest = inputsDigest();
const current =
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8').trim() === digest &&
  OUTPUTS.every((f) => existsSync(join(ROOT, f)));
if (process.argv.includes('--if-changed') && current) {
  console.log('hearth: dist/ is up to date with its sources, nothing to build');
} else {
  run('tsc', ['-p', 'tsconfig.build.json']);
  await buildCli(join(ROOT, 'dist', 'bundle'));
  run('vite', ['build', 'web']);
  writeFileSync(STAMP, `${digest}\n`);
}
