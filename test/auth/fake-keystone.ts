import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny Keystone v3 for tests: password logins (`POST /v3/auth/tokens`) for one service user, and
 * validation of the user tokens a test issues (`GET /v3/auth/tokens`), answering as Keystone does
 * (201 + X-Subject-Token, 200 with the token body, 401 for a bad service token, 404 for a bad
 * subject token). Time is the test's clock, so that expiry is deterministic.
 */

/** The id of the service user's project in the fake's login answers. */
export const SERVICE_PROJECT_ID = 'p-service';

export const SERVICE = {
  user: 'hearth-svc',
  password: 'Sw0rdfish-not-for-logs',
  project: 'service',
  userDomain: 'Default',
  projectDomain: 'Default',
};

export interface UserToken {
  /** null: an unscoped token. */
  projectId: string | null;
  roles: string[];
  userId: string;
  userName: string;
  expiresAt: number;
}

export type Behaviour =
  | 'normal'
  /** Every request answers 500. */
  | 'failing'
  /** Requests are never answered. */
  | 'hanging'
  /** Validations answer 403 (the service user may not validate). */
  | 'forbidding';

export interface FakeKeystone {
  /** The v3 endpoint. */
  readonly url: string;
  /** Requests received, by kind. */
  readonly calls: { login: number; validate: number };
  /** Every request's method, path and headers, for checking what Hearth sent. */
  readonly requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  behaviour: Behaviour;
  /** Lifetime of the service tokens issued from now on. */
  serviceTokenTtlMs: number;
  /** A user token Keystone will recognise (a random one when `token` is omitted). */
  issue(spec: Partial<UserToken> & { token?: string }): string;
  revoke(token: string): void;
  /** Revokes every service token issued so far (Hearth must log in again). */
  revokeServiceTokens(): void;
  close(): Promise<void>;
}

/** Keystone's timestamp format, with microseconds. */
function keystoneTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

export async function startFakeKeystone(now: () => number = Date.now): Promise<FakeKeystone> {
  const userTokens = new Map<string, UserToken>();
  const serviceTokens = new Map<string, number>(); // token → expiresAt

  const fake = {
    url: '',
    calls: { login: 0, validate: 0 },
    requests: [] as FakeKeystone['requests'],
    behaviour: 'normal' as Behaviour,
    serviceTokenTtlMs: 3_600_000,
    issue(spec: Partial<UserToken> & { token?: string }): string {
      const token = spec.token ?? `ks-${randomBytes(16).toString('hex')}`;
      userTokens.set(token, {
        projectId: spec.projectId === undefined ? 'project-a' : spec.projectId,
        roles: spec.roles ?? ['member'],
        userId: spec.userId ?? `user-${randomUUID().slice(0, 8)}`,
        userName: spec.userName ?? 'alice',
        expiresAt: spec.expiresAt ?? now() + 3_600_000,
      });
      return token;
    },
    revoke(token: string) {
      userTokens.delete(token);
    },
    revokeServiceTokens() {
      serviceTokens.clear();
    },
    close: async () => {},
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, title: string) =>
    send(res, status, { error: { code: status, title, message: `${title} (fake keystone)` } });

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '').split('?')[0];
    fake.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (path !== '/v3/auth/tokens') return error(res, 404, 'Not Found');
    if (req.method === 'POST') {
      fake.calls.login++;
      if (fake.behaviour === 'hanging') return;
      if (fake.behaviour === 'failing') return error(res, 500, 'Internal Server Error');
      const auth = (JSON.parse(body) as { auth: LoginBody }).auth;
      const user = auth.identity.password.user;
      const project = auth.scope.project;
      const ok =
        user.name === SERVICE.user &&
        user.domain.name === SERVICE.userDomain &&
        user.password === SERVICE.password &&
        project.name === SERVICE.project &&
        project.domain.name === SERVICE.projectDomain;
      if (!ok) return error(res, 401, 'Unauthorized');
      const token = `svc-${randomBytes(16).toString('hex')}`;
      const expiresAt = now() + fake.serviceTokenTtlMs;
      serviceTokens.set(token, expiresAt);
      return send(
        res,
        201,
        {
          token: {
            expires_at: keystoneTime(expiresAt),
            project: {
              id: SERVICE_PROJECT_ID,
              name: project.name,
              domain: { id: 'default', name: 'Default' },
            },
            roles: [{ id: 'r1', name: 'service' }],
          },
        },
        { 'x-subject-token': token },
      );
    }
    if (req.method === 'GET') {
      fake.calls.validate++;
      if (fake.behaviour === 'hanging') return;
      if (fake.behaviour === 'failing') return error(res, 500, 'Internal Server Error');
      const service = serviceTokens.get(String(req.headers['x-auth-token']));
      if (service === undefined || service <= now()) return error(res, 401, 'Unauthorized');
      if (fake.behaviour === 'forbidding') return error(res, 403, 'Forbidden');
      const subject = userTokens.get(String(req.headers['x-subject-token']));
      if (subject === undefined || subject.expiresAt <= now()) return error(res, 404, 'Not Found');
      const domain = { id: 'default', name: 'Default' };
      return send(res, 200, {
        token: {
          methods: ['password'],
          user: { id: subject.userId, name: subject.userName, domain, password_expires_at: null },
          audit_ids: [randomUUID()],
          expires_at: keystoneTime(subject.expiresAt),
          issued_at: keystoneTime(now()),
          ...(subject.projectId === null
            ? {}
            : {
                project: { id: subject.projectId, name: `name-of-${subject.projectId}`, domain },
                is_domain: false,
                roles: subject.roles.map((name) => ({ id: `id-${name}`, name })),
              }),
        },
      });
    }
    return error(res, 405, 'Method Not Allowed');
  };

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

interface LoginBody {
  identity: { password: { user: { name: string; domain: { name: string }; password: string } } };
  scope: { project: { name: string; domain: { name: string } } };
}
