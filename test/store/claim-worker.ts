// A separate engine process for sqlite.test.ts: opens (and migrates) the store file named on the
// command line, says "ready", waits for "go" on stdin, then claims and completes work until the
// queue is empty and prints the ids it claimed as JSON.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from '../../src/store/index.js';

const [file, engineId] = process.argv.slice(2);
const store = await openStore(file!);
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
await once(process.stdin, 'data');

const claimed: number[] = [];
while (true) {
  const items = await store.claimWork(engineId!, 1000, 5, 60_000);
  if (items.length === 0) break;
  claimed.push(...items.map((item) => item.id));
  // Working on the items takes a moment, as in an engine: on a loaded machine, one process that
  // got "go" first could otherwise drain the queue before the others start.
  await sleep(1);
  await store.tx(async (tx) => {
    // Throws if another process held the item: the test then fails.
    for (const item of items) await tx.work.complete(item);
  });
}
await store.close();
process.stdout.write(`${JSON.stringify(claimed)}\n`);
process.stdin.destroy();
