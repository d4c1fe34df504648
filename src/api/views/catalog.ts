import type { CatalogPlugin } from '../../resources/plugin-extras.js';
import type { ResourcePlugin } from '../../resources/contract.js';
import { schemaToHeatJSON } from '../../template/properties/index.js';
import { versionName } from '../../template/formats.js';
import type { TemplateVersion } from '../../template/versions.js';
import type { JsonObject } from '../../util/json.js';

/** One entry of `GET /template_versions`. */
export function templateVersionJSON(version: TemplateVersion): JsonObject {
  return {
    version: versionName(version),
    type: version.format,
    aliases: version.alias ? [versionName(version, version.alias)] : [],
  };
}

/**
 * `GET /template_versions/{version}/functions`: the value functions, then (with conditions) the
 * condition functions not already listed, as Heat merges the two tables.
 */
export function templateFunctionsJSON(version: TemplateVersion, withConditions: boolean): JsonObject[] {
  const rows = version.functions
    .names()
    .map((name) => ({ functions: name, description: version.functions.get(name)!.description }));
  if (withConditions) {
    for (const name of version.conditionFunctions.names()) {
      if (version.functions.get(name)) continue;
      rows.push({ functions: name, description: version.conditionFunctions.lookup(name)!.description });
    }
  }
  return rows;
}

/** The type's support status (SUPPORTED when the plugin declares none). */
export function supportStatusOf(plugin: ResourcePlugin): { status: string; version: string | undefined } {
  const declared = (plugin as CatalogPlugin).supportStatus;
  return { status: declared?.status ?? 'SUPPORTED', version: declared?.version };
}

/** `GET /resource_types/{type}`: properties, attributes and support status (and description when asked). */
export function resourceTypeJSON(plugin: ResourcePlugin, withDescription: boolean): JsonObject {
  const status = (plugin as CatalogPlugin).supportStatus;
  return schemaToHeatJSON(plugin.type, plugin.properties, plugin.attributes, {
    ...(status ? { supportStatus: status } : {}),
    ...(withDescription ? { description: plugin.description } : {}),
  });
}
