import { randomUUID } from 'node:crypto';
import type { Store } from '../../store/contract.js';
import { formatConfig, formatDeployment } from '../../software/format.js';
import { configFromBody } from '../../software/io.js';
import { softwareService } from '../../software/service.js';
import type { SoftwareActions } from '../backend.js';

/** `hearth software ...` on the embedded store: the service the API uses, for the local project. */
export function embeddedSoftware(store: Store, projectId: string, now: () => number): SoftwareActions {
  const software = softwareService(store, { projectId, now });
  const config = async (id: string) => {
    const found = await software.getConfig(id);
    if (!found) throw new Error(`Software config with id ${id} not found`);
    return found;
  };
  const deployment = async (id: string) => {
    const found = await software.getDeployment(id);
    if (!found) throw new Error(`Deployment with id ${id} not found`);
    return found;
  };
  return {
    listSoftwareConfigs: async () =>
      (await software.listConfigs({})).map((c) => formatConfig(c, { detail: false })),
    showSoftwareConfig: async (id) => formatConfig(await config(id)),
    createSoftwareConfig: async (body) =>
      formatConfig(await software.createConfig(configFromBody(randomUUID(), body))),
    async deleteSoftwareConfig(id) {
      if (!(await software.deleteConfig(id))) throw new Error(`Software config with id ${id} not found`);
    },
    listSoftwareDeployments: async (serverId) =>
      (await software.listDeployments(serverId)).map(formatDeployment),
    showSoftwareDeployment: async (id) => formatDeployment(await deployment(id)),
    async deleteSoftwareDeployment(id) {
      if (!(await software.deleteDeployment(id))) throw new Error(`Deployment with id ${id} not found`);
    },
    softwareMetadata: (serverId) => software.serverDeployments(serverId),
  };
}
