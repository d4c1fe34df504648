// Bundles the `hearth` command with esbuild: a command then loads one file instead of six hundred
// modules. `npm run build` writes dist/bundle/ (bin/hearth.js runs it); the tests bundle their own
// copy. Three files:
// - hearth.cjs, the CLI as one CommonJS script, so that it can be compiled with a V8 code cache
//   (src/cli/code-cache.ts: Node 20 caches no ES module's code), which halves a command's start-up;
// - index.js, the entry, which runs hearth.cjs with that cache (kept in hearth.cjs.*.cache);
// - yaml-worker.js, the YAML worker's entry: yaml-off-loop.ts starts it from beside the bundle.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  absWorkingDir: ROOT,
  logLevel: 'warning',
  // Names are not kept (the suite runs on this bundle: nothing the CLI prints depends on them),
  // which saves start-up work.
  keepNames: false,
  minifyWhitespace: true,
  legalComments: 'external',
  // Packages bundled too, but the native SQLite binding (and pg's optional native one).
  packages: 'bundle',
  external: ['better-sqlite3', 'pg-native'],
};

/** Bundles the CLI into `outdir`; returns the bundle's entry point. */
export async function buildCli(outdir) {
  // Nothing of an earlier build stays: its code cache would pass V8's check, which compares only
  // the source's length.
  rmSync(outdir, { recursive: true, force: true });
  await Promise.all([
    build({
      ...COMMON,
      format: 'cjs',
      entryPoints: { hearth: 'src/cli/index.ts' },
      outExtension: { '.js': '.cjs' },
      outdir,
      // A CommonJS script has no import.meta: its location comes from __filename (the worker's
      // entry and the web console are found from it). import.meta.resolve serves only the
      // sources run through tsx.
      define: {
        'import.meta.url': '__hearthUrl',
        'import.meta.dirname': '__dirname',
        'import.meta.filename': '__filename',
        'import.meta.resolve': 'undefined',
      },
      banner: { js: "const __hearthUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
    build({
      ...COMMON,
      format: 'esm',
      entryPoints: { index: 'src/cli/bundle-entry.ts', 'yaml-worker': 'src/template/yaml-worker.ts' },
      outdir,
    }),
  ]);
  return join(outdir, 'index.js');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildCli(join(ROOT, 'dist', 'bundle'));
}
