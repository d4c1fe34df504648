import type { Tx } from '../contract.js';
import type { SqlExecutor } from './driver.js';
import { insertSql } from './columns.js';
import { PROJECTS, TOKENS, USERS } from './tables.js';

const INSERT_PROJECT = insertSql('projects', PROJECTS.columnNames, 1);
const INSERT_USER = insertSql('users', USERS.columnNames, 1);
const INSERT_TOKEN = insertSql('api_tokens', TOKENS.columnNames, 1);

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
      const [tokenRow] = await db.all('SELECT * FROM api_tokens WHERE token_hash = $1', [tokenHash]);
      if (!tokenRow) return undefined;
      const token = TOKENS.decode(tokenRow);
      const [userRow] = await db.all('SELECT * FROM users WHERE id = $1', [token.userId]);
      return userRow ? { token, user: USERS.decode(userRow) } : undefined;
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
