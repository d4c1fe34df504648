import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type ConfigIssue, describeSource, issue, type ValueSource } from './errors.js';
import { type ConfigFormat, parseConfigFile, type RawValue } from './file.js';
import { closest } from '../util/suggest.js';
import {
  type AnyOptionSpec,
  type Config,
  defaultConfig,
  ENV_PREFIX,
  envVarName,
  expectedText,
  HEAT_RENAMED,
  isOptionName,
  NON_OPTION_ENV_VARIABLES,
  OPTION_NAMES,
  type OptionName,
  optionSpec,
} from './options.js';

/** The variable naming the config file when no file is passed (the CLI's --config). */
export const CONFIG_ENV_VARIABLE = 'HEARTH_CONFIG';

export interface LoadConfigOptions {
  /** The config file (--config). Without it, HEARTH_CONFIG in `env` names it; without both, none is read. */
  file?: string;
  /** Environment variables; `process.env` when omitted. Empty values count as unset. */
  env?: Record<string, string | undefined>;
  /** Values from command-line flags, e.g. `{ database: flags.db }`; undefined values are ignored. */
  overrides?: Partial<Config>;
}

export interface LoadedConfig {
  readonly config: Config;
  /** Where each option's value came from (the last source to set it). */
  readonly sources: { readonly [K in OptionName]: ValueSource };
  /** The config file read, if any. */
  readonly file: string | undefined;
  readonly format: ConfigFormat | undefined;
}

/**
 * Builds the configuration from, in increasing precedence: defaults, the config file, `HEARTH_*`
 * environment variables, and overrides (command-line flags). Throws a ConfigError listing every
 * problem: an unreadable or missing file, unknown options, ill-typed or out-of-range values.
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  return loadConfigDetailed(options).config;
}

/** As loadConfig, also telling where each value came from (for `config show`-style output). */
export function loadConfigDetailed(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const values: Record<string, unknown> = { ...defaultConfig() };
  const sources: Record<string, ValueSource> = {};
  for (const name of OPTION_NAMES) sources[name] = { kind: 'default' };
  const issues: ConfigIssue[] = [];
  const set = (name: OptionName, value: unknown, source: ValueSource): void => {
    values[name] = value;
    sources[name] = source;
  };

  // 1. The file.
  const fromEnv = options.file === undefined;
  const file = options.file ?? nonEmpty(env[CONFIG_ENV_VARIABLE]);
  let format: ConfigFormat | undefined;
  if (file !== undefined) {
    const text = readConfigFile(file, fromEnv, issues);
    if (text !== undefined) {
      const parsed = parseConfigFile(file, text);
      format = parsed.format;
      const fileIssues = [...parsed.issues];
      const seen = new Map<string, ValueSource>();
      for (const entry of parsed.entries) {
        if (!isOptionName(entry.name)) {
          fileIssues.push(issue(entry.nameSource, unknownOption(entry.name, format), entry.name));
          continue;
        }
        const first = seen.get(entry.name);
        if (first) {
          fileIssues.push(
            issue(
              entry.nameSource,
              `option ${entry.name} is set twice (first at ${describeSource(first)})`,
              entry.name,
            ),
          );
          continue;
        }
        seen.set(entry.name, entry.nameSource);
        const checked = checkRaw(entry.name, entry.value, entry.valueSource, format);
        if ('issue' in checked) fileIssues.push(checked.issue);
        else set(entry.name, checked.value, entry.valueSource);
      }
      issues.push(...fileIssues.sort((a, b) => lineOf(a.source) - lineOf(b.source)));
    }
  }

  // 2. The environment, in a stable order so that messages are too.
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith(ENV_PREFIX) || NON_OPTION_ENV_VARIABLES.has(variable)) continue;
    const text = nonEmpty(env[variable]);
    if (text === undefined) continue;
    const source: ValueSource = { kind: 'env', variable };
    const name = variable.slice(ENV_PREFIX.length).toLowerCase();
    if (!isOptionName(name) || envVarName(name) !== variable) {
      issues.push(issue(source, unknownEnvVariable(variable), name));
      continue;
    }
    const checked = checkRaw(name, { kind: 'text', text }, source);
    if ('issue' in checked) issues.push(checked.issue);
    else set(name, checked.value, source);
  }

  // 3. Command-line overrides: typed already, but checked all the same.
  for (const [name, value] of Object.entries(options.overrides ?? {})) {
    if (value === undefined) continue;
    const source: ValueSource = { kind: 'override' };
    if (!isOptionName(name)) {
      issues.push(issue(source, unknownOption(name, 'override'), name));
      continue;
    }
    const checked = checkTyped(name, value, source);
    if ('issue' in checked) issues.push(checked.issue);
    else set(name, checked.value, source);
  }

  // 4. Options that constrain each other.
  if (issues.length === 0) issues.push(...crossChecks(values, sources));

  if (issues.length > 0) throw new ConfigError(issues);
  values.database = expandHome(values.database as string);
  return Object.freeze({
    config: Object.freeze(values) as unknown as Config,
    sources: Object.freeze(sources) as LoadedConfig['sources'],
    file,
    format,
  });
}

