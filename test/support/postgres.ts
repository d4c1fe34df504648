import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL for tests: the server named by HEARTH_TEST_POSTGRES (default the local one CI
 * starts), one database on it (HEARTH_TEST_DATABASE: scripts/run-tests.mjs gives each run its
 * own; default `hearth_test`), and a new schema per store so tests never see each other's rows.
 * Without a server the PostgreSQL tests skip, except under CI, where they fail.
 */
export const POSTGRES_URL = process.env.HEARTH_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEST_DATABASE = process.env.HEARTH_TEST_DATABASE ?? 'hearth_test';

let reachable: Promise<string | undefined> | undefined;

/** Why PostgreSQL can't be used (undefined: it can), after making sure the test database exists. */
export function postgresUnavailable(): Promise<string | undefined> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEST_DATABASE]);
      if (found.rowCount === 0) {
        // Test processes race to create it: losing the race is fine.
        await client.query(`CREATE DATABASE ${TEST_DATABASE}`).catch((error: { code?: string }) => {
          if (error.code !== '42P04' && error.code !== '23505') throw error;
        });
      }
      return undefined;
    } catch (error) {
      return `PostgreSQL at ${redactUrl(POSTGRES_URL)} is unavailable: ${(error as Error).message}`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

/**
 * `{ skip }` for a describe() of PostgreSQL tests: skipped without a server, except under CI,
 * where the suite must fail instead (a broken database must not pass as a green run).
 */
export async function postgresSuiteOptions(): Promise<{ skip?: string }> {
  const why = await postgresUnavailable();
  if (!why) return {};
  if (process.env.CI === 'true') throw new Error(`${why} (CI=true: PostgreSQL tests must run)`);
  return { skip: why };
}

/**
 * The test database's URL with `search_path` set to `schema`. Commits do not wait for the WAL flush (synchronous_commit
 * off): only a crash of the server itself could lose one, which no test using this causes, and
 * the suite's thousands of commits stop queueing on the disk.
 */
export function schemaUrl(schema: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${TEST_DATABASE}`;
  url.searchParams.set('options', `-c search_path=${schema} -c synchronous_commit=off`);
  return url.toString();
}

/** Creates an empty schema in the test database; returns a URL whose connections use it. */
export async function freshSchemaUrl(): Promise<string> {
  const why = await postgresUnavailable();
  if (why) throw new Error(why);
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: schemaUrl('public') });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  created.push(schema);
  return schemaUrl(schema);
}

const created: string[] = [];

/** Drops the schemas this process made (call from an after() hook). */
export async function dropSchemas(): Promise<void> {
  if (created.length === 0) return;
  const client = new pg.Client({ connectionString: schemaUrl('public') });
  await client.connect();
  try {
    for (const schema of created.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
