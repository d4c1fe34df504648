// Bundles the `hearth` command with esbuild into one module (plus the YAML worker's entry beside
// it): a command then loads one file instead of six hundred modules, a large part of its start-up.
// `npm run build` writes dist/bundle/ (bin/hearth.js runs it); the tests bundle their own copy.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** Bundles the CLI into `outdir`; returns the bundle's entry point. */
export async function buildCli(outdir) {
  await build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Code split at dynamic imports: a command loads only the chunks it needs (`--version` a
    // fifth of the whole), so start-up compiles far less. Chunks sit beside the entries: code
    // moved into one still finds the YAML worker's entry next to itself.
    splitting: true,
    // The YAML worker's entry too: yaml-off-loop.ts starts it from beside the bundle.
    entryPoints: { index: 'src/cli/index.ts', 'yaml-worker': 'src/template/yaml-worker.ts' },
    absWorkingDir: ROOT,
    outdir,
    logLevel: 'warning',
    // Packages bundled too, but the native SQLite binding (and pg's optional native one).
    packages: 'bundle',
    external: ['better-sqlite3', 'pg-native'],
    // Names are not kept (the suite runs on this bundle: nothing the CLI prints depends on them),
    // which saves start-up work.
    keepNames: false,
    // Bundled CommonJS packages call require(): an ES module has none of its own.
    banner: {
      js: "import { createRequire as __hearthRequire } from 'node:module'; const require = __hearthRequire(import.meta.url);",
    },
  });
  return join(outdir, 'index.js');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildCli(join(ROOT, 'dist', 'bundle'));
}
