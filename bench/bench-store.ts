// Where one benchmark run keeps its state: a new SQLite file, or a new schema in a PostgreSQL
// database (created if missing), both removed when the run ends.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { isPostgresUrl } from '../src/store/index.js';

export interface BenchStore {
  /** For output: `sqlite` or `postgres` (never the URL, which may hold a password). */
  readonly kind: 'sqlite' | 'postgres';
  /** The store URL engines open. */
  readonly url: string;
  dispose(): Promise<void>;
}

const DEFAULT_DATABASE = 'hearth_bench';

/** `spec` is `sqlite` (a file in a new temporary folder) or a `postgres://` URL naming a database. */
export async function newBenchStore(spec: string): Promise<BenchStore> {
  if (spec === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-'));
    return {
      kind: 'sqlite',
      url: join(dir, 'bench.db'),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!isPostgresUrl(spec)) throw new Error('BENCH_STORE takes `sqlite` or postgres:// URLs');
  const database = new URL(spec);
  if (database.pathname.length <= 1) database.pathname = `/${DEFAULT_DATABASE}`;
  await ensureDatabase(database);
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await withClient(database, (client) => client.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(database);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind: 'postgres',
    url: url.toString(),
    dispose: async () => {
      await withClient(database, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`));
    },
  };
}

/** Creates the URL's database unless it exists (through the server's `postgres` database). */
async function ensureDatabase(database: URL): Promise<void> {
  const name = decodeURIComponent(database.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unusable benchmark database name "${name}"`);
  const server = new URL(database);
  server.pathname = '/postgres';
  await withClient(server, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  });
}

async function withClient<T>(url: URL, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
