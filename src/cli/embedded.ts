import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { loadDeploymentKey } from '../auth/deployment-key.js';
import { agentCredentials, AgentSigner } from '../auth/agent-credentials.js';
import { StackUserKeys } from '../auth/stack-user-keys.js';
import { SignalSigner, signalCredentials } from '../auth/signal-tokens.js';
import { type Config, expandHome, loadConfig, OPTIONS, templateLimitsFrom } from '../config/index.js';
import { type EngineDeps, SYSTEM_CLOCK } from '../engine/core/deps.js';
import { Engine } from '../engine/engine.js';
import { RateLimits } from '../openstack/index.js';
import { ownerClouds } from './owner-clouds.js';
import { builtinPlugins, pluginCatalog } from '../resources/catalog.js';
import type { Reality } from '../resources/contract.js';
import { MemoryReality } from '../resources/reality/memory.js';
import { SqliteReality } from '../resources/reality/sqlite.js';
import { isPostgresUrl, openStore, type Store, sqliteFileOf } from '../store/index.js';

/** The CLI's global options that choose where state lives. */
export interface GlobalOptions {
  db?: string;
  config?: string;
}

/** The configuration: defaults < config file < HEARTH_* variables < command-line flags. */
export function cliConfig(opts: GlobalOptions): Config {
  return loadConfig({
    ...(opts.config ? { file: opts.config } : {}),
    overrides: opts.db ? { database: opts.db } : {},
  });
}

/** The project stacks belong to when no server (and so no authentication) is involved. */
export function localProject(): string {
  return process.env.HEARTH_PROJECT ?? 'local';
}

/**
 * The embedded default: the engine runs in this process against a local SQLite file (shared
 * safely with any other `hearth` process using the same file).
 */
export async function openEmbedded(opts: GlobalOptions): Promise<Engine> {
  return openEngine(cliConfig(opts), opts);
}

/** Where clients reach the API: the configured public URL, else the address it listens on. */
export function publicApiUrl(config: Config): string {
  if (config.public_api_url !== '') return config.public_api_url;
  const host = config.bind_host === '0.0.0.0' || config.bind_host === '::' ? hostname() : config.bind_host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.bind_port}`;
}

/**
 * The store the CLI uses: `--db` (already in `config.database`), else HEARTH_DB, else the
 * `database` option. `~` is expanded in a file path; a URL is used as written.
 */
export function configuredDatabase(config: Config, opts: GlobalOptions = {}): string {
  return expandHome(process.env.HEARTH_DB && !opts.db ? process.env.HEARTH_DB : config.database);
}

/**
 * Opens the configured store (a SQLite file's directory is created first), with the configured
 * pool for PostgreSQL. The schema is brought up to date unless `migrate: false`.
 */
export async function openConfiguredStore(
  config: Config,
  opts: GlobalOptions = {},
  options: { migrate?: boolean } = {},
): Promise<Store> {
  const database = configuredDatabase(config, opts);
  const file = sqliteFileOf(database);
  if (file !== undefined) prepareDirectory(file, database === expandHome(OPTIONS.database.default));
  try {
    return await openStore(database, { poolSize: config.database_pool_size, ...options });
  } catch (err) {
    if (file === undefined || (err as { code?: unknown }).code !== 'SQLITE_CANTOPEN') throw err;
    throw new Error(`cannot open the store ${file}: ${(err as Error).message} (is it a file you may write?)`);
  }
}

/**
 * The default store's directory (~/.hearth) is made on first use; a directory named by --db,
 * HEARTH_DB or the configuration must exist, so a mistyped path is an error, not a new store.
 */
function prepareDirectory(file: string, isDefault: boolean): void {
  const dir = dirname(file);
  if (isDefault) mkdirSync(dir, { recursive: true });
  else if (!existsSync(dir)) {
    throw new Error(
      `the store's directory ${dir} does not exist (the store is ${file}): create it, or correct --db`,
    );
  }
}

