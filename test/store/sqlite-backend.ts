import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { openStore, sqliteFileOf } from '../../src/store/index.js';
import { MIGRATIONS, migrate, SCHEMA_VERSION, SqlStore } from '../../src/store/sql/index.js';
import { SqliteDriver } from '../../src/store/sqlite/index.js';
import { stack } from './fixtures.js';
import { queryPlanTests } from './sqlite-plans.js';
import { multiProcessTests } from './processes.js';
import { migrationTests } from './upgrade.js';

export function sqliteBackendTests(newFile: () => string): void {
  describe('opening', () => {
    it('accepts a path, sqlite:PATH and :memory:', async () => {
      const file = newFile();
      for (const url of [file, `sqlite:${file}`, ':memory:', 'sqlite::memory:']) {
        const store = await openStore(url);
        await store.tx((tx) => tx.stacks.list({}));
        await store.close();
      }
      assert.ok(existsSync(file));
    });

    it('names the SQLite file of a store URL, and none for URLs that name no file', () => {
      assert.equal(sqliteFileOf('/var/lib/h.db'), '/var/lib/h.db');
      assert.equal(sqliteFileOf('sqlite:/var/lib/h.db'), '/var/lib/h.db');
      assert.equal(sqliteFileOf('rel/h.db'), 'rel/h.db');
      for (const none of [
        ':memory:',
        'sqlite::memory:',
        'postgres://u:p@h/db',
        'POSTGRESQL://h/db',
        'mysql://h/db',
        '',
      ]) {
        assert.equal(sqliteFileOf(none), undefined, none);
      }
    });

    it('reads the schema version without changing it: 0 before the first migration', async () => {
      const store = await openStore(newFile(), { migrate: false });
      try {
        assert.equal(await store.schemaVersion(), 0);
        assert.equal(await store.schemaVersion(), 0);
        assert.equal(await store.migrate(), SCHEMA_VERSION);
        assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
      } finally {
        await store.close();
      }
    });

    it('refuses unknown schemes and empty paths', async () => {
      await assert.rejects(openStore('mysql://db/hearth'), /unsupported store URL scheme "mysql:"/);
      await assert.rejects(openStore(''), /empty store path/);
    });

    it('sets WAL, synchronous=NORMAL, foreign keys and a busy timeout', async () => {
      const driver = new SqliteDriver(newFile());
      try {
        const pragma = async (name: string) => Object.values((await driver.query(`PRAGMA ${name}`))[0]!)[0];
        assert.equal(await pragma('journal_mode'), 'wal');
        assert.equal(await pragma('synchronous'), 1);
        assert.equal(await pragma('foreign_keys'), 1);
        assert.equal(await pragma('busy_timeout'), 10_000);
      } finally {
        await driver.close();
      }
    });

    it('a closed store refuses work; closing twice is harmless', async () => {
      const store = await openStore(newFile());
      await store.close();
      await store.close();
      await assert.rejects(
        store.tx((tx) => tx.stacks.list({})),
        /closed/,
      );
    });
  });

  describe('migrations', () => {
    migrationTests(() => new SqliteDriver(newFile()));

    it('records each applied step in schema_version, once', async () => {
      const file = newFile();
      const store = await openStore(file);
      await store.migrate();
      await store.close();
      const driver = new SqliteDriver(file);
      try {
        assert.equal(await migrate(driver), SCHEMA_VERSION);
        const rows = await driver.query('SELECT version FROM schema_version ORDER BY version');
        assert.deepEqual(
          rows.map((r) => r.version),
          MIGRATIONS.map((m) => m.version),
        );
      } finally {
        await driver.close();
      }
    });
  });

  describe('transactions in one process', () => {
    it('a nested transaction is an error, not a deadlock', async () => {
      const store = await openStore(':memory:');
      try {
        await assert.rejects(
          store.tx(() => store.tx(async () => 1)),
          /already open/,
        );
        await assert.rejects(
          store.tx(() => store.nextWorkTime()),
          /already open/,
        );
        assert.equal(await store.tx(async () => 2), 2, 'the store still works');
      } finally {
        await store.close();
      }
    });

    it('a statement after its transaction ended is refused', async () => {
      const store = new SqlStore(new SqliteDriver(':memory:'));
      await store.migrate();
      try {
        const leaked = await store.tx(async (tx) => tx);
        await assert.rejects(leaked.stacks.get('x'), /after its transaction ended/);
      } finally {
        await store.close();
      }
    });

    it('two stores on one file queue their transactions instead of failing busy', async () => {
      const file = newFile();
      const a = await openStore(file, { busyTimeoutMs: 200 });
      const b = await openStore(file, { busyTimeoutMs: 200 });
      try {
        const s = stack();
        const slow = a.tx(async (tx) => {
          await tx.stacks.insert(s);
          await new Promise((resolve) => setTimeout(resolve, 500));
        });
        const fast = b.tx((tx) => tx.stacks.get(s.id));
        await slow;
        assert.equal((await fast)?.id, s.id, 'b ran after a committed');
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('a read answers while a long write transaction of this process is open, from the last commit', async () => {
      const store = await openStore(newFile());
      try {
        const before = stack();
        await store.tx((tx) => tx.stacks.insert(before));
        const during = stack();
        let finish!: () => void;
        const finishing = new Promise<void>((resolve) => (finish = resolve));
        let inserted!: () => void;
        const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
        const writing = store.tx(async (tx) => {
          await tx.stacks.insert(during);
          inserted();
          await finishing;
        });
        await insertedNow;
        // The writer holds its transaction open: a read is not queued behind it.
        const seen = await store.read(async (tx) => [
          await tx.stacks.get(before.id),
          await tx.stacks.get(during.id),
        ]);
        assert.equal(seen[0]?.id, before.id);
        assert.equal(seen[1], undefined, 'nothing uncommitted is seen');
        finish();
        await writing;
        assert.equal((await store.read((tx) => tx.stacks.get(during.id)))?.id, during.id);
      } finally {
        await store.close();
      }
    });

    it('a long transaction lets the event loop take turns between its statements', async () => {
      const store = await openStore(newFile());
      try {
        let ticks = 0;
        const timer = setInterval(() => ticks++, 1);
        // 300 ms of statements in one transaction: without slices the timer never runs.
        await store.tx(async (tx) => {
          const start = performance.now();
          while (performance.now() - start < 300) await tx.stacks.list({});
        });
        clearInterval(timer);
        assert.ok(ticks >= 5, `the timer ran ${ticks} times during the transaction`);
      } finally {
        await store.close();
      }
    });
  });

  describe('checkpoints', () => {
    it('never checkpoints inside a commit; a worker thread checkpoints a grown WAL with no further commit', async () => {
      const file = newFile();
      const driver = new SqliteDriver(file);
      try {
        assert.deepEqual(await driver.query('PRAGMA wal_autocheckpoint'), [{ wal_autocheckpoint: 0 }]);
        await driver.query('CREATE TABLE blobs (b BLOB)');
        const sizeBefore = statSync(file).size;
        // About 8 MiB in one transaction: twice SQLite's checkpoint threshold.
        await driver.transaction(async (db) => {
          for (let i = 0; i < 128; i++) await db.run('INSERT INTO blobs VALUES (randomblob(65536))');
        });
        // Only a checkpoint copies pages from the WAL into the database file.
        const deadline = Date.now() + 60_000;
        while (statSync(file).size < sizeBefore + 8 * 2 ** 20) {
          assert.ok(Date.now() < deadline, 'the WAL was not checkpointed within a minute');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await driver.close();
      }
    });
  });

  queryPlanTests();
  multiProcessTests(newFile);
}
