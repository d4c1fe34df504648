// Counts the units of work this process's engine claims, so that a benchmark with several engine
// processes shows how they shared the work. The benchmark imports it for its own engine, and
// preloads it (`node --import`) into the `hearth engine` children it starts: with
// BENCH_UNITS_ON_STDIN=1 a child answers each "units?" line on stdin with "units <n>" on stdout,
// and stops (as on SIGTERM) when its stdin closes, so a benchmark that dies leaves no engine behind.
import { createInterface } from 'node:readline';
import { Worker } from '../src/engine/runtime/worker.js';

export const UNITS_QUESTION = 'units?';
export const UNITS_ANSWER = 'units ';

let claimed = 0;

// Instrumentation only: every unit an engine runs is claimed through runDue.
const runDue = Worker.prototype.runDue;
Worker.prototype.runDue = async function (this: Worker, ...args: Parameters<typeof runDue>) {
  const n = await runDue.apply(this, args);
  claimed += n;
  return n;
};

/** Units of work claimed by the engines of this process so far. */
export function unitsClaimed(): number {
  return claimed;
}

if (process.env.BENCH_UNITS_ON_STDIN === '1') {
  const input = createInterface({ input: process.stdin });
  input.on('line', (line) => {
    if (line === UNITS_QUESTION) process.stdout.write(`${UNITS_ANSWER}${claimed}\n`);
  });
  input.on('close', () => process.kill(process.pid, 'SIGTERM'));
}
