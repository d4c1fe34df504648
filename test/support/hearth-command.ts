import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = resolve(ROOT, 'src/cli/index.ts');

// Tests drive the engine themselves (a create without --wait stays IN_PROGRESS until a test runs
// it): `hearth` children start no background engine unless a test turns background_engine on.
process.env.HEARTH_BACKGROUND_ENGINE ??= 'false';
// Children print as into a pipe whatever terminal the tests run from: the runners set FORCE_COLOR=1
// on one (scripts/run-tests.mjs, node --test), which would colour the tables the tests read.
delete process.env.FORCE_COLOR;

/**
 * The node arguments that run the real `hearth` command (append its own arguments).
 *
 * scripts/run-tests.mjs bundles the CLI once per run and names the bundle in HEARTH_TEST_CLI: a
 * child then starts in a third of the time tsx takes to load the sources, which is most of what
 * the CLI tests cost. Without it (one test file run by hand), the sources run through tsx.
 * Preloaded modules that patch source modules (test instrumentation) need the sources, since a
 * bundle holds copies of them.
 */
export function hearthNodeArgs(preload: readonly string[] = []): string[] {
  const bundle = process.env.HEARTH_TEST_CLI;
  if (bundle && preload.length === 0) return [bundle];
  // tsx resolved from here, so the child finds it whatever its working directory.
  const imports = preload.flatMap((file) => ['--import', pathToFileURL(file).href]);
  return ['--import', import.meta.resolve('tsx'), ...imports, SOURCES];
}
