// The bundled CLI's entry (dist/bundle/index.js, built by scripts/build-cli.mjs; bin/hearth.js and
// the tests' `hearth` children run it): runs the CommonJS bundle beside it with a code cache.
import { join } from 'node:path';
import { runCachedBundle } from './code-cache.js';

runCachedBundle(join(import.meta.dirname, 'hearth.cjs'));
