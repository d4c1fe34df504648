// Hearth's configuration: one file (--config / HEARTH_CONFIG), HEARTH_* environment variables and
// command-line overrides, with Heat's option names. docs/configuration.md lists every option.
export { ConfigError, type ConfigIssue, describeSource, isConfigError, type ValueSource } from './errors.js';
export { type ConfigFormat, detectFormat } from './file.js';
export { templateLimitsFrom } from './limits.js';
export {
  CONFIG_ENV_VARIABLE,
  expandHome,
  loadConfig,
  loadConfigDetailed,
  type LoadConfigOptions,
  type LoadedConfig,
} from './load.js';
export {
  type AnyOptionSpec,
  type Config,
  defaultConfig,
  defaultText,
  ENV_PREFIX,
  envVarName,
  expectedText,
  type HeatEquivalent,
  isOptionName,
  LOG_LEVELS,
  type LogLevel,
  NON_OPTION_ENV_VARIABLES,
  OPTION_NAMES,
  type OptionName,
  OPTIONS,
  optionSpec,
} from './options.js';