/**
 * Checks between options, once every source is merged. A broken pair is blamed on the option that
 * was set (the other kept its default), or, when both were, on `blameFirst`.
 */
function crossChecks(values: Record<string, unknown>, sources: Record<string, ValueSource>): ConfigIssue[] {
  const found: ConfigIssue[] = [];
  const show = (n: OptionName): string => `${n} (${String(values[n])}, ${describeSource(sources[n]!)})`;
  const check = (
    ok: boolean,
    blameFirst: OptionName,
    other: OptionName,
    why: string,
    shown: string,
  ): void => {
    if (ok) return;
    const blame = sources[blameFirst]?.kind === 'default' ? other : blameFirst;
    found.push(issue(sources[blame]!, `${why}: ${shown}`, blame));
  };
  const heartbeat = values.heartbeat_interval_ms as number;
  const lease = values.work_lease_ms as number;
  const deadAfter = values.engine_dead_after_ms as number;
  check(
    heartbeat < lease,
    'heartbeat_interval_ms',
    'work_lease_ms',
    'heartbeat_interval_ms must be less than work_lease_ms, or leases expire between heartbeats',
    `${show('heartbeat_interval_ms')} >= ${show('work_lease_ms')}`,
  );
  check(
    deadAfter > 2 * heartbeat,
    'engine_dead_after_ms',
    'heartbeat_interval_ms',
    'engine_dead_after_ms must be more than twice heartbeat_interval_ms, or one late heartbeat makes a live engine look dead',
    `${show('engine_dead_after_ms')} <= 2 * ${show('heartbeat_interval_ms')}`,
  );
  return found;
}

function lineOf(source: ValueSource): number {
  return source.kind === 'file' ? (source.line ?? 0) : 0;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function readConfigFile(file: string, fromEnv: boolean, issues: ConfigIssue[]): string | undefined {
  const source: ValueSource = { kind: 'file', file };
  const named = fromEnv ? ` (named by ${CONFIG_ENV_VARIABLE})` : '';
  if (file === '') {
    issues.push(issue(source, 'the config file path is empty'));
    return undefined;
  }
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const detail =
      code === 'ENOENT'
        ? `config file does not exist${named}`
        : code === 'EISDIR'
          ? `config file is a directory${named}`
          : `cannot read config file${named}: ${(err as Error).message}`;
    issues.push(issue(source, detail));
    return undefined;
  }
}

/** `~` and `~/...` in a SQLite path are the home directory; URLs and `:memory:` are left alone. */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

type Checked = { value: unknown } | { issue: ConfigIssue };

const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['t', true],
  ['yes', true],
  ['y', true],
  ['on', true],
  ['1', true],
  ['false', false],
  ['f', false],
  ['no', false],
  ['n', false],
  ['off', false],
  ['0', false],
]);

