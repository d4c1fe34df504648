import type { Json } from '../../util/json.js';
import { fnmatch, isWildcardPattern } from './fnmatch.js';
import type { Environment, ResourceEntry } from './types.js';

/**
 * The environment of the nested stack that implements resource `resourceName` (Heat:
 * get_child_environment): `parameters` are the values the parent gives it (the resource's
 * properties); parameter_defaults and the global registry carry over; the per-resource
 * `resources:` entries become those nested under every entry matching the resource's name
 * (patterns in document order, then the exact name, later ones winning), exactly the entries
 * `ResourceRegistry.resolveType(…, [resourceName])` applies inside it.
 */
export function childEnvironment(
  env: Environment,
  resourceName: string,
  parameters: Record<string, Json>,
): Environment {
  const { file: _file, source: _source, ...rest } = env;
  return {
    ...rest,
    parameters: { ...parameters },
    resourceRegistry: {
      ...env.resourceRegistry,
      resources: childEntries(env.resourceRegistry.resources, resourceName),
    },
  };
}

function childEntries(
  entries: ReadonlyMap<string, ResourceEntry | null>,
  resourceName: string,
): Map<string, ResourceEntry | null> {
  const out = new Map<string, ResourceEntry | null>();
  const take = (entry: ResourceEntry | null | undefined) => {
    if (entry) for (const [child, sub] of entry.nested) out.set(child, sub);
  };
  for (const [pattern, entry] of entries) {
    if (isWildcardPattern(pattern) && fnmatch(resourceName, pattern)) take(entry);
  }
  if (!isWildcardPattern(resourceName)) take(entries.get(resourceName));
  return out;
}