/**
 * An engine on the configured store, its schema brought up to date (the embedded default just
 * works; `hearth manage db sync` is the operator's explicit step). `publicUrl` is where signal
 * URLs point (asked each time: a server on port 0 knows it late).
 */
export async function openEngine(
  config: Config,
  opts: GlobalOptions = {},
  publicUrl: () => string = () => publicApiUrl(config),
): Promise<Engine> {
  const database = configuredDatabase(config, opts);
  const store = await openConfiguredStore(config, opts);
  const deploymentKey = await loadDeploymentKey(store, config.auth_encryption_key);
  const signer = new SignalSigner(deploymentKey);
  const agentSigner = new AgentSigner(deploymentKey);
  const stackUserKeys = new StackUserKeys(deploymentKey);
  // Until its first heartbeat counts the engines, this one takes the whole limit.
  const cloudRate = new RateLimits({
    perSecond: config.cloud_rate_limit,
    burst: config.cloud_rate_burst || config.cloud_rate_limit,
  });
  const deps: EngineDeps = {
    signalCredentials: (target) => signalCredentials(signer, publicUrl(), target),
    agentCredentials: (target) => agentCredentials(agentSigner, publicUrl(), target),
    stackUserKeypair: (target) => stackUserKeys.keypair(target),
    // Each stack's calls as its owner (opened when a resource first needs a cloud: a deployment
    // without OpenStack types needs none); their requests wait on the rate the heartbeat sets.
    ...ownerClouds(config, store, deploymentKey, cloudRate),
    cloudRate,
    store,
    plugins: pluginCatalog(
      builtinPlugins({ softwareConfigTransport: config.default_software_config_transport }),
    ),
    reality: await realityFor(database),
    clock: SYSTEM_CLOCK,
    engineId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    random: Math.random,
    settings: {
      workLeaseMs: config.work_lease_ms,
      heartbeatIntervalMs: config.heartbeat_interval_ms,
      engineDeadAfterMs: config.engine_dead_after_ms,
      shutdownTimeoutMs: config.shutdown_timeout_ms,
      actionRetryLimit: config.action_retry_limit,
      stackActionTimeout: config.stack_action_timeout,
      lockRetryMs: 200,
      workBatchSize: config.work_batch_size,
      driftConcurrency: config.drift_concurrency,
      observeOnUpdate: config.observe_on_update,
      convergenceEngine: config.convergence_engine,
      enableStackAdopt: config.enable_stack_adopt,
      convergenceMigrateOnUpdate: config.convergence_migrate_on_update,
      healBounds: { limit: config.observe_heal_limit, windowMs: config.observe_heal_window * 1000 },
      cloudRateLimit: config.cloud_rate_limit,
      cloudRateBurst: config.cloud_rate_burst,
      limits: templateLimitsFrom(config),
    },
  };
  return new Engine(deps, (message) => {
    if (config.log_level === 'debug' || config.log_level === 'trace') process.stderr.write(`${message}\n`);
  });
}

/** Runs `fn` with an embedded engine, always closing the store. */
export async function withEngine<T>(program: Command, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await openEmbedded(program.opts<GlobalOptions>());
  try {
    return await fn(engine);
  } finally {
    await engine.stop();
    await engine.deps.store.close();
  }
}

/**
 * Where types without a cloud keep their objects: a SQLite file beside the state (a separate file,
 * because better-sqlite3 waits for a lock synchronously: a plugin call waiting on the state file's
 * write lock would block the very event loop that holds it), or a table of the shared PostgreSQL
 * database, which every engine on every host sees.
 */
async function realityFor(database: string): Promise<Reality> {
  // Loaded only when needed: the PostgreSQL client costs a command's start-up ~50 ms.
  if (isPostgresUrl(database))
    return new (await import('../resources/reality/postgres.js')).PostgresReality(database);
  const file = sqliteFileOf(database);
  return file === undefined ? new MemoryReality() : new SqliteReality(`${file}.reality`);
}
