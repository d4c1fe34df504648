// The order a pass starts its files in: the longest first, so that its end is not one long file
// running alone while the other cores idle. How long a file takes is what it took in the last run
// on this checkout (node_modules/.cache/hearth-test-times.json, written at the end of each run);
// a file never timed (a fresh clone) is guessed from its folder: the end-to-end folders, whose
// tests start servers and `hearth` children, before the in-process ones.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const TIMES = resolve(import.meta.dirname, '..', 'node_modules', '.cache', 'hearth-test-times.json');

/** Seconds a file of each folder is guessed to take, when it was never timed. */
const GUESS = { newcomer: 120, software: 60, crash: 40, cli: 12, api: 6, sandbox: 5, store: 5, engine: 4 };

function readTimes() {
  try {
    return JSON.parse(readFileSync(TIMES, 'utf8'));
  } catch {
    return {};
  }
}

function guess(file) {
  const folder = file.split(/[\\/]/)[1];
  return GUESS[folder] ?? 1;
}

/** The files of pass `pass`, the longest first (the sort is stable: ties keep their order). */
export function longestFirst(pass, files) {
  const known = readTimes()[pass] ?? {};
  const seconds = (f) => known[f] ?? guess(f);
  return [...files].sort((a, b) => seconds(b) - seconds(a));
}

/** Keeps what each file took in this run (by pass), for the next run's order. */
export class TimesRecorder {
  #times = {};

  /** One progress line of a pass: `ok   test/x.test.ts › name (1.2 s)`. */
  add(pass, line) {
    const match = / (\S+\.test\.ts) › .*\((\d+(?:\.\d+)?) s\)$/.exec(line);
    if (!match) return;
    const files = (this.#times[pass] ??= {});
    files[match[1]] = (files[match[1]] ?? 0) + Number(match[2]);
  }

  /** Merges this run's times into the stored ones (a run of some files keeps the others'). */
  save() {
    const stored = readTimes();
    for (const [pass, files] of Object.entries(this.#times)) stored[pass] = { ...stored[pass], ...files };
    try {
      mkdirSync(dirname(TIMES), { recursive: true });
      writeFileSync(TIMES, `${JSON.stringify(stored, null, 1)}\n`);
    } catch {
      // Only an order hint: a read-only checkout runs in the guessed order.
    }
  }
}
