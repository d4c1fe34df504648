#!/usr/bin/env node
// Entry point of the `hearth` command: runs the compiled CLI (built by `npm ci` through `prepare`).
import { spawn } from 'node:child_process';

// The V8 settings Hearth runs with (docs/configuration.md, "Runtime"): a 32 MiB young generation
// (semi-space) instead of 16 keeps an operation's short-lived rows out of the old generation
// (fewer, cheaper collections). V8 reads it when the process starts only (v8.setFlagsFromString
// later changes nothing), so a command that runs operations (a server, an engine, a wait) starts
// node again with it: one bare node start, which quick commands (list, show, --version) are
// spared. Given already (on node's command line or in NODE_OPTIONS, any value), it is kept.
const RUNTIME_FLAGS = ['--max-semi-space-size=32'];
const HEAVY = new Set(['serve', 'engine', '--wait', '--poll']);

const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
const heavy = process.argv.slice(2).some((arg) => HEAVY.has(arg.split('=')[0]));
const missing = heavy ? RUNTIME_FLAGS.filter((flag) => !given.includes(flag.split('=')[0])) : [];

if (missing.length === 0) {
  const { main } = await import('../dist/cli/main.js');
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
} else {
  const child = spawn(process.execPath, [...missing, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  // A terminal's Ctrl-C (and hang-up) reach the whole process group: the command handles them.
  // A SIGTERM sent to this process alone (a supervisor's stop) is passed on.
  for (const signal of ['SIGINT', 'SIGHUP', 'SIGQUIT']) process.on(signal, () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('error', (err) => {
    console.error(`hearth: could not start node: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ended by a signal: this process ends the same way, as its caller expects.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
