// The floor of the CLI benchmark (bench/cli.ts): a plain better-sqlite3 program writing, for N
// resources, the rows a minimal convergence create must write, with the store's pragmas. Per
// resource: its row inserted (INIT) and updated to CREATE_COMPLETE with its attributes, two events
// (IN_PROGRESS, COMPLETE), a unit of work inserted then deleted, and the sync input its dependent
// receives; in transactions of 256 resources. No engine, no template, no JSON beyond the
// attributes' text: what any Hearth create of N resources costs at the least.
// Usage: node cli-floor.js <N> <database file>; prints {"n", "cpuMs", "wallMs"} as JSON.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const BATCH = 256;

export function floor(n: number, file: string): void {
  const db = new Database(file);
  // As src/store/sqlite/driver.ts.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE resources (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL, stack_id TEXT NOT NULL,
      name TEXT NOT NULL, type TEXT NOT NULL, action TEXT NOT NULL, status TEXT NOT NULL,
      reason TEXT NOT NULL, physical_id TEXT, attributes TEXT NOT NULL, requires TEXT NOT NULL,
      atomic_key INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER);
    CREATE INDEX resources_by_stack_name ON resources (stack_id, name);
    CREATE TABLE events (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL, stack_id TEXT NOT NULL,
      resource_name TEXT NOT NULL, resource_type TEXT NOT NULL, physical_id TEXT,
      action TEXT NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE INDEX events_by_stack ON events (stack_id, id);
    CREATE TABLE work (id INTEGER PRIMARY KEY, stack_id TEXT NOT NULL, traversal_id TEXT NOT NULL,
      kind TEXT NOT NULL, node TEXT NOT NULL, run_at INTEGER NOT NULL, available_at INTEGER NOT NULL);
    CREATE INDEX work_by_available ON work (available_at, id);
    CREATE TABLE sync_inputs (traversal_id TEXT NOT NULL, node TEXT NOT NULL, from_node TEXT NOT NULL,
      data TEXT, PRIMARY KEY (traversal_id, node, from_node));
  `);
  const stack = randomUUID();
  const traversal = randomUUID();
  const insertResource = db.prepare(
    `INSERT INTO resources (uuid, stack_id, name, type, action, status, reason, attributes, requires, atomic_key, created_at)
     VALUES (?, ?, ?, 'OS::Heat::Value', 'INIT', 'COMPLETE', '', '{}', '[]', 0, ?)`,
  );
  const complete = db.prepare(
    `UPDATE resources SET action = 'CREATE', status = 'COMPLETE', physical_id = ?, attributes = ?,
       atomic_key = atomic_key + 1, updated_at = ? WHERE id = ?`,
  );
  const event = db.prepare(
    `INSERT INTO events (uuid, stack_id, resource_name, resource_type, physical_id, action, status, reason, created_at)
     VALUES (?, ?, ?, 'OS::Heat::Value', ?, 'CREATE', ?, ?, ?)`,
  );
  const enqueue = db.prepare(
    `INSERT INTO work (stack_id, traversal_id, kind, node, run_at, available_at) VALUES (?, ?, 'check', ?, ?, ?)`,
  );
  const dequeue = db.prepare('DELETE FROM work WHERE id = ?');
  const input = db.prepare(
    'INSERT INTO sync_inputs (traversal_id, node, from_node, data) VALUES (?, ?, ?, ?)',
  );
  const batch = db.transaction((start: number, end: number) => {
    const now = Date.now();
    for (let i = start; i < end; i++) {
      const name = `r${i}`;
      const id = Number(insertResource.run(randomUUID(), stack, name, now).lastInsertRowid);
      const item = Number(enqueue.run(stack, traversal, `u:${id}`, now, now).lastInsertRowid);
      event.run(randomUUID(), stack, name, null, 'IN_PROGRESS', 'state changed', now);
      const physical = randomUUID();
      const attributes = JSON.stringify({ value: 'a' });
      complete.run(physical, attributes, now, id);
      event.run(randomUUID(), stack, name, physical, 'COMPLETE', 'state changed', now);
      dequeue.run(item);
      input.run(traversal, `u:${id + 1}`, `u:${id}`, attributes);
    }
  });
  for (let start = 0; start < n; start += BATCH) batch(start, Math.min(n, start + BATCH));
  db.close();
}

if (process.argv[2] !== undefined) {
  const t0 = performance.now();
  floor(Number(process.argv[2]), process.argv[3]!);
  const cpu = process.cpuUsage();
  console.log(
    JSON.stringify({
      n: Number(process.argv[2]),
      cpuMs: (cpu.user + cpu.system) / 1000,
      wallMs: performance.now() - t0,
    }),
  );
}
