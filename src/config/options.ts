import type { Config, OptionName } from './config.js';
import type { AnyOptionSpec, OptionSpec } from './option-spec.js';
import { ENGINE_OPTIONS } from './options-engine.js';
import { RUNTIME_OPTIONS } from './options-runtime.js';
import { SERVER_OPTIONS } from './options-server.js';
export * from './config.js';
export * from './option-spec.js';

/** Every option, in the order the docs and the example file list them. */
export const OPTIONS: { readonly [K in OptionName]: OptionSpec<Config[K]> } = {
  ...ENGINE_OPTIONS,
  ...RUNTIME_OPTIONS,
  ...SERVER_OPTIONS,
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
  'HEARTH_TEST_CONCURRENCY', // test suite: test files run at once in each pass
  'HEARTH_TEST_NEWCOMER', // test suite: 1 runs the newcomer test (a clone and its npm ci) outside CI
  'HEARTH_TEST_SCREENSHOTS', // test suite: 1 makes the console's browser test write docs/console/*.png
  'HEARTH_TEST_REAL_OPENSTACK', // test suite: 1 starts the installed openstack client for every command (no fork server)
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