/** Checks a value written as text (file or environment), the way oslo.config reads heat.conf. */
function checkRaw(name: OptionName, raw: RawValue, source: ValueSource, format?: ConfigFormat): Checked {
  const spec = optionSpec(name);
  const bad = (got: string): Checked => {
    const found = typeIssue(name, spec, got, source);
    if (format !== 'ini' || raw.kind !== 'text' || !/\s[#;]/.test(raw.text)) return { issue: found };
    const hint =
      ' (in an INI file a comment after a value is part of the value: put it on a line of its own)';
    return { issue: issue(source, found.detail + hint, name, found.expected) };
  };
  if (raw.kind === 'invalid') return bad(raw.what);
  const text = raw.text.trim();
  if (text === '') return bad('an empty value');
  const got = raw.shown ?? quote(raw.text);
  switch (spec.type) {
    case 'int': {
      if (!/^[+-]?\d+$/.test(text)) return bad(got);
      return checkInt(name, spec, Number(text), got, source);
    }
    case 'bool': {
      const value = BOOL_WORDS.get(text.toLowerCase());
      return value === undefined ? bad(got) : { value };
    }
    case 'string':
      return { value: text };
    case 'enum': {
      const value = spec.choices.find((c) => c.toLowerCase() === text.toLowerCase());
      return value === undefined ? bad(got) : { value };
    }
  }
}

/** Checks an override, which should already have its option's type. */
function checkTyped(name: OptionName, value: unknown, source: ValueSource): Checked {
  const spec = optionSpec(name);
  const bad = (): Checked => ({ issue: typeIssue(name, spec, describeValue(value), source) });
  switch (spec.type) {
    case 'int':
      return typeof value === 'number' ? checkInt(name, spec, value, String(value), source) : bad();
    case 'bool':
      return typeof value === 'boolean' ? { value } : bad();
    case 'string':
      return typeof value === 'string' && value.trim() !== '' ? { value } : bad();
    case 'enum':
      return typeof value === 'string' && spec.choices.includes(value) ? { value } : bad();
  }
}

function checkInt(
  name: OptionName,
  spec: AnyOptionSpec & { type: 'int' },
  value: number,
  got: string,
  source: ValueSource,
): Checked {
  const inRange =
    Number.isSafeInteger(value) &&
    (spec.min === undefined || value >= spec.min) &&
    (spec.max === undefined || value <= spec.max);
  return inRange ? { value } : { issue: typeIssue(name, spec, got, source) };
}

/** Descriptions of rejected values that carry none of the value. */
const VALUELESS: ReadonlySet<string> = new Set([
  'an empty value',
  'no value',
  'a map',
  'a list',
  'an alias',
  'null',
  'an object',
]);

function typeIssue(name: OptionName, spec: AnyOptionSpec, got: string, source: ValueSource): ConfigIssue {
  const expected = expectedText(spec);
  // A rejected credential may still be the real one: say what kind of value it was, never the value.
  const secret = spec.type === 'string' && spec.secret === true;
  const shown = secret && !VALUELESS.has(got) ? 'a value not shown (a secret)' : got;
  return issue(source, `option ${name} expects ${expected}, got ${shown}`, name, expected);
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function unknownOption(name: string, where: ConfigFormat | 'override'): string {
  let detail = `unknown option ${JSON.stringify(name)}`;
  const renamed = HEAT_RENAMED[name];
  const near = closest(name, OPTION_NAMES);
  if (renamed !== undefined) detail += `: ${renamed}`;
  else if (where === 'yaml' && name === 'DEFAULT') {
    detail += ': a YAML config file is a flat map, so write the options at the top level';
  } else if (near !== undefined) detail += ` (did you mean ${near}?)`;
  return detail;
}

function unknownEnvVariable(variable: string): string {
  const name = variable.slice(ENV_PREFIX.length).toLowerCase();
  const near = closest(variable, OPTION_NAMES.map(envVarName));
  const others = [...NON_OPTION_ENV_VARIABLES].join(', ');
  return (
    `unknown option ${JSON.stringify(name)}` +
    (near === undefined
      ? ` (${ENV_PREFIX}<OPTION> variables set options; the others with that prefix are ${others})`
      : ` (did you mean ${near}?)`)
  );
}
