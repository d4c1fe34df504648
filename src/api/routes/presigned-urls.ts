import type { FastifyReply, FastifyRequest } from 'fastify';
import { CFN_SIGNAL_PATH, type UrlPurpose, WAIT_CONDITION_PATH } from '../../auth/signal-tokens.js';
import { currentRow } from '../../engine/core/rows.js';
import { parseHeatArn, pyUnquote, resourceOfArn } from '../../util/heat-arn.js';
import { cfnError } from '../agent/cfn-reply.js';
import { jsonBodyParser } from '../body-limits.js';
import type { Api } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { notFound } from '../errors.js';
import { acceptSignal } from '../signal.js';

/** The first value of a query parameter. */
function param(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** A kind of pre-signed URL: where it is served, what signs it, what it names. */
interface Presigned {
  path: string;
  purpose: UrlPurpose;
  methods: ('PUT' | 'POST')[];
  /** What the URL signals, in the errors. */
  what: string;
}

const WAIT_CONDITION: Presigned = {
  path: WAIT_CONDITION_PATH,
  purpose: 'waitcondition',
  methods: ['PUT', 'POST'],
  what: 'wait condition handle',
};
const SCALING_POLICY: Presigned = {
  path: CFN_SIGNAL_PATH,
  purpose: 'signal',
  methods: ['POST'],
  what: 'scaling policy',
};

/**
 * Heat's pre-signed URLs on the CFN API. `PUT` (cfn-signal's verb, Heat's route) or `POST
 * /cfn/v1/waitcondition/<resource arn>?AWSAccessKeyId=<handle id>&Signature=<sig>`: an
 * AWS::CloudFormation::WaitConditionHandle's; `POST /cfn/v1/signal/<resource arn>?...`: an
 * AWS::AutoScaling::ScalingPolicy's AlarmUrl. The signature is the credential: it signs the
 * URL's kind, the ARN's project, stack, resource and the resource's physical id with the
 * deployment key, so the URL signals that one resource while it lives (a replaced one's URL is
 * refused). The body is JSON whatever its content type (cfn-signal sends none), queued as the
 * resource's signal.
 */
export async function registerPresignedUrlRoutes(app: Api, deps: ApiDeps): Promise<void> {
  await app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'string' }, jsonBodyParser(deps.limits.max_json_body_depth));
    for (const kind of [WAIT_CONDITION, SCALING_POLICY]) {
      scoped.route({
        method: kind.methods,
        url: `${kind.path}*`,
        schema: { hide: true },
        handler: (request, reply) => signal(deps, kind, request, reply),
      });
    }
  });
}

async function signal(deps: ApiDeps, kind: Presigned, request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0]!;
  const arn = parseHeatArn(pyUnquote(path.slice(path.indexOf(kind.path) + kind.path.length)));
  const resourceName = arn ? resourceOfArn(arn) : undefined;
  const accessKey = param(request.query, 'AWSAccessKeyId');
  const signature = param(request.query, 'Signature');
  if (!arn || resourceName === undefined || !accessKey || !signature || !deps.signer) {
    return cfnError(
      request,
      reply,
      403,
      'MissingAuthenticationToken',
      'Request is missing Authentication Token',
    );
  }
  const target = { projectId: arn.project, stackId: arn.id, stackName: arn.name, resourceName };
  if (!deps.signer.verifyUrlSignature(target, accessKey, signature, kind.purpose)) {
    return cfnError(
      request,
      reply,
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  const row = await deps.engine.deps.store.tx(async (tx) => {
    const stack = await tx.stacks.get(target.stackId);
    if (!stack || stack.deletedAt || stack.projectId !== target.projectId) return undefined;
    return currentRow(await tx.resources.findByName(stack.id, resourceName));
  });
  if (!row) throw notFound(`The ${kind.what} this URL signals is gone`);
  if (row.physicalId !== accessKey) {
    return cfnError(
      request,
      reply,
      403,
      'InvalidClientTokenId',
      `The AWS Access Key ID is no longer valid: its ${kind.what} was replaced.`,
    );
  }
  await acceptSignal(deps.engine, target.stackId, resourceName, request.body);
  return reply.status(200).send({ resource: resourceName });
}
