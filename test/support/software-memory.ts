import type { SoftwareRepository } from '../../src/store/contract.js';
import type { SoftwareConfigRecord, SoftwareDeploymentRecord } from '../../src/software/contract.js';
import { type ProjectSoftware, softwareService, type SoftwareStore } from '../../src/software/service.js';

/**
 * The software tables in memory, for plugin tests that run without a store (FakeResource): the
 * same service (src/software/service.ts) over a Map-backed repository. One `tx` at a time is all
 * a plugin test does, so there is nothing to roll back.
 */
export class MemorySoftwareStore implements SoftwareStore {
  readonly configs = new Map<string, SoftwareConfigRecord>();
  readonly deployments = new Map<string, SoftwareDeploymentRecord>();

  tx<T>(fn: (tx: { software: SoftwareRepository }) => Promise<T>): Promise<T> {
    return fn({ software: this.repository() });
  }

  /** The service a project sees over these tables. */
  service(projectId = 'project', now?: () => number): ProjectSoftware {
    return softwareService(this, { projectId, ...(now ? { now } : {}) });
  }

  private repository(): SoftwareRepository {
    const { configs, deployments } = this;
    const byTime = <R extends { createdAt: string; id: string }>(a: R, b: R) =>
      a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;
    const copy = <R>(r: R | undefined): R | undefined => (r ? structuredClone(r) : undefined);
    return {
      insertConfig: async (c) => !configs.has(c.id) && (configs.set(c.id, structuredClone(c)), true),
      getConfig: async (id) => copy(configs.get(id)),
      async listConfigs({ projectId, limit, marker }) {
        let rows = [...configs.values()].filter((c) => projectId === undefined || c.projectId === projectId);
        rows.sort(byTime);
        const after = marker === undefined ? undefined : configs.get(marker);
        if (after) rows = rows.filter((c) => byTime(after, c) < 0);
        return structuredClone(limit === undefined ? rows : rows.slice(0, limit));
      },
      deleteConfig: async (id) => configs.delete(id),
      configInUse: async (id) => [...deployments.values()].some((d) => d.configId === id),
      insertDeployment: async (d) =>
        !deployments.has(d.id) && (deployments.set(d.id, structuredClone(d)), true),
      getDeployment: async (id) => copy(deployments.get(id)),
      async listDeployments({ projectId, serverId }) {
        const rows = [...deployments.values()].filter(
          (d) =>
            (projectId === undefined || d.projectId === projectId) &&
            (serverId === undefined || d.serverId === serverId),
        );
        return structuredClone(rows.sort(byTime));
      },
      async updateDeployment(id, changes, ifStatus) {
        const found = deployments.get(id);
        if (!found || (ifStatus !== undefined && found.status !== ifStatus)) return false;
        const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
        deployments.set(id, { ...found, ...structuredClone(defined) });
        return true;
      },
      deleteDeployment: async (id) => deployments.delete(id),
    };
  }
}
