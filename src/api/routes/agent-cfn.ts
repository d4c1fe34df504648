import type { FastifyReply, FastifyRequest } from 'fastify';
import { STACK_USER_KEY_PREFIX } from '../../auth/stack-user-keys.js';
import { currentRow } from '../../engine/core/rows.js';
import { CFN_PATH, CFN_TOOLS_PATH } from '../../resources/server-agent/transport.js';
import type { ResourceRecord, StackRecord } from '../../store/contract.js';
import { agentAccessOf } from '../agent/access.js';
import { cfnXml, ec2SignatureMatches } from '../agent/cfn.js';
import { cfnError, wantsJson } from '../agent/cfn-reply.js';
import { serverMetadata } from '../agent/metadata.js';
import { stackUserAccessOf } from '../agent/stack-user-access.js';
import type { Api } from '../context.js';
import type { ApiDeps } from '../deps.js';

/**
 * Hearth's CFN API (Heat's heat-api-cfn, the part in-guest tools call): DescribeStackResource,
 * signed with EC2 signature version 2 by one of two kinds of keypair. A server's agent credential
 * (hagt_: os-collect-config's cfn collector, POLL_SERVER_CFN) reads its own server only; an
 * AWS::IAM::AccessKey (hiak_: cfn-init, cfn-hup, cfn-get-metadata) reads the resources of its
 * stack its user's policies allow. Either way the answer is the resource's metadata.
 */

/** The first value of a query parameter. */
function param(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

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

/** What a caller whose key is still valid may read. */
interface CfnCaller {
  stack: StackRecord;
  allows(resourceName: string): boolean;
  /** The row of an allowed resource (undefined: the stack has none of that name). */
  rowOf(resourceName: string): Promise<ResourceRecord | undefined>;
}

/** A keypair shaped as ours: its secret, and what it still gives access to (undefined: revoked). */
interface Keyed {
  secret: string;
  access(): Promise<CfnCaller | undefined>;
  revoked: string;
}

function keyedOf(deps: ApiDeps, accessKey: string): Keyed | undefined {
  const { engine } = deps;
  if (accessKey.startsWith(STACK_USER_KEY_PREFIX)) {
    const opened = deps.stackUserKeys?.open(accessKey);
    if (!opened) return undefined;
    return {
      secret: opened.secret,
      revoked:
        'The AWS Access Key ID is no longer valid: the key or its user was deleted, replaced, made Inactive or suspended.',
      access: async () => {
        const access = await stackUserAccessOf(engine, opened.target);
        if (!access) return undefined;
        const stackId = access.stack.id;
        return {
          ...access,
          rowOf: async (name) =>
            currentRow(await engine.deps.store.read((tx) => tx.resources.findByName(stackId, name))),
        };
      },
    };
  }
  const secret = deps.agentSigner?.secretFor(accessKey);
  const target = secret === undefined ? undefined : deps.agentSigner!.targetOf(accessKey);
  if (secret === undefined || !target) return undefined;
  return {
    secret,
    revoked:
      'The AWS Access Key ID is no longer valid: its server was deleted or replaced, or its transport changed.',
    access: async () => {
      const access = await agentAccessOf(engine, target);
      if (!access) return undefined;
      // Heat's stack user of a server may read that server alone.
      const { stack, row } = access;
      return { stack, allows: (name) => name === row.name, rowOf: async () => row };
    },
  };
}

/** The query's parameters, each its first value. */
function paramsOf(query: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of Object.keys(query as object)) {
    const value = param(query, name);
    if (value !== undefined) params[name] = value;
  }
  return params;
}

/** The caller the request is signed by, or the error reply already sent. */
async function authenticate(
  deps: ApiDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<CfnCaller | FastifyReply> {
  const params = paramsOf(request.query);
  const { AWSAccessKeyId: accessKey, Signature: signature } = params;
  if (!accessKey || !signature) {
    return cfnError(
      request,
      reply,
      403,
      'MissingAuthenticationToken',
      'Request is missing Authentication Token',
    );
  }
  const keyed = keyedOf(deps, accessKey);
  if (!keyed) {
    return cfnError(
      request,
      reply,
      403,
      'InvalidClientTokenId',
      'The X.509 certificate or AWS Access Key ID provided does not exist in our records.',
    );
  }
  // Signed for the metadata_url it was given: behind a proxy, our Host and path may differ.
  const given = publicUrl(deps);
  const signed = ec2SignatureMatches(keyed.secret, signature, {
    verb: 'GET',
    hosts: [request.host, ...(given ? [given.host] : [])],
    paths: [
      request.url.split('?')[0]!,
      `${given?.pathname.replace(/\/+$/, '') ?? ''}${request.routeOptions.url}`,
    ],
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
  const caller = await keyed.access();
  return caller ?? cfnError(request, reply, 403, 'InvalidClientTokenId', keyed.revoked);
}

export function registerCfnApi(app: Api, deps: ApiDeps): void {
  for (const path of [CFN_PATH, CFN_TOOLS_PATH]) registerDescribe(app, deps, path);
}

function registerDescribe(app: Api, deps: ApiDeps, path: string): void {
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
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
    const caller = await authenticate(deps, request, reply);
    if (!('stack' in caller)) return caller;
    const { stack } = caller;
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
    const name = param(query, 'LogicalResourceId') ?? '';
    if (!caller.allows(name)) {
      return cfnError(
        request,
        reply,
        403,
        'AccessDenied',
        'User is not authorized to perform action on this resource',
      );
    }
    const row = await caller.rowOf(name);
    if (!row) {
      return cfnError(
        request,
        reply,
        400,
        'InvalidParameterValue',
        `The Resource (${name}) could not be found in Stack ${stack.name}.`,
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
