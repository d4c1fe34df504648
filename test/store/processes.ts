import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/index.js';
import { work } from './fixtures.js';

const WORKER = fileURLToPath(new URL('./claim-worker.ts', import.meta.url));
const ITEMS = 3000;
const PROCESSES = 3;

/** Reads a child's stdout line by line. */
function lines(child: ChildProcess): () => Promise<string> {
  let buffer = '';
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const next = waiting.shift();
      if (next) next(line);
      else ready.push(line);
    }
  });
  return () => {
    const line = ready.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
  };
}

/** Processes sharing one database: `newDatabase` names a new, empty one (a file, or a URL). */
export function multiProcessTests(newDatabase: () => string | Promise<string>): void {
  describe('several processes on one database', () => {
    it(`${PROCESSES} processes open a new database at once, then drain one queue without sharing an item`, async () => {
      const file = await newDatabase();
      const children = Array.from({ length: PROCESSES }, (_, i) =>
        spawn(process.execPath, ['--import', 'tsx', WORKER, file, `engine-${i}`], {
          stdio: ['pipe', 'pipe', 'inherit'],
        }),
      );
      try {
        const readers = children.map(lines);
        // All of them created or migrated the schema concurrently.
        assert.deepEqual(await Promise.all(readers.map((read) => read())), Array(PROCESSES).fill('ready'));
        const store = await openStore(file);
        await store.tx((tx) =>
          tx.work.enqueue(Array.from({ length: ITEMS }, (_, i) => work('t', 's', `u:${i}`))),
        );
        await store.close();
        for (const child of children) child.stdin!.write('go\n');
        const claimed = (await Promise.all(readers.map((read) => read()))).map(
          (line) => JSON.parse(line) as number[],
        );
        const all = claimed.flat();
        assert.equal(all.length, ITEMS);
        assert.equal(new Set(all).size, ITEMS, 'no item claimed twice');
        assert.ok(claimed.filter((ids) => ids.length > 0).length >= 2, 'the processes shared the work');
        const codes = await Promise.all(children.map(async (c) => c.exitCode ?? (await once(c, 'exit'))[0]));
        assert.deepEqual(codes, Array(PROCESSES).fill(0));
      } finally {
        for (const child of children) if (child.exitCode === null) child.kill();
      }
    });
  });
}
