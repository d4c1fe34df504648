import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ServiceRecord, Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { PostgresDriver } from '../../src/store/postgres/index.js';
import type { SqlDriver, SqlValue } from '../../src/store/sql/driver.js';
import { SCHEMA_VERSION } from '../../src/store/sql/index.js';
import { MIGRATIONS } from '../../src/store/sql/schema.js';
import { SqliteDriver } from '../../src/store/sqlite/index.js';
import { dropSchemas, freshSchemaUrl, postgresSuiteOptions } from '../support/postgres.js';
import { stackWithTraversal, work } from '../store/fixtures.js';
import { hearth, workdir } from './helpers.js';

// `hearth manage db sync` and `hearth manage service list|clean` through the real command, on a
// SQLite file and on a PostgreSQL schema: a store opened by the test holds the rows the commands
// read and shows what they changed.

const TEMPLATE = 'heat_template_version: 2021-04-16\nresources:\n  r: {type: OS::Heat::None}\n';
const pgOptions = await postgresSuiteOptions();
after(() => dropSchemas());

/** What a backend's tests need: a `hearth` bound to one fresh store, and raw SQL on that store. */
interface Backend {
  db: string;
  run: (args: string[], env?: Record<string, string>) => ReturnType<typeof hearth>;
  sql: (statement: string, params: SqlValue[]) => Promise<void>;
}

async function runSql(driver: SqlDriver, statement: string, params: SqlValue[]): Promise<void> {
  try {
    await driver.query(statement, params);
  } finally {
    await driver.close();
  }
}

function sqliteBackend(): Backend {
  const w = workdir({ 't.yaml': TEMPLATE });
  return { db: w.db, run: w.run, sql: (q, p) => runSql(new SqliteDriver(w.db), q, p) };
}

async function postgresBackend(): Promise<Backend> {
  const db = await freshSchemaUrl();
  return {
    db,
    run: (args, env) => hearth(['--db', db, ...args], undefined, env),
    sql: (q, p) => runSql(new PostgresDriver(db), q, p),
  };
}

function ok(b: Backend, args: string[], env?: Record<string, string>): string {
  const r = b.run(args, env);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

function dbSyncTests(open: () => Promise<Backend>): void {
  it('creates the schema of an empty store, then finds it up to date', async () => {
    const b = await open();
    assert.equal(ok(b, ['manage', 'db', 'sync']), `schema at version ${SCHEMA_VERSION} (was 0)\n`);
    assert.equal(
      ok(b, ['manage', 'db', 'sync']),
      `schema at version ${SCHEMA_VERSION} (was ${SCHEMA_VERSION}: up to date)\n`,
    );
    const store = await openStore(b.db, { migrate: false });
    try {
      assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
    } finally {
      await store.close();
    }
  });

  it('refuses a schema newer than this Hearth, changing nothing', async () => {
    const b = await open();
    ok(b, ['manage', 'db', 'sync']);
    // As a later Hearth would leave the database: one more step recorded.
    await b.sql('INSERT INTO schema_version (version, description, applied_at) VALUES ($1, $2, $3)', [
      SCHEMA_VERSION + 1,
      'from the future',
      Date.now(),
    ]);
    const r = b.run(['manage', 'db', 'sync']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `schema is version ${SCHEMA_VERSION + 1}, newer than this Hearth knows \\(${SCHEMA_VERSION}\\)`,
      ),
    );
    const store = await openStore(b.db, { migrate: false });
    try {
      assert.equal(await store.schemaVersion(), SCHEMA_VERSION + 1);
    } finally {
      await store.close();
    }
  });
}

