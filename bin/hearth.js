#!/usr/bin/env -S node --max-semi-space-size=32
// Entry point of the `hearth` command: runs the CLI bundled into one module (built by `npm ci`
// through `prepare`, scripts/build-cli.mjs), which starts in about half the time of the compiled
// tree's six hundred modules. The V8 setting on the first line is the one the benchmarks run
// with (docs/configuration.md, "Runtime"): V8 reads it only when the process starts.
import '../dist/bundle/index.js';
