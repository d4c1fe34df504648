#!/usr/bin/env node
// Entry point of the `hearth` command: runs the CLI bundled into one module (built by `npm ci`
// through `prepare`, scripts/build-cli.mjs), which starts in about half the time of the compiled
// tree's six hundred modules.
import '../dist/bundle/index.js';
