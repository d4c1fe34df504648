import type { Environment, ResourceEntry } from './types.js';
import { isTemplateType, resolveTemplateUrl } from './urls.js';

/**
 * Every template the environment's resource_registry names (globally and per resource, at any
 * nesting), as absolute URLs where the environment knows its file: what a loader must put in the
 * files map. `base_url`s are not templates and are not listed.
 */
export function registryTemplateUrls(env: Environment): string[] {
  const found = new Set<string>();
  const add = (target: string | null) => {
    if (target === null || !isTemplateType(target)) return;
    found.add(env.file === undefined ? target : resolveTemplateUrl(env.file, target));
  };
  const visit = (entry: ResourceEntry | null) => {
    if (entry === null) return;
    entry.types.forEach(add);
    entry.nested.forEach(visit);
  };
  env.resourceRegistry.mappings.forEach(add);
  env.resourceRegistry.resources.forEach(visit);
  return [...found];
}
