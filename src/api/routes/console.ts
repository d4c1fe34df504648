import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { isPlainObject } from '../../util/json.js';
import type { Api } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { HttpError } from '../errors.js';

/** Where the console is served; `GET /` stays Heat's version list for API clients. */
export const CONSOLE_PATH = '/console/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * The built console (`npm run build` writes dist/web/ with Vite): found by walking up to the
 * package from the command's script (bin/hearth.js, a bundle, the sources), then from this module.
 * The script's path comes first: it is the path as started, where this module's has symlinks
 * resolved (a node_modules linked from elsewhere would lead to another tree).
 */
export function consoleDir(starts: readonly string[] = defaultStarts()): string | undefined {
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'dist', 'web', 'index.html'))) return join(dir, 'dist', 'web');
      if (existsSync(join(dir, 'package.json')) || dirname(dir) === dir) break;
    }
  }
  return undefined;
}

function defaultStarts(): string[] {
  const script = process.argv[1];
  return [...(script ? [dirname(script)] : []), import.meta.dirname];
}

/**
 * The web console's static files under /console/: index.html revalidated on every load, the
 * assets (content-hashed names, Vite's) cached for a year. Files are read once and kept: the
 * whole console is a few hundred kB. A browser asking for `/` (Accept: text/html first) is sent
 * to the console; anything else asking for `/` still gets Heat's version list.
 */
export function registerConsoleRoutes(app: Api, dir: string | undefined): void {
  const files = new Map<string, Buffer>();

  async function serve(reply: FastifyReply, name: string, cache: string): Promise<FastifyReply> {
    if (dir === undefined) {
      throw new HttpError(404, 'HTTPNotFound', 'The web console is not built: run npm run build');
    }
    let body = files.get(name);
    if (!body) {
      body = await readFile(join(dir, name)).catch(() => undefined);
      if (!body) throw new HttpError(404, 'HTTPNotFound', `No console file ${name}`);
      files.set(name, body);
    }
    return reply
      .header('content-type', TYPES[extname(name)] ?? 'application/octet-stream')
      .header('cache-control', cache)
      .header('x-content-type-options', 'nosniff')
      .send(body);
  }

  // `/console` too: the router ignores a trailing slash (index.html's asset paths are absolute).
  app.get(CONSOLE_PATH, { schema: { hide: true } }, async (_request, reply) =>
    serve(reply, 'index.html', 'no-cache'),
  );
  app.get<{ Params: { file: string } }>(
    `${CONSOLE_PATH}assets/:file`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { file } = request.params;
      // One name, no path: nothing outside the assets folder can be named.
      if (!/^[\w.-]+$/.test(file) || file.startsWith('.'))
        throw new HttpError(404, 'HTTPNotFound', 'No such console file');
      return serve(reply, `assets/${file}`, 'public, max-age=31536000, immutable');
    },
  );
}

/** Whether a request to `/` is a browser's (it puts text/html before JSON). */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html >= 0 && (json < 0 || html < json);
}

/**
 * `POST /console/login` {user, password, project, domain?}: the console's password login, which the
 * server makes with Keystone in keystone mode (the browser never talks to Keystone: one origin, no
 * CORS). Answers the token and its project id; 401 when Keystone refuses; 400 in other modes,
 * whose console takes tokens only.
 */
export function registerConsoleLogin(app: Api, deps: Pick<ApiDeps, 'passwordLogin'>): void {
  app.post('/console/login', { schema: { hide: true } }, async (request, reply) => {
    const login = deps.passwordLogin;
    if (!login)
      throw new HttpError(
        400,
        'HTTPBadRequest',
        'This server takes tokens: password login needs --auth keystone',
      );
    const body = isPlainObject(request.body) ? request.body : {};
    const field = (name: string) => {
      const value = body[name];
      if (typeof value !== 'string' || value === '')
        throw new HttpError(400, 'HTTPBadRequest', `The login needs "${name}" (a string)`);
      return value;
    };
    const [user, password, project] = [field('user'), field('password'), field('project')];
    const domain = typeof body.domain === 'string' && body.domain !== '' ? body.domain : 'Default';
    const made = await login({ user, password, project, domain });
    if (!made) throw new HttpError(401, 'Unauthorized', 'The identity service refused these credentials');
    return reply.header('cache-control', 'no-store').send({ token: made.token, project_id: made.projectId });
  });
}
