#!/usr/bin/env -S node --max-semi-space-size=32
// Entry point of the `hearth` command: runs the CLI bundled into one script (built by `npm ci`
// through `prepare`, scripts/build-cli.mjs), compiled with a V8 code cache kept beside it
// (src/cli/code-cache.ts), which starts in a fraction of the time of the compiled tree's six
// hundred modules. The V8 setting on the first line is the one the benchmarks run
// with (docs/configuration.md, "Runtime"): V8 reads it only when the process starts.
import '../dist/bundle/index.js';
