#!/usr/bin/env node
// Entry point of the `hearth` command: runs the compiled CLI (built by `npm ci` through `prepare`).
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
