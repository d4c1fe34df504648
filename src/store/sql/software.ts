import type { Tx } from '../contract.js';
import type { SoftwareConfigRecord, SoftwareDeploymentRecord } from '../../software/contract.js';
import { encodeValue, insertSql } from './columns.js';
import type { SqlExecutor, SqlValue } from './driver.js';
import { SOFTWARE_CONFIGS, SOFTWARE_DEPLOYMENTS } from './tables.js';

// DO NOTHING on a taken id: a create run twice keeps the first row (the caller reads it back).
const INSERT_CONFIG = `${insertSql('software_configs', SOFTWARE_CONFIGS.columnNames, 1)} ON CONFLICT (id) DO NOTHING`;
const INSERT_DEPLOYMENT = `${insertSql('software_deployments', SOFTWARE_DEPLOYMENTS.columnNames, 1)} ON CONFLICT (id) DO NOTHING`;
const FIXED: ReadonlySet<string> = new Set(['id', 'projectId', 'createdAt']);

/** Software configs and deployments (src/software/service.ts gives them Heat's meaning). */
export function softwareRepository(db: SqlExecutor): Tx['software'] {
  const config = async (id: string): Promise<SoftwareConfigRecord | undefined> => {
    const [row] = await db.all('SELECT * FROM software_configs WHERE id = $1', [id]);
    return row ? SOFTWARE_CONFIGS.decode(row) : undefined;
  };
  const deployment = async (id: string): Promise<SoftwareDeploymentRecord | undefined> => {
    const [row] = await db.all('SELECT * FROM software_deployments WHERE id = $1', [id]);
    return row ? SOFTWARE_DEPLOYMENTS.decode(row) : undefined;
  };

  return {
    async insertConfig(record) {
      return (await db.run(INSERT_CONFIG, SOFTWARE_CONFIGS.encode(record))) > 0;
    },

    getConfig: config,

    async listConfigs({ projectId, limit, marker }) {
      const where: string[] = [];
      const params: SqlValue[] = [];
      if (projectId !== undefined) {
        params.push(projectId);
        where.push(`project_id = $${params.length}`);
      }
      if (marker !== undefined) {
        const after = await config(marker);
        if (after) {
          params.push(encodeValue('time', after.createdAt), after.id);
          const [at, id] = [`$${params.length - 1}`, `$${params.length}`];
          where.push(`(created_at > ${at} OR (created_at = ${at} AND id > ${id}))`);
        }
      }
      let sql = 'SELECT * FROM software_configs';
      if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
      sql += ' ORDER BY created_at, id';
      if (limit !== undefined) {
        params.push(limit);
        sql += ` LIMIT $${params.length}`;
      }
      return (await db.all(sql, params)).map((r) => SOFTWARE_CONFIGS.decode(r));
    },

    async deleteConfig(id) {
      return (await db.run('DELETE FROM software_configs WHERE id = $1', [id])) > 0;
    },

    async configInUse(id) {
      const rows = await db.all('SELECT 1 AS used FROM software_deployments WHERE config_id = $1 LIMIT 1', [
        id,
      ]);
      return rows.length > 0;
    },

    async insertDeployment(record) {
      return (await db.run(INSERT_DEPLOYMENT, SOFTWARE_DEPLOYMENTS.encode(record))) > 0;
    },

    getDeployment: deployment,

    async listDeployments({ projectId, serverId }) {
      const where: string[] = [];
      const params: SqlValue[] = [];
      if (projectId !== undefined) {
        params.push(projectId);
        where.push(`project_id = $${params.length}`);
      }
      if (serverId !== undefined) {
        params.push(serverId);
        where.push(`server_id = $${params.length}`);
      }
      let sql = 'SELECT * FROM software_deployments';
      if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
      const rows = await db.all(`${sql} ORDER BY created_at, id`, params);
      return rows.map((r) => SOFTWARE_DEPLOYMENTS.decode(r));
    },

    async updateDeployment(id, changes, ifStatus) {
      const set = SOFTWARE_DEPLOYMENTS.setClause(changes, 3, FIXED);
      if (set.sql === '') {
        const found = await deployment(id);
        return found !== undefined && (ifStatus === undefined || found.status === ifStatus);
      }
      const sql = `UPDATE software_deployments SET ${set.sql} WHERE id = $1 AND ($2 = '' OR status = $2)`;
      return (await db.run(sql, [id, ifStatus ?? '', ...set.params])) > 0;
    },

    async deleteDeployment(id) {
      return (await db.run('DELETE FROM software_deployments WHERE id = $1', [id])) > 0;
    },
  };
}
