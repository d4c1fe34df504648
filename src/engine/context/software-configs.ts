import type { SoftwareConfig } from '../../resources/contract.js';
import type { ResourceRecord, SyncPointRecord } from '../../store/contract.js';
import type { EngineDeps } from '../core/deps.js';
import { dependencyByRef } from './peers.js';

const UNGROUPED = 'Heat::Ungrouped';

/**
 * Finds the software config `id` for a plugin (PluginContext.softwareConfig): the stored config
 * of the project (software_configs), else (a config made before configs were stored) the row of a config
 * type whose physical id it is, in a stack of `projectId` (configs are per project, as in Heat).
 * A config of the same stack that the resource depends on (the common case: get_resource) is one
 * indexed read by name; any other is looked for by physical id, which no index serves (an index on
 * every row's physical id would slow every create for this rare lookup). The config is what the
 * row cached once created.
 */
export async function findSoftwareConfig(
  deps: Pick<EngineDeps, 'store' | 'plugins'>,
  where: { projectId: string; stackId: string; point?: SyncPointRecord | undefined },
  id: string,
): Promise<SoftwareConfig | undefined> {
  return deps.store.tx(async (tx) => {
    const stored = await tx.software.getConfig(id);
    if (stored && stored.projectId === where.projectId)
      return { id, group: stored.group, config: stored.config };
    const dependency = dependencyByRef(where.point, id);
    const near = dependency ? await tx.resources.findByName(where.stackId, dependency.name) : [];
    const rows = near.some((r) => r.physicalId === id) ? near : await tx.resources.findByPhysicalId(id);
    for (const row of rows) {
      if (row.physicalId !== id || !configOf(deps, row)) continue;
      if ((await tx.stacks.get(row.stackId))?.projectId !== where.projectId) continue;
      const group = row.properties?.group;
      return { id, group: typeof group === 'string' ? group : UNGROUPED, config: row.attributes.config! };
    }
    return undefined;
  });
}

function configOf(deps: Pick<EngineDeps, 'plugins'>, row: ResourceRecord): boolean {
  return deps.plugins.plugin(row.type)?.isSoftwareConfig === true && Object.hasOwn(row.attributes, 'config');
}