function serviceTests(open: () => Promise<Backend>): void {
  let b: Backend;
  let store: Store;
  let traversalId: string;
  // Alive only with a threshold above its age: a long one (the commands take seconds to start,
  // and ages grow meanwhile), or, for slow-engine, not the default of 5 s.
  const env = { HEARTH_ENGINE_DEAD_AFTER_MS: String(10 * 60_000) };
  let fresh: ServiceRecord;
  let stale: ServiceRecord;

  before(async () => {
    const now = Date.now();
    const row = (engineId: string, host: string, pid: number, ageMs: number): ServiceRecord => ({
      engineId,
      host,
      pid,
      startedAt: now - 2 * 3_600_000,
      heartbeatAt: now - ageMs,
    });
    // Fresh and stale by the heartbeat (on other hosts, so no process check applies), and one of
    // this host whose process has exited: dead at once, however fresh its heartbeat.
    fresh = row('fresh-engine', 'host-a', 4242, 0);
    stale = row('stale-engine', 'host-b', 4343, 3_600_000);
    const gone = row('gone-engine', hostname(), exitedPid(), 0);
    const slow = row('slow-engine', 'host-c', 4444, 30_000);
    b = await open();
    store = await openStore(b.db);
    await store.tx(async (tx) => {
      for (const s of [fresh, stale, gone, slow]) await tx.services.heartbeat(s);
    });
    const parents = await stackWithTraversal(store);
    traversalId = parents.traversalId;
    await store.tx((tx) =>
      tx.work.enqueue([
        work(parents.traversalId, parents.stackId, 'u:1'),
        work(parents.traversalId, parents.stackId, 'u:2'),
      ]),
    );
    // The stale engine claimed one unit, with a lease long enough that only cleaning frees it.
    const claimed = await store.claimWork(stale.engineId, now, 1, 3_600_000);
    assert.equal(claimed.length, 1);
  });
  after(() => store?.close());

  it('lists engines with host, pid, times, age and status (alive/dead by the configured threshold)', () => {
    const rows = JSON.parse(ok(b, ['manage', 'service', 'list', '-f', 'json'], env)) as Record<
      string,
      unknown
    >[];
    const byId = new Map(rows.map((r) => [r.engine_id, r]));
    assert.deepEqual([...byId.keys()].sort(), ['fresh-engine', 'gone-engine', 'slow-engine', 'stale-engine']);
    const f = byId.get('fresh-engine')!;
    assert.deepEqual(
      {
        host: f.host,
        pid: f.pid,
        started_at: f.started_at,
        last_heartbeat: f.last_heartbeat,
        status: f.status,
      },
      {
        host: 'host-a',
        pid: 4242,
        started_at: new Date(fresh.startedAt).toISOString(),
        last_heartbeat: new Date(fresh.heartbeatAt).toISOString(),
        status: 'alive',
      },
    );
    assert.ok((f.age_seconds as number) >= 0 && (f.age_seconds as number) < 60, String(f.age_seconds));
    const st = byId.get('stale-engine')!;
    assert.equal(st.status, 'dead');
    assert.ok((st.age_seconds as number) >= 3600, String(st.age_seconds));
    assert.equal(byId.get('gone-engine')!.status, 'dead');
    assert.equal(byId.get('slow-engine')!.status, 'alive');
  });

  it('judges by the default threshold without configuration: a 30 s old heartbeat is dead by it', () => {
    const value = ok(b, ['manage', 'service', 'list', '-f', 'value']);
    assert.match(value, /^slow-engine host-c 4444 \S+ \S+ [\d.]+ dead$/m);
  });

  it('prints a table by default', () => {
    const table = ok(b, ['manage', 'service', 'list'], env);
    assert.match(
      table,
      /\| engine_id +\| host +\| pid +\| started_at +\| last_heartbeat +\| age_seconds +\| status +\|/,
    );
    assert.match(table, /\| fresh-engine +\| host-a +\| 4242 +\|.*\| alive +\|/);
  });

  it('cleans dead engines only: their rows go and their claimed work becomes claimable', async () => {
    assert.deepEqual(
      await store.claimWork('bystander', Date.now(), 10, 3_600_000).then((items) => items.map((i) => i.node)),
      ['u:2'],
      'before: the stale engine holds u:1',
    );
    const out = ok(b, ['manage', 'service', 'clean'], env);
    const lines = out.trim().split('\n').sort();
    assert.equal(lines.length, 2, out);
    assert.match(
      lines[0]!,
      /^removed engine gone-engine \(host .+, pid \d+, last heartbeat \S+\); released 0 claimed work item\(s\)$/,
    );
    assert.equal(
      lines[1],
      `removed engine stale-engine (host host-b, pid 4343, last heartbeat ${new Date(stale.heartbeatAt).toISOString()}); ` +
        'released 1 claimed work item(s)',
    );
    const left = await store.tx((tx) => tx.services.list());
    assert.deepEqual(left.map((s) => s.engineId).sort(), ['fresh-engine', 'slow-engine']);
    const items = await store.tx((tx) => tx.work.listForTraversal(traversalId));
    const u1 = items.find((i) => i.node === 'u:1')!;
    assert.equal(u1.claimedBy, null, 'the dead engine’s claim is gone');
    const retaken = await store.claimWork('survivor', Date.now(), 10, 1000);
    assert.deepEqual(
      retaken.map((i) => i.node),
      ['u:1'],
    );
    assert.equal(ok(b, ['manage', 'service', 'clean'], env), 'no dead engines\n');
  });
}

