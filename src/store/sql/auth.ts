import type { TokenListing, Tx } from '../contract.js';
import type { Row, SqlExecutor, SqlValue } from './driver.js';
import { decodeValue, encodeValue, insertSql } from './columns.js';
import { PROJECTS, TOKENS, USERS } from './tables.js';

const INSERT_PROJECT = insertSql('projects', PROJECTS.columnNames, 1);
const INSERT_USER = insertSql('users', USERS.columnNames, 1);
const INSERT_TOKEN = insertSql('api_tokens', TOKENS.columnNames, 1);

// A token with its user and project; the inner joins leave out a token whose user or project is gone.
const TOKEN_JOIN = `FROM api_tokens t JOIN users u ON u.id = t.user_id JOIN projects p ON p.id = u.project_id`;
const LISTING_COLUMNS = `t.id, t.user_id, t.expires_at, t.created_at, t.revoked_at, u.name AS user_name,
  u.project_id, u.disabled_at AS user_disabled_at, p.name AS project_name`;

function listing(row: Row): TokenListing {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    expiresAt: decodeValue('int', row.expires_at) as number | null,
    createdAt: decodeValue('time', row.created_at) as string,
    revokedAt: decodeValue('time', row.revoked_at) as string | null,
    userName: row.user_name as string,
    projectId: row.project_id as string,
    projectName: row.project_name as string,
    userDisabled: row.user_disabled_at !== null && row.user_disabled_at !== undefined,
  };
}

export function authRepository(db: SqlExecutor): Tx['auth'] {
  return {
    async insertProject(project) {
      await db.run(INSERT_PROJECT, PROJECTS.encode(project));
    },

    async findProject(idOrName) {
      const [row] = await db.all('SELECT * FROM projects WHERE id = $1 OR name = $1 ORDER BY id = $1 DESC', [
        idOrName,
      ]);
      return row && PROJECTS.decode(row);
    },

    async setProjectCloud(projectId, cloud) {
      const [row] = await db.all('UPDATE projects SET os_cloud = $2 WHERE id = $1 RETURNING id', [
        projectId,
        cloud,
      ]);
      return row !== undefined;
    },

    async projectCloud(projectId) {
      const [row] = await db.all('SELECT os_cloud FROM projects WHERE id = $1', [projectId]);
      return row === undefined ? undefined : ((row.os_cloud as string | null) ?? null);
    },

    async insertUser(user) {
      await db.run(INSERT_USER, USERS.encode(user));
    },

    async findUser(projectId, idOrName) {
      const [row] = await db.all(
        'SELECT * FROM users WHERE project_id = $1 AND (id = $2 OR name = $2) ORDER BY id = $2 DESC',
        [projectId, idOrName],
      );
      return row && USERS.decode(row);
    },

    async insertToken(token) {
      await db.run(INSERT_TOKEN, TOKENS.encode(token));
    },

    async findToken(tokenHash) {
      const [row] = await db.all(
        `SELECT t.*, u.name AS u_name, u.project_id AS u_project_id, u.roles AS u_roles,
           u.created_at AS u_created_at, u.disabled_at AS u_disabled_at
         ${TOKEN_JOIN} WHERE t.token_hash = $1`,
        [tokenHash],
      );
      if (!row) return undefined;
      const user = USERS.decode({
        id: row.user_id,
        name: row.u_name,
        project_id: row.u_project_id,
        roles: row.u_roles,
        created_at: row.u_created_at,
        disabled_at: row.u_disabled_at,
      });
      return { token: TOKENS.decode(row), user };
    },

    async listProjects() {
      return (await db.all('SELECT * FROM projects ORDER BY name')).map((r) => PROJECTS.decode(r));
    },

    async listUsers(projectId) {
      const where = projectId === undefined ? '' : 'WHERE u.project_id = $1';
      const rows = await db.all(
        `SELECT u.* FROM users u JOIN projects p ON p.id = u.project_id ${where} ORDER BY p.name, u.name`,
        projectId === undefined ? [] : [projectId],
      );
      return rows.map((r) => USERS.decode(r));
    },

    async setUserDisabled(userId, disabledAt) {
      const at = encodeValue('time', disabledAt);
      return (await db.run('UPDATE users SET disabled_at = $1 WHERE id = $2', [at, userId])) > 0;
    },

    async deleteUser(userId) {
      await db.run('DELETE FROM api_tokens WHERE user_id = $1', [userId]);
      return (await db.run('DELETE FROM users WHERE id = $1', [userId])) > 0;
    },

    async deleteProject(projectId) {
      await db.run('DELETE FROM api_tokens WHERE user_id IN (SELECT id FROM users WHERE project_id = $1)', [
        projectId,
      ]);
      await db.run('DELETE FROM users WHERE project_id = $1', [projectId]);
      return (await db.run('DELETE FROM projects WHERE id = $1', [projectId])) > 0;
    },

    async listTokens(filter) {
      const conditions: string[] = [];
      const params: SqlValue[] = [];
      if (filter.projectId !== undefined) {
        params.push(filter.projectId);
        conditions.push(`u.project_id = $${params.length}`);
      }
      if (filter.userId !== undefined) {
        params.push(filter.userId);
        conditions.push(`t.user_id = $${params.length}`);
      }
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const rows = await db.all(
        `SELECT ${LISTING_COLUMNS} ${TOKEN_JOIN} ${where} ORDER BY t.created_at, t.id`,
        params,
      );
      return rows.map(listing);
    },

    async getToken(id) {
      const [row] = await db.all(`SELECT ${LISTING_COLUMNS} ${TOKEN_JOIN} WHERE t.id = $1`, [id]);
      return row && listing(row);
    },

    async revokeTokens(which, revokedAt) {
      const at = encodeValue('time', revokedAt);
      let rows: Row[];
      if ('userId' in which) {
        rows = await db.all(
          'UPDATE api_tokens SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL RETURNING id',
          [at, which.userId],
        );
      } else {
        if (which.ids.length === 0) return [];
        const list = which.ids.map((_, i) => `$${i + 2}`).join(', ');
        rows = await db.all(
          `UPDATE api_tokens SET revoked_at = $1 WHERE id IN (${list}) AND revoked_at IS NULL RETURNING id`,
          [at, ...which.ids],
        );
      }
      return rows.map((r) => r.id as string).sort();
    },
  };
}

export function settingsRepository(db: SqlExecutor): Tx['settings'] {
  return {
    async getOrInit(name, initial) {
      await db.run('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        name,
        initial,
      ]);
      const [row] = await db.all('SELECT value FROM settings WHERE name = $1', [name]);
      return row!.value as string;
    },
  };
}
