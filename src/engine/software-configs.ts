import type { SoftwareConfig } from '../resources/contract.js';
import type { EngineDeps } from './deps.js';

const UNGROUPED = 'Heat::Ungrouped';

/**
 * Finds the software config `id` for a plugin (PluginContext.softwareConfig): the row of a config
 * type whose physical id it is, in a stack of `projectId` (configs are per project, as in Heat).
 * One index lookup; the config is what the row cached once created.
 */
export async function findSoftwareConfig(
  deps: Pick<EngineDeps, 'store' | 'plugins'>,
  projectId: string,
  id: string,
): Promise<SoftwareConfig | undefined> {
  return deps.store.tx(async (tx) => {
    for (const row of await tx.resources.findByPhysicalId(id)) {
      if (!deps.plugins.plugin(row.type)?.isSoftwareConfig) continue;
      if (!Object.hasOwn(row.attributes, 'config')) continue;
      if ((await tx.stacks.get(row.stackId))?.projectId !== projectId) continue;
      const group = row.properties?.group;
      return { id, group: typeof group === 'string' ? group : UNGROUPED, config: row.attributes.config! };
    }
    return undefined;
  });
}
