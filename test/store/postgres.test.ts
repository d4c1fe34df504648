import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { PoolClient } from 'pg';
import { ClaimLostError } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { MIGRATIONS, migrate, SCHEMA_VERSION } from '../../src/store/sql/index.js';
import { PostgresDriver } from '../../src/store/postgres/index.js';
import { dropSchemas, freshSchemaUrl, postgresSuiteOptions } from '../support/postgres.js';
import { storeContractTests } from './contract.js';
import { stack, work } from './fixtures.js';
import { multiProcessTests } from './processes.js';
import { migrationTests } from './upgrade.js';

const options = await postgresSuiteOptions();
after(() => dropSchemas());

// Each test has a schema of its own: they run side by side, as engines share a server.
describe('PostgreSQL store', { ...options, concurrency: 4 }, () => {
  storeContractTests(async () => openStore(await freshSchemaUrl()), {
    openPair: async () => {
      const url = await freshSchemaUrl();
      return [await openStore(url), await openStore(url)];
    },
    // A round trip to the server costs about half a millisecond on the CI machine.
    scaleBoundMs: 60_000,
  });

  multiProcessTests(freshSchemaUrl);

  describe('PostgreSQL backend', () => {
    migrationTests(async () => new PostgresDriver(await freshSchemaUrl()));

    it('a connection that reports an error as the pool hands it over does not crash the process', async () => {
      const driver = new PostgresDriver(await freshSchemaUrl());
      try {
        // The pool's own listener is gone once a connection is handed over; the server's FATAL may
        // come in the same read as the connection's ready message, before a transaction listens.
        const pool = (driver as unknown as { pool: { connect(): Promise<PoolClient> } }).pool;
        const client = await pool.connect();
        const cut = new Error('terminating connection');
        try {
          // An 'error' nobody listens to throws (and crashes a process when it comes from a socket).
          assert.doesNotThrow(() => client.emit('error', cut));
        } finally {
          client.release(cut);
        }
        assert.deepEqual(await driver.query('SELECT 1 AS one'), [{ one: 1 }]);
      } finally {
        await driver.close();
      }
    });

    it('never echoes the password of a URL it cannot reach', async () => {
      await assert.rejects(openStore('postgres://hearth:s3cret@127.0.0.1:1/hearth'), (error: Error) => {
        assert.doesNotMatch(`${error.message} ${String(error.stack)}`, /s3cret/);
        return true;
      });
    });

    it('reads the schema version of its own schema (search_path) without changing it: 0 before migrating', async () => {
      const url = await freshSchemaUrl();
      const store = await openStore(url, { migrate: false });
      try {
        assert.equal(await store.schemaVersion(), 0);
        assert.equal(await store.migrate(), SCHEMA_VERSION);
        assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
      } finally {
        await store.close();
      }
      const other = await openStore(await freshSchemaUrl(), { migrate: false });
      try {
        assert.equal(await other.schemaVersion(), 0, 'another schema of the same database has none');
      } finally {
        await other.close();
      }
    });

    it('migrates once: concurrent migrations queue, the schema records every step', async () => {
      const url = await freshSchemaUrl();
      const drivers = [new PostgresDriver(url), new PostgresDriver(url), new PostgresDriver(url)];
      try {
        assert.deepEqual(
          await Promise.all(drivers.map((d) => migrate(d))),
          drivers.map(() => SCHEMA_VERSION),
        );
        const rows = await drivers[0]!.query('SELECT version FROM schema_version ORDER BY version');
        assert.deepEqual(
          rows.map((r) => r.version),
          MIGRATIONS.map((m) => m.version),
        );
      } finally {
        await Promise.all(drivers.map((d) => d.close()));
      }
    });

    it('transactions that conflict are run again until they serialize', async () => {
      const store = await openStore(await freshSchemaUrl());
      try {
        await store.tx((tx) => tx.stacks.insert(stack({ id: 's1', name: 'counter', tags: ['0'] })));
        // Read-modify-write of one row from many transactions at once: without snapshot
        // isolation and retries, increments would be lost.
        let runs = 0;
        await Promise.all(
          Array.from({ length: 20 }, () =>
            store.tx(async (tx) => {
              runs++;
              const s = (await tx.stacks.get('s1'))!;
              await tx.stacks.update('s1', null, { tags: [String(Number(s.tags[0]) + 1)] });
            }),
          ),
        );
        assert.deepEqual((await store.tx((tx) => tx.stacks.get('s1')))?.tags, ['20']);
        assert.ok(runs >= 20);
      } finally {
        await store.close();
      }
    });

    it('a nested transaction is refused instead of waiting for a second connection', async () => {
      const store = await openStore(await freshSchemaUrl());
      try {
        await assert.rejects(
          store.tx(() => store.tx((tx) => tx.stacks.list({}))),
          /nested tx/,
        );
      } finally {
        await store.close();
      }
    });

    it('tells listeners of work enqueued by another process, through NOTIFY', async () => {
      const url = await freshSchemaUrl();
      const [listening, writing] = [await openStore(url), await openStore(url)];
      try {
        let heard = 0;
        let wake: () => void = () => {};
        listening.onWork(() => {
          heard++;
          wake();
        });
        // The first notice is the listener's connection coming up.
        while (heard === 0) await new Promise<void>((resolve) => (wake = resolve));
        const before = heard;
        const arrived = new Promise<void>((resolve) => (wake = resolve));
        await writing.tx((tx) => tx.work.enqueue([work('t1', 's1', 'u:1')]));
        await arrived;
        assert.ok(heard > before);
      } finally {
        await listening.close();
        await writing.close();
      }
    });

    it('fences a claim taken over by another engine', async () => {
      const store = await openStore(await freshSchemaUrl());
      try {
        await store.tx((tx) => tx.work.enqueue([work('t1', 's1', 'u:1')]));
        const [mine] = await store.claimWork('e1', 1000, 1, 10);
        await store.tx((tx) => tx.work.releaseClaimsOf('e1', 1000));
        await store.claimWork('e2', 1000, 1, 10);
        await assert.rejects(
          store.tx((tx) => tx.work.complete(mine!)),
          ClaimLostError,
        );
      } finally {
        await store.close();
      }
    });
  });
});
