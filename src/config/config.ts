import type { OptionSpec } from './option-spec.js';

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
  /** software_config_transport of a server whose template gives none. */
  readonly default_software_config_transport: SoftwareConfigTransport;
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

/** Heat's software_config_transport values (ZAQAR_MESSAGE: Hearth serves the queue itself, api/routes/agent-messaging.ts). */
export const SOFTWARE_CONFIG_TRANSPORTS = [
  'POLL_SERVER_CFN',
  'POLL_SERVER_HEAT',
  'POLL_TEMP_URL',
  'ZAQAR_MESSAGE',
] as const;
export type SoftwareConfigTransport = (typeof SOFTWARE_CONFIG_TRANSPORTS)[number];

export const AUTH_MODES = ['standalone', 'keystone', 'noauth'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export type OptionName = keyof Config;

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Specs of some options, each checked against its value type in `Config`. */
export type OptionTable = { readonly [K in OptionName]?: OptionSpec<Config[K]> };
