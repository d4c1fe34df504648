import type { FastifyRequest } from 'fastify';
import { AGENT_TOKEN_PREFIX } from '../../auth/agent-credentials.js';
import { STACK_USER_ROLE } from '../../auth/identity.js';
import { SIGNAL_TOKEN_PREFIX } from '../../auth/signal-tokens.js';
import {
  AGENT_IDENTITY_PATH,
  AGENT_MESSAGING_PATH,
  AGENT_METADATA_PATH,
  CFN_PATH,
} from '../../resources/server-agent/transport.js';
import { isPlainObject } from '../../util/json.js';
import { agentAccess, agentAccessOf } from '../agent/access.js';
import { cfnXml, ec2SignatureMatches } from '../agent/cfn.js';
import { cfnError, wantsJson } from '../agent/cfn-reply.js';
import { serverMetadata } from '../agent/metadata.js';
import type { Api } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { HttpError } from '../errors.js';

/**
 * The routes servers' in-guest agents call (design: docs/api.md "Software config agents"), each
 * checking its own credential: the CFN API's DescribeStackResource (POLL_SERVER_CFN), the
 * pre-signed metadata URL (POLL_TEMP_URL, where Heat uses a Swift temp URL), and a Keystone-like
 * password login (POLL_SERVER_HEAT, HEAT_SIGNAL and the Zaqar transports) whose token the Heat API
 * and the Zaqar subset (agent-messaging.ts) then accept.
 */

const IDENTITY = AGENT_IDENTITY_PATH;

/** The first value of a query parameter. */
function param(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** The base URL the caller reached us at (its endpoints in a token's catalog point back there). */
const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * The public URL the agents were given (engine deps: what their credentials point to), parsed;
 * undefined when the engine issues no agent credentials.
 */
function publicUrl(deps: ApiDeps): URL | undefined {
  const url = deps.engine.deps.agentCredentials?.({
    projectId: '',
    stackId: '',
    resourceName: '',
    nonce: '',
  }).publicUrl;
  try {
    return url ? new URL(url) : undefined;
  } catch {
    return undefined;
  }
}

function registerCfn(app: Api, deps: ApiDeps): void {
  app.get(CFN_PATH, { schema: { hide: true } }, async (request, reply) => {
    const query = request.query;
    const action = param(query, 'Action');
    if (action !== 'DescribeStackResource') {
      return cfnError(
        request,
        reply,
        400,
        'InvalidAction',
        `The action ${action ?? '(none)'} is not valid for this web service (Hearth serves DescribeStackResource only).`,
      );
    }
    const accessKey = param(query, 'AWSAccessKeyId');
    const signature = param(query, 'Signature');
    if (!accessKey || !signature) {
      return cfnError(
        request,
        reply,
        403,
        'MissingAuthenticationToken',
        'Request is missing Authentication Token',
      );
    }
    const secret = deps.agentSigner?.secretFor(accessKey);
    const target = secret === undefined ? undefined : deps.agentSigner!.targetOf(accessKey);
    if (secret === undefined || !target) {
      return cfnError(
        request,
        reply,
        403,
        'InvalidClientTokenId',
        'The X.509 certificate or AWS Access Key ID provided does not exist in our records.',
      );
    }
    const params: Record<string, string> = {};
    for (const name of Object.keys(query as object)) {
      const value = param(query, name);
      if (value !== undefined) params[name] = value;
    }
    // Signed for the metadata_url it was given: behind a proxy, our Host and path may differ.
    const given = publicUrl(deps);
    const signed = ec2SignatureMatches(secret, signature, {
      verb: 'GET',
      hosts: [request.host, ...(given ? [given.host] : [])],
      paths: [request.url.split('?')[0]!, `${given?.pathname.replace(/\/+$/, '') ?? ''}${CFN_PATH}`],
      params,
    });
    if (!signed) {
      return cfnError(
        request,
        reply,
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    const access = await agentAccessOf(deps.engine, target);
    if (!access) {
      return cfnError(
        request,
        reply,
        403,
        'InvalidClientTokenId',
        'The AWS Access Key ID is no longer valid: its server was deleted or replaced, or its transport changed.',
      );
    }
    const { stack, row } = access;
    const stackName = param(query, 'StackName');
    const arn = `arn:openstack:heat::${stack.projectId}:stacks/${stack.name}/${stack.id}`;
    if (stackName !== stack.name && stackName !== stack.id && stackName !== arn) {
      return cfnError(
        request,
        reply,
        403,
        'AccessDenied',
        `User is not authorized to perform action on stack ${stackName ?? ''}`,
      );
    }
    if (param(query, 'LogicalResourceId') !== row.name) {
      return cfnError(
        request,
        reply,
        403,
        'AccessDenied',
        'User is not authorized to perform action on this resource',
      );
    }
    const detail = {
      Description: '',
      LastUpdatedTimestamp: row.updatedAt ?? row.createdAt,
      LogicalResourceId: row.name,
      Metadata: await serverMetadata(deps.engine, stack, row),
      PhysicalResourceId: row.physicalId ?? '',
      ResourceStatusReason: row.reason,
      ResourceType: row.type,
      StackId: arn,
      StackName: stack.name,
      ResourceStatus: `${row.action}_${row.status}`,
    };
    const document = {
      DescribeStackResourceResponse: { DescribeStackResourceResult: { StackResourceDetail: detail } },
    };
    if (wantsJson(request)) return reply.type('application/json').send(document);
    return reply.type('application/xml').send(cfnXml(document));
  });
}

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
  registerCfn(app, deps);
  registerTempUrl(app, deps);
  registerIdentity(app, deps);
}
