import { availableParallelism } from 'node:os';
import type { AnyOptionSpec, OptionSpec } from './option-spec.js';
export * from './option-spec.js';

/**
 * Hearth's configuration. Fields carry Heat's option names (heat.conf's `[DEFAULT]` section) where
 * Heat has the option, so that the file, the environment variables, the docs and the code all use
 * one name. docs/configuration.md describes every option.
 */
export interface Config {
  // --- Engine (Heat's engine options) ---
  /** Retries of a failed resource action before the resource fails; 0 disables retries. */
  readonly action_retry_limit: number;
  /** Retries when a client meets an expected intermittent error; 0 disables retries. */
  readonly client_retry_limit: number;
  /** Most resources in one stack, nested stacks included; -1 means unlimited. */
  readonly max_resources_per_stack: number;
  /** Deepest chain of nested stacks. */
  readonly max_nested_stack_depth: number;
  /** Largest template or environment document, in bytes. */
  readonly max_template_size: number;
  /** Largest API request body, in bytes (should be larger than max_template_size). */
  readonly max_json_body_size: number;
  /** Deepest nesting of maps and lists in an API request body. */
  readonly max_json_body_depth: number;
  /** Rough number of events kept per stack; 0 means unlimited. */
  readonly max_events_per_stack: number;
  /** How many events one purge removes. */
  readonly event_purge_batch_size: number;
  /** Default timeout of a stack action (create, update, ...), in seconds. */
  readonly stack_action_timeout: number;
  /** New stacks use the convergence engine (false: legacy engine). */
  readonly convergence_engine: boolean;
  /** On update, read resources' live properties and converge them to the new template. */
  readonly observe_on_update: boolean;
  /** Updating a legacy stack migrates it to convergence first. */
  readonly convergence_migrate_on_update: boolean;
  /** Engine workers to run. */
  readonly num_engine_workers: number;
  /** Seconds between runs of periodic tasks. */
  readonly periodic_interval: number;
  /** Seconds allowed for the liveness check of an engine that holds a stack lock. */
  readonly engine_life_check_timeout: number;
  /** `stack adopt` is allowed (Heat's default is false). */
  readonly enable_stack_adopt: boolean;
  // --- Hearth's own ---
  /** The store: a SQLite file path or a database URL. `~` is the home directory. */
  readonly database: string;
  /** Connections each process keeps to a PostgreSQL store (a SQLite store ignores it). */
  readonly database_pool_size: number;
  /** Least severe log messages written. */
  readonly log_level: LogLevel;
  /** How long a claimed unit of work stays an engine's before another engine may take it over, in ms. */
  readonly work_lease_ms: number;
  /** Interval between an engine's heartbeats (liveness and lease renewal), in ms. */
  readonly heartbeat_interval_ms: number;
  /** An engine whose last heartbeat is older than this is presumed dead and its work taken over, in ms. */
  readonly engine_dead_after_ms: number;
  /** How long a stopping engine (SIGTERM) may finish the work it runs before handing the rest back, in ms. */
  readonly shutdown_timeout_ms: number;
  /** An embedded command that starts work without --wait starts a background engine for its SQLite file. */
  readonly background_engine: boolean;
  /** Units of work an engine claims and runs at once. */
  readonly work_batch_size: number;
  /** Resources whose live state drift detection reads at once. */
  readonly drift_concurrency: number;
  /** Heals of one resource by the observer before it gives up and fails the stack. */
  readonly observe_heal_limit: number;
  /** Seconds a healed resource must stay in sync before its heals are forgotten. */
  readonly observe_heal_window: number;
  /** Deepest nesting of maps and lists inside one template or environment document. */
  readonly max_document_depth: number;
  /** Most YAML nodes in one document, aliases expanded. */
  readonly max_document_nodes: number;
  /** Most YAML alias expansions in one document. */
  readonly max_document_aliases: number;
  /** Address the API server listens on. */
  readonly bind_host: string;
  /** Port the API server listens on; 0 picks a free port. */
  readonly bind_port: number;
  /** How the API authenticates requests: its own tokens, Keystone's, or not at all (loopback only). */
  readonly auth_mode: AuthMode;
  /** Lifetime of a standalone API token `hearth manage token create` makes without --ttl, in seconds. */
  readonly token_expiration: number;
  /** Keystone v3 endpoint that validates tokens when auth_mode is keystone. */
  readonly keystone_url: string;
  /** Hearth's own Keystone user, whose token lets it validate requests' tokens. */
  readonly keystone_service_user: string;
  /** That user's password (empty: not set; keystone mode needs it). */
  readonly keystone_service_password: string;
  /** The project Hearth's service token is scoped to. */
  readonly keystone_service_project: string;
  /** The domain of keystone_service_user. */
  readonly keystone_service_user_domain: string;
  /** The domain of keystone_service_project. */
  readonly keystone_service_project_domain: string;
  /** How long a token Keystone validated is trusted without asking again, in seconds. */
  readonly keystone_token_cache_time: number;
  /** How long Hearth waits for Keystone's answer, in seconds. */
  readonly keystone_timeout: number;
  /** Roles a stack's Keystone trust delegates (comma-separated); empty: every role of the creating user's token. */
  readonly trusts_delegated_roles: string;
  /** The cloud of clouds.yaml the OpenStack resource types use; empty: OS_CLOUD, or the OS_* variables. */
  readonly openstack_cloud: string;
  /** The server's projects without a cloud of their own use openstack_cloud (one login shared by every project). */
  readonly openstack_cloud_shared: boolean;
  /** Requests per second to each cloud endpoint, for the whole deployment (shared by its engines); 0: unlimited. */
  readonly cloud_rate_limit: number;
  /** Most requests sent at once to one endpoint after a quiet spell, for the deployment; 0: one second's worth. */
  readonly cloud_rate_burst: number;
  /** Most stacks one project may have (top-level and nested); -1 means unlimited. */
  readonly max_stacks_per_tenant: number;
  /** Write requests (POST, PUT, PATCH, DELETE) per second one project may send the API; 0: unlimited. */
  readonly api_write_rate_limit: number;
  /** Most write requests one project may send at once after a quiet spell; 0: api_write_rate_limit. */
  readonly api_write_rate_burst: number;
  /** The URL clients reach the API at, which signal URLs in resource attributes point to. */
  readonly public_api_url: string;
  /** Key signing signal tokens and sealing stored trust ids; empty: one generated for the store, shared by its processes. */
  readonly auth_encryption_key: string;
}

