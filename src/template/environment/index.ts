export { childEnvironment } from './child.js';
export { fnmatch } from './fnmatch.js';
export { mergeEnvironments, mergeRegistryInto } from './merge.js';
export type { MergeOptions, ParameterKind } from './merge-parameters.js';
export { type DocumentLimits, type ParseEnvironmentOptions, parseEnvironment } from './parse.js';
export { type RegistryResolution, ResourceRegistry } from './registry.js';
export { type EnvironmentJsonOptions, environmentToJSON, registryToJSON } from './serialize.js';
export { registryTemplateUrls } from './templates.js';
export {
  ENVIRONMENT_SECTIONS,
  type Environment,
  emptyEnvironment,
  HOOK_TYPES,
  type Hook,
  type MappingTarget,
  MERGE_STRATEGIES,
  type MergeStrategy,
  RESTRICTED_ACTIONS,
  type RegistryData,
  type ResourceEntry,
  type RestrictedAction,
} from './types.js';
export { hasUrlScheme, isTemplateType, resolveTemplateUrl } from './urls.js';
