// Builds what scripts/run-tests.mjs runs, once per run, with esbuild (a few seconds):
// - the test files, bundled to JavaScript: a test process then starts in a third of the CPU time
//   tsx takes to load the sources it imports, which for 300 files is minutes of the suite;
// - the CLI, bundled for the tests' `hearth` children (HEARTH_TEST_CLI).
// Both go under node_modules/.cache, so their imports of packages resolve to the project's.
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** Where this run's builds go (removed by the caller at the end). */
export function buildRoot(pid = process.pid) {
  return resolve(ROOT, 'node_modules', '.cache', 'hearth-test-build', String(pid));
}

// A bundled module no longer lives where its source does: its own location (`import.meta.url`,
// `dirname`, `filename`) is written in as the source's, so paths made from it (fixtures, docs,
// helper scripts started as children, the YAML worker) still point into the tree.
const sourceLocation = {
  name: 'source-location',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      const values = {
        url: JSON.stringify(pathToFileURL(args.path).href),
        dirname: JSON.stringify(dirname(args.path)),
        filename: JSON.stringify(args.path),
      };
      return {
        contents: text.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key) => values[key]),
        loader: 'ts',
      };
    });
  },
};

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  splitting: true,
  // Error classes and the like keep their names (messages and checks read `constructor.name`).
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [sourceLocation],
};

/**
 * Bundles the test files (paths relative to the project root); returns the built file of each,
 * in the same order.
 */
export async function buildTests(files, outdir) {
  await build({
    ...COMMON,
    entryPoints: files.map((file) => ({ in: resolve(ROOT, file), out: file.replace(/\.ts$/, '') })),
    outdir,
    outbase: ROOT,
    chunkNames: 'chunks/[name]-[hash]',
  });
  return files.map((file) => join(outdir, file.replace(/\.ts$/, '.js')));
}

/** Bundles the CLI for the tests' children (the build `npm run build` makes); returns its entry point. */
export { buildCli } from './build-cli.mjs';
