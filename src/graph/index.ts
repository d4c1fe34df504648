export { CycleError, UnknownNodeError } from './errors.js';
export { DependencyGraph } from './graph.js';
export { type DotOptions, type GraphJson, toDot, toJSON } from './render.js';
