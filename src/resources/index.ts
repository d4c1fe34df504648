export {
  builtinPlugins,
  pluginCatalog,
  type SchemaPluginCatalog,
  type SchemaTypeCatalog,
} from './catalog.js';
export type { CatalogPlugin, PluginExtras } from './plugin-extras.js';
export {
  type ActionResult,
  NoActionRequired,
  type PhysicalObject,
  type PluginCatalog,
  type PluginContext,
  type PollResult,
  type Reality,
  type RealityState,
  ResourceFailure,
  type ResourcePlugin,
  type SignalContext,
  UpdateReplace,
} from './contract.js';
export { nonePlugin } from './heat/none.js';
export { physicalResourceName, shortId, uuidFrom } from './heat/physical-name.js';
export { charClasses, generateString, randomStringPlugin } from './heat/random-string.js';
export { testResourcePlugin } from './heat/test-resource.js';
export { typedValue, valuePlugin } from './heat/value.js';
export {
  type CountingHooks,
  CountingReality,
  type Duplicate,
  type LiveObject,
  type RealityOperation,
  type TypeCounts,
} from './reality/counting.js';
export { MemoryReality } from './reality/memory.js';