export const AUTH_MODES = ['standalone', 'keystone', 'noauth'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export type OptionName = keyof Config;

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Every option, in the order the docs and the example file list them. */
export const OPTIONS: { readonly [K in OptionName]: OptionSpec<Config[K]> } = {
  action_retry_limit: {
    type: 'int',
    default: 5,
    min: 0,
    help: 'Times to retry bringing a resource to a non-error state; 0 disables retries.',
    heat: { name: 'action_retry_limit', default: '5' },
  },
  client_retry_limit: {
    type: 'int',
    default: 2,
    min: 0,
    help: 'Times to retry when a client meets an expected intermittent error; 0 disables retries.',
    heat: { name: 'client_retry_limit', default: '2' },
  },
  max_resources_per_stack: {
    type: 'int',
    default: 1_000_000,
    min: -1,
    help: 'Most resources allowed in one top-level stack, nested stacks included; -1 means unlimited.',
    heat: {
      name: 'max_resources_per_stack',
      default: '1000',
      note: 'Hearth is built for million-resource stacks, so its default is 1000000.',
    },
  },
  max_nested_stack_depth: {
    type: 'int',
    default: 5,
    min: 0,
    help: 'Deepest chain of nested stacks (template resources and OS::Heat::Stack).',
    heat: { name: 'max_nested_stack_depth', default: '5' },
  },
  max_template_size: {
    type: 'int',
    default: 524_288,
    min: 1,
    unit: 'bytes',
    help: 'Largest template or environment document, in bytes.',
    heat: {
      name: 'max_template_size',
      default: '524288',
      note: 'Raise it (and max_json_body_size) for very large stacks: a million-resource template is about 100 MB.',
    },
  },
  max_json_body_size: {
    type: 'int',
    default: 1_048_576,
    min: 1,
    unit: 'bytes',
    help: 'Largest API request body, in bytes; should be larger than max_template_size.',
    heat: { name: 'max_json_body_size', default: '1048576' },
  },
  max_json_body_depth: {
    type: 'int',
    default: 128,
    min: 1,
    help: 'Deepest nesting of maps and lists in an API request body (the template, environment and parameters it carries included).',
    heat: null,
  },
  max_events_per_stack: {
    type: 'int',
    default: 1000,
    min: 0,
    help: 'Rough number of events kept per stack (older ones are purged); 0 means unlimited.',
    heat: { name: 'max_events_per_stack', default: '1000' },
  },
  event_purge_batch_size: {
    type: 'int',
    default: 200,
    min: 1,
    help: "How many events are removed whenever a stack's events are purged.",
    heat: { name: 'event_purge_batch_size', default: '200' },
  },
  stack_action_timeout: {
    type: 'int',
    default: 3600,
    min: 1,
    unit: 'seconds',
    help: 'Timeout of a stack action (create, update, delete, ...) when the request gives none, in seconds.',
    heat: { name: 'stack_action_timeout', default: '3600' },
  },
  convergence_engine: {
    type: 'bool',
    default: true,
    help: 'Create new stacks with the convergence engine; false creates them in legacy mode.',
    heat: {
      name: 'convergence_engine',
      default: 'true',
      note: 'Deprecated in Heat, together with its legacy engine.',
    },
  },
  observe_on_update: {
    type: 'bool',
    default: false,
    help: "On update, read resources' live properties and converge them to the updated template.",
    heat: { name: 'observe_on_update', default: 'false' },
  },
  convergence_migrate_on_update: {
    type: 'bool',
    default: false,
    help: 'Migrate a legacy stack to the convergence engine when it is next updated.',
    heat: {
      name: 'heat-manage migrate_convergence_1',
      note: 'A command, not an option: Heat migrates one stack at a time, by hand.',
    },
  },
  num_engine_workers: {
    type: 'int',
    default: () => Math.max(4, availableParallelism()),
    defaultText: 'the larger of 4 and the number of CPUs',
    min: 1,
    help: 'Number of engine workers to run.',
    heat: { name: 'num_engine_workers', default: 'the larger of 4 and the number of CPUs' },
  },
  periodic_interval: {
    type: 'int',
    default: 60,
    min: 1,
    unit: 'seconds',
    help: 'Seconds between runs of periodic tasks (e.g. the observer, purges).',
    heat: { name: 'periodic_interval', default: '60' },
  },
  engine_life_check_timeout: {
    type: 'int',
    default: 2,
    min: 1,
    unit: 'seconds',
    help: 'Seconds allowed for the liveness check of an engine that holds a stack lock.',
    heat: {
      name: 'engine_life_check_timeout',
      default: '2',
      note: 'Heat times out an RPC call; Hearth checks the engine heartbeat in the store.',
    },
  },
  enable_stack_adopt: {
    type: 'bool',
    default: false,
    help: 'Allow `stack adopt`: a stack made from an abandon document, its physical resources taken over as they are (each adopted id checked to be the adopting project’s own).',
    heat: {
      name: 'enable_stack_adopt',
      default: 'false',
    },
  },
  database: {
    type: 'string',
    default: '~/.hearth/hearth.db',
    help: 'Where the store lives: a SQLite file path (`~` is the home directory) or a database URL.',
    heat: {
      name: '[database] connection',
      note: 'Heat needs a MySQL or PostgreSQL URL; Hearth defaults to a SQLite file.',
    },
  },
  database_pool_size: {
    type: 'int',
    default: 10,
    min: 1,
    help: 'Connections each process keeps open to a PostgreSQL store; a SQLite store ignores it.',
    heat: {
      name: '[database] max_pool_size',
      default: '5',
      note: 'oslo.db also allows max_overflow connections beyond it; Hearth’s pool never exceeds its size.',
    },
  },
  log_level: {
    type: 'enum',
    choices: LOG_LEVELS,
    default: 'info',
    help: 'Least severe log messages written: trace, debug, info, warn or error.',
    heat: {
      name: 'debug',
      default: 'false',
      note: 'oslo.log has a boolean: `debug = true` is `log_level: debug`, `false` is `info`.',
    },
  },
  work_lease_ms: {
    type: 'int',
    default: 30_000,
    min: 1,
    unit: 'ms',
    help: 'How long a claimed unit of work stays an engine’s before another engine may take it over, in ms.',
    heat: null,
  },
  heartbeat_interval_ms: {
    type: 'int',
    default: 1000,
    min: 1,
    unit: 'ms',
    help: 'Interval between an engine’s heartbeats, which renew its leases, in ms; less than work_lease_ms.',
    heat: null,
  },
  engine_dead_after_ms: {
    type: 'int',
    default: 5000,
    min: 1,
    unit: 'ms',
    help: 'An engine whose last heartbeat is older than this is presumed dead and its work taken over, in ms; more than twice heartbeat_interval_ms.',
    heat: null,
  },
  shutdown_timeout_ms: {
    type: 'int',
    default: 20_000,
    min: 0,
    unit: 'ms',
    help: 'On SIGTERM an engine stops claiming work and has this long, in ms, to finish what it runs; the rest is handed back to other engines.',
    heat: {
      name: 'graceful_shutdown_timeout',
      default: '60',
      note: 'oslo.service’s, in seconds, after which a stopping service just exits; Hearth’s is in ms and hands unfinished work back at once.',
    },
  },
  background_engine: {
    type: 'bool',
    default: true,
    help: 'A command on a SQLite store that starts work without --wait (create, update, delete, signal...) starts a detached engine for that file, which exits once the queue is empty; its log is <file>.engine.log. A PostgreSQL store relies on hearth engine or hearth serve.',
    heat: null,
  },
  work_batch_size: {
    type: 'int',
    default: 256,
    min: 1,
    max: 10_000,
    help: 'Units of work an engine claims and runs at once; update nodes among them share their transactions.',
    heat: null,
  },
  drift_concurrency: {
    type: 'int',
    default: 16,
    min: 1,
    max: 1000,
    help: 'Resources whose live state drift detection reads from the cloud at once (the calls in flight).',
    heat: null,
  },
  observe_heal_limit: {
    type: 'int',
    default: 3,
    min: 1,
    max: 100,
    help: 'Heals of one resource by the observer, without a quiet window in between, before it stops and fails the stack.',
    heat: null,
  },
  observe_heal_window: {
    type: 'int',
    default: 3600,
    min: 1,
    help: 'Seconds a healed resource must stay in sync before its heals are forgotten (flapping detection).',
    heat: null,
  },
  max_document_depth: {
    type: 'int',
    default: 64,
    min: 1,
    help: 'Deepest nesting of maps and lists inside one template or environment document.',
    heat: null,
  },
  max_document_nodes: {
    type: 'int',
    default: 50_000_000,
    min: 1,
    help: 'Most YAML nodes (scalars, maps, lists) in one document, aliases expanded.',
    heat: null,
  },
  max_document_aliases: {
    type: 'int',
    default: 1000,
    min: 0,
    help: 'Most YAML alias expansions in one document (stops “billion laughs” documents).',
    heat: null,
  },
  bind_host: {
    type: 'string',
    default: '127.0.0.1',
    help: 'Address the API server listens on.',
    heat: {
      name: '[heat_api] bind_host',
      default: '0.0.0.0',
      note: 'Gone from current Heat, whose API runs under a WSGI server; Hearth listens on localhost only by default.',
    },
  },
  bind_port: {
    type: 'int',
    default: 8004,
    min: 0,
    max: 65535,
    help: 'Port the API server listens on (8004 is Heat’s orchestration API port); 0 picks a free port.',
    heat: { name: '[heat_api] bind_port', default: '8004', note: 'Gone from current Heat, as bind_host.' },
  },
  auth_mode: {
    type: 'enum',
    choices: AUTH_MODES,
    default: 'standalone',
    help: 'How the API authenticates requests: standalone (tokens kept in the store), keystone or noauth.',
    heat: {
      name: '[paste_deploy] flavor',
      note: 'Heat picks keystone or noauth by paste flavor; standalone tokens are Hearth’s own. noauth serves loopback addresses only.',
    },
  },
  token_expiration: {
    type: 'int',
    default: 3600,
    min: 1,
    unit: 'seconds',
    help: 'Seconds a standalone API token lives when `hearth manage token create` is given no --ttl (--no-expiry makes one that lives until revoked).',
    heat: {
      name: 'keystone.conf [token] expiration',
      default: '3600',
      note: 'Keystone’s option: standalone tokens stand in for Keystone’s; Heat has none.',
    },
  },
  keystone_url: {
    type: 'string',
    default: 'http://127.0.0.1:5000/v3',
    help: 'Keystone v3 endpoint that validates tokens when auth_mode is keystone.',
    heat: { name: '[keystone_authtoken] www_authenticate_uri' },
  },
  keystone_service_user: {
    type: 'string',
    default: 'heat',
    help: 'Hearth’s own Keystone user: its token (the service token) is what lets Hearth validate tokens.',
    heat: { name: '[keystone_authtoken] username' },
  },
  keystone_service_password: {
    type: 'string',
    default: '',
    secret: true,
    help: 'Password of keystone_service_user; auth_mode keystone needs it. Never logged or shown.',
    heat: { name: '[keystone_authtoken] password' },
  },
  keystone_service_project: {
    type: 'string',
    default: 'service',
    help: 'The project the service token is scoped to.',
    heat: { name: '[keystone_authtoken] project_name' },
  },
  keystone_service_user_domain: {
    type: 'string',
    default: 'Default',
    help: 'The domain (name) of keystone_service_user.',
    heat: { name: '[keystone_authtoken] user_domain_name' },
  },
  keystone_service_project_domain: {
    type: 'string',
    default: 'Default',
    help: 'The domain (name) of keystone_service_project.',
    heat: { name: '[keystone_authtoken] project_domain_name' },
  },
  keystone_token_cache_time: {
    type: 'int',
    default: 30,
    min: 0,
    unit: 'seconds',
    help: 'Seconds a token Keystone validated is trusted without asking again (never past its expiry); 0 asks every time.',
    heat: {
      name: '[keystone_authtoken] token_cache_time',
      default: '300',
      note: 'Hearth caches for less, so that a revoked token stops working sooner.',
    },
  },
  keystone_timeout: {
    type: 'int',
    default: 10,
    min: 1,
    unit: 'seconds',
    help: 'Seconds Hearth waits for an answer from Keystone before the request fails with 503.',
    heat: {
      name: '[keystone_authtoken] http_connect_timeout',
      note: 'keystonemiddleware waits without limit when it is unset.',
    },
  },
  trusts_delegated_roles: {
    type: 'string',
    default: '',
    help: 'With keystone auth, the roles (comma-separated names) the Keystone trust made at each stack create delegates to Hearth’s service user; empty: every role of the creating user’s token on its project.',
    heat: {
      name: 'trusts_delegated_roles',
      default: '[]',
      note: 'A list option in Heat; a comma-separated string here.',
    },
  },
  openstack_cloud: {
    type: 'string',
    default: '',
    help: 'The cloud (by its name in clouds.yaml) the OpenStack resource types create their resources in; empty: OS_CLOUD, or the OS_* variables.',
    heat: null,
  },
  openstack_cloud_shared: {
    type: 'bool',
    default: false,
    help: 'In standalone auth, a project without a cloud of its own (hearth manage project set-cloud) uses openstack_cloud: one login shared by every project, so the cloud cannot keep projects apart.',
    heat: null,
  },
  cloud_rate_limit: {
    type: 'int',
    default: 0,
    min: 0,
    help: 'Requests per second Hearth sends to each endpoint of the cloud (a service in a region), for the whole deployment: each live engine takes an equal share; 0 means unlimited.',
    heat: null,
  },
  cloud_rate_burst: {
    type: 'int',
    default: 0,
    min: 0,
    help: 'Most requests sent at once to one endpoint after a quiet spell, for the whole deployment (shared as cloud_rate_limit is); 0 means cloud_rate_limit (one second’s worth).',
    heat: null,
  },
  max_stacks_per_tenant: {
    type: 'int',
    default: 512,
    min: -1,
    help: 'Most stacks one project may have, nested stacks included; -1 means unlimited.',
    heat: { name: 'max_stacks_per_tenant', default: '512' },
  },
  api_write_rate_limit: {
    type: 'int',
    default: 50,
    min: 0,
    help: 'Write requests (POST, PUT, PATCH, DELETE under /v1/{project_id}) per second each project may send the API, averaged by a token bucket per project; beyond it the API answers 429. 0 means unlimited.',
    heat: null,
  },
  api_write_rate_burst: {
    type: 'int',
    default: 500,
    min: 0,
    help: 'Most write requests one project may send at once after a quiet spell (the size of its bucket); 0 means api_write_rate_limit (one second’s worth).',
    heat: null,
  },
  public_api_url: {
    type: 'string',
    default: '',
    help: 'The URL clients reach the API at (signal URLs in attributes point there); empty: http://<bind_host>:<bind_port>.',
    heat: {
      name: '[clients_heat] url',
      note: 'Heat takes the orchestration endpoint from the Keystone catalog when unset.',
    },
  },
  auth_encryption_key: {
    type: 'string',
    default: '',
    help: 'Key signing signal tokens and sealing stored credentials; empty: a key generated for the store on first use, shared by every process using it.',
    secret: true,
    heat: {
      name: 'auth_encryption_key',
      note: 'Heat encrypts stored credentials (trust ids) with it; Hearth signs signal tokens with it and seals trust ids with a key derived from it.',
    },
  },
};

export const OPTION_NAMES: readonly OptionName[] = Object.keys(OPTIONS) as OptionName[];

export function isOptionName(name: string): name is OptionName {
  return Object.prototype.hasOwnProperty.call(OPTIONS, name);
}

export function optionSpec(name: OptionName): AnyOptionSpec {
  return OPTIONS[name] as AnyOptionSpec;
}

/** The prefix of every environment variable that sets an option. */
export const ENV_PREFIX = 'HEARTH_';

/** `action_retry_limit` → `HEARTH_ACTION_RETRY_LIMIT`. */
export function envVarName(name: OptionName): string {
  return ENV_PREFIX + name.toUpperCase();
}

/**
 * `HEARTH_*` variables that are not options, so the loader neither reads nor rejects them. The CLI
 * reads the first four itself. Add a name here before giving a new variable that prefix.
 */
export const NON_OPTION_ENV_VARIABLES: ReadonlySet<string> = new Set([
  'HEARTH_CONFIG', // the configuration file (as --config)
  'HEARTH_DB', // the store, overriding `database` (as --db)
  'HEARTH_URL', // the API server a client command talks to
  'HEARTH_PROJECT', // the project of stacks managed without a server (embedded mode)
  'HEARTH_PROPERTY_SCALE', // test suite: how many times more the property tests run
  'HEARTH_TEST_BACKEND', // test suite: the store the engine tests run on (sqlite or postgres)
  'HEARTH_TEST_POSTGRES', // test suite: the PostgreSQL server the tests use
  'HEARTH_TEST_DATABASE', // test suite: the database on it the tests make their schemas in
  'HEARTH_TEST_CLI', // test suite: the bundled CLI the tests' children run
  'HEARTH_TEST_BUILD', // test suite: where the bundled test files are (their reporter names sources)
  'HEARTH_TEST_CONCURRENCY', // test suite: test files run at once in each pass
]);

/**
 * Settings of Heat (and oslo) that Hearth has under another name, so that a copied heat.conf line
 * gets a pointer rather than a bare "unknown option".
 */
export const HEAT_RENAMED: Readonly<Record<string, string>> = {
  debug: 'Hearth sets verbosity with log_level (debug = true is log_level = debug)',
  verbose: 'Hearth sets verbosity with log_level',
  connection: 'Heat’s [database] connection is Hearth’s database option',
};

/** The defaults, with computed ones (num_engine_workers) worked out for this host. */
export function defaultConfig(): Config {
  const out: Record<string, unknown> = {};
  for (const name of OPTION_NAMES) {
    const spec = optionSpec(name);
    out[name] = typeof spec.default === 'function' ? spec.default() : spec.default;
  }
  return out as unknown as Config;
}