describe('hearth manage db sync, on SQLite', () => {
  dbSyncTests(async () => sqliteBackend());

  it('upgrades an older schema, and the stacks in it survive', async () => {
    const w = workdir({ 't.yaml': TEMPLATE });
    assert.equal(w.run(['stack', 'create', 'kept', '-t', 't.yaml', '--wait']).code, 0);
    // The database as an older Hearth left it: the last step not applied yet. The stack created
    // above is a row of tables the older steps made.
    // The newest step this test can undo is taken back with those after it: a later step that
    // rebuilds a table (25: sync tables WITHOUT ROWID) is not undone, only marked unapplied, and
    // runs again on tables already in its shape.
    const driver = new SqliteDriver(w.db);
    let from = SCHEMA_VERSION;
    try {
      const last = [...MIGRATIONS]
        .sort((a, b) => b.version - a.version)
        .find((m) => m.statements(driver.dialect).every(undoable))!;
      from = last.version;
      await driver.query('DELETE FROM schema_version WHERE version >= $1', [from]);
      await undo(driver, last.statements(driver.dialect));
    } finally {
      await driver.close();
    }
    const r = w.run(['manage', 'db', 'sync']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `schema at version ${SCHEMA_VERSION} (was ${from - 1})\n`);
    const list = w.run(['stack', 'list', '-f', 'value']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /kept/);
  });
});

describe('hearth manage db sync, on PostgreSQL', pgOptions, () => {
  dbSyncTests(postgresBackend);
});

describe('hearth manage service, on SQLite', () => {
  serviceTests(async () => sqliteBackend());
});

describe('hearth manage service, on PostgreSQL', pgOptions, () => {
  serviceTests(postgresBackend);
});

describe('a database URL’s password', () => {
  it('appears nowhere in what a command prints when the database is unreachable', () => {
    const url = 'postgres://u:secret@127.0.0.1:1/x';
    for (const args of [
      ['stack', 'list'],
      ['manage', 'db', 'sync'],
      ['manage', 'service', 'list'],
    ]) {
      const r = hearth(['--db', url, ...args]);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /ECONNREFUSED/);
      assert.doesNotMatch(r.stdout + r.stderr, /secret/);
    }
  });

  it('appears nowhere when the URL does not parse either', () => {
    const r = hearth(['--db', 'postgres://u:secret@127.0.0.1:99999/x', 'manage', 'db', 'sync']);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stdout + r.stderr, /secret/);
  });
});

/** The pid of a process that has exited. */
function exitedPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(r.stdout);
}

/**
 * Undoes a schema step made of CREATE TABLE / CREATE INDEX / ALTER TABLE ADD COLUMN statements and
 * UPDATE backfills (nothing to undo: they fill the columns dropped here).
 */
const UNDOABLE = /^\s*(UPDATE |CREATE TABLE |CREATE (UNIQUE )?INDEX |ALTER TABLE \w+ ADD COLUMN )/i;
const undoable = (sql: string) => UNDOABLE.test(sql);

async function undo(driver: SqliteDriver, statements: string[]): Promise<void> {
  for (const sql of statements.reverse()) {
    if (/^\s*UPDATE /i.test(sql)) continue;
    const table = /^\s*CREATE TABLE (?:IF NOT EXISTS )?(\w+)/i.exec(sql);
    const index = /^\s*CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?(\w+)/i.exec(sql);
    const column = /^\s*ALTER TABLE (\w+) ADD COLUMN (\w+)/i.exec(sql);
    if (table) await driver.query(`DROP TABLE ${table[1]}`);
    else if (index) await driver.query(`DROP INDEX ${index[1]}`);
    else if (column) await driver.query(`ALTER TABLE ${column[1]} DROP COLUMN ${column[2]}`);
    else throw new Error(`cannot undo: ${sql}`);
  }
}

describe('a store path that cannot be used', () => {
  it('a mistyped --db directory is an error naming it, and nothing is created', () => {
    const { dir } = workdir({});
    const db = join(dir, 'no-such-dir', 'x.db');
    const r = hearth(['--db', db, 'stack', 'list'], dir);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /the store's directory .*no-such-dir does not exist/);
    assert.ok(!existsSync(join(dir, 'no-such-dir')), 'no directory made');
  });

  it('a path SQLite cannot open is named in the error', () => {
    const { dir } = workdir({});
    mkdirSync(join(dir, 'a-directory'));
    const r = hearth(['--db', join(dir, 'a-directory'), 'stack', 'list'], dir);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /cannot open the store .*a-directory/);
  });
});
