import type { FastifyRequest } from 'fastify';
import { AGENT_TOKEN_PREFIX } from '../../auth/agent-credentials.js';
import { STACK_USER_ROLE } from '../../auth/identity.js';
import { SIGNAL_TOKEN_PREFIX } from '../../auth/signal-tokens.js';
import {
  AGENT_IDENTITY_PATH,
  AGENT_MESSAGING_PATH,
  AGENT_METADATA_PATH,
} from '../../resources/server-agent/transport.js';
import { isPlainObject } from '../../util/json.js';
import { agentAccess } from '../agent/access.js';
import { serverMetadata } from '../agent/metadata.js';
import type { Api } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { HttpError } from '../errors.js';
import { registerCfnApi } from './agent-cfn.js';

/**
 * The routes servers' in-guest agents call (design: docs/api.md "Software config agents"), each
 * checking its own credential: the CFN API's DescribeStackResource (agent-cfn.ts), the
 * pre-signed metadata URL (POLL_TEMP_URL, where Heat uses a Swift temp URL), and a Keystone-like
 * password login (POLL_SERVER_HEAT, HEAT_SIGNAL and the Zaqar transports) whose token the Heat API
 * and the Zaqar subset (agent-messaging.ts) then accept.
 */

const IDENTITY = AGENT_IDENTITY_PATH;

/** The base URL the caller reached us at (its endpoints in a token's catalog point back there). */
const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

function registerTempUrl(app: Api, deps: ApiDeps): void {
  // As a Swift temp URL: the path is the credential; the body is the metadata document.
  app.get(`${AGENT_METADATA_PATH}:token`, { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const access = await agentAccess(deps, token);
    if (!access)
      throw new HttpError(
        401,
        'HTTPUnauthorized',
        'The metadata URL is not valid (its server was deleted or replaced, or its transport changed)',
      );
    const metadata = await serverMetadata(deps.engine, access.stack, access.row);
    return reply
      .header('last-modified', new Date(access.row.updatedAt ?? access.row.createdAt).toUTCString())
      .send(metadata);
  });
}

const VERSION = (base: string) => ({
  id: 'v3.14',
  status: 'stable',
  updated: '2020-04-07T00:00:00Z',
  links: [{ rel: 'self', href: `${base}${IDENTITY}/` }],
  'media-types': [{ base: 'application/json', type: 'application/vnd.openstack.identity-v3+json' }],
});

/** The project a password (an agent or a signal token) acts in and its user id; undefined: not valid. */
async function passwordLogin(
  deps: ApiDeps,
  password: string,
): Promise<{ projectId: string; userId: string } | undefined> {
  if (password.startsWith(AGENT_TOKEN_PREFIX)) {
    const access = await agentAccess(deps, password);
    return access ? { projectId: access.target.projectId, userId: password.split('.')[0]! } : undefined;
  }
  if (password.startsWith(SIGNAL_TOKEN_PREFIX)) {
    const target = deps.signer?.verify(password);
    return target ? { projectId: target.projectId, userId: password.split('.')[0]! } : undefined;
  }
  return undefined;
}

/** A service of the agent token's catalog: public and internal endpoints at `url`. */
function catalogEntry(type: string, name: string, url: string) {
  return {
    id: `hearth-${type}`,
    type,
    name,
    endpoints: ['public', 'internal'].map((iface) => ({
      id: `hearth-${type}-${iface}`,
      interface: iface,
      region: 'RegionOne',
      region_id: 'RegionOne',
      url,
    })),
  };
}

function registerIdentity(app: Api, deps: ApiDeps): void {
  app.get(IDENTITY, { schema: { hide: true } }, async (request) => ({ version: VERSION(baseUrl(request)) }));
  app.get('/agent-identity', { schema: { hide: true } }, async (request, reply) =>
    reply.status(300).send({ versions: { values: [VERSION(baseUrl(request))] } }),
  );
  app.post(`${IDENTITY}/auth/tokens`, { schema: { hide: true } }, async (request, reply) => {
    const body = request.body;
    const auth = isPlainObject(body) && isPlainObject(body.auth) ? body.auth : undefined;
    const identity = auth && isPlainObject(auth.identity) ? auth.identity : undefined;
    const methods = identity?.methods;
    const user =
      identity && isPlainObject(identity.password) && isPlainObject(identity.password.user)
        ? identity.password.user
        : undefined;
    if (
      !Array.isArray(methods) ||
      !methods.includes('password') ||
      !user ||
      typeof user.password !== 'string'
    ) {
      throw new HttpError(
        400,
        'ValidationError',
        'Expecting a password authentication: auth.identity.methods ["password"] with password.user.id and password.user.password',
      );
    }
    const login = await passwordLogin(deps, user.password);
    const userId = user.id ?? user.name;
    if (!login || (userId !== undefined && userId !== login.userId)) {
      throw new HttpError(401, 'Unauthorized', 'The request you have made requires authentication.');
    }
    const scope =
      isPlainObject(auth!.scope) && isPlainObject(auth!.scope.project) ? auth!.scope.project : undefined;
    if (scope?.id !== undefined && scope.id !== login.projectId) {
      throw new HttpError(401, 'Unauthorized', 'The credential does not grant access to that project.');
    }
    const base = baseUrl(request);
    const now = new Date();
    const domain = { id: 'default', name: 'Default' };
    return reply
      .status(201)
      .header('x-subject-token', user.password)
      .send({
        token: {
          methods: ['password'],
          user: { id: login.userId, name: login.userId, domain, password_expires_at: null },
          project: { id: login.projectId, name: login.projectId, domain },
          roles: [{ id: STACK_USER_ROLE, name: STACK_USER_ROLE }],
          issued_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 24 * 3600_000).toISOString(),
          audit_ids: [],
          catalog: [
            catalogEntry('orchestration', 'heat', `${base}/v1/${login.projectId}`),
            // ZAQAR_MESSAGE and ZAQAR_SIGNAL: zaqarclient appends /v2/queues/... to this.
            catalogEntry('messaging', 'zaqar', `${base}${AGENT_MESSAGING_PATH}`),
          ],
        },
      });
  });
}

export function registerAgentRoutes(app: Api, deps: ApiDeps): void {
  registerCfnApi(app, deps);
  registerTempUrl(app, deps);
  registerIdentity(app, deps);
}
