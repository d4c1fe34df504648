import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import { parseHeatArn, pyUnquote, resourceOfArn } from '../../../util/heat-arn.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type ActionResult, type PeerResource, type PluginContext, ResourceFailure } from '../../contract.js';
import {
  AWS_HANDLE_TYPES,
  signalsData,
  startWaiting,
  waitConditionLifecycle,
} from '../../wait-condition-base.js';

const invalid = (message: string) => new ResourceFailure(message, { heatClass: 'ValueError' });

/** Heat's ResourceIdentifier.from_arn_url: the ARN in the path of an http(s) URL. */
function handleArn(url: string) {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || !parsed.host || parsed.pathname === '') {
    throw invalid(`"${url}" is not a valid URL`);
  }
  const at = parsed.pathname.search(/\/arn%3Aopenstack%3Aheat%3A%3A/i);
  if (at < 0) throw invalid(`"${url}" is not a valid ARN URL`);
  const text = pyUnquote(parsed.pathname.slice(at + 1));
  const arn = parseHeatArn(text);
  if (!arn) throw invalid(`"${text}" is not a valid Heat ARN`);
  return arn;
}

/**
 * Heat's check of the Handle URL before waiting: it must name an AWS handle of this very stack.
 * The project is the one the handle's own URL names (a handle's URL carries its stack's project).
 */
async function handleOf(ctx: PluginContext, url: string): Promise<PeerResource> {
  const arn = handleArn(url);
  const resource = resourceOfArn(arn) ?? '';
  if (arn.name !== ctx.stackName) throw invalid(`WaitCondition invalid Handle stack ${arn.name}`);
  if (arn.id !== ctx.stackId) throw invalid(`WaitCondition invalid Handle stack ${arn.id}`);
  const handle = resource === '' ? undefined : await ctx.readResource(resource);
  if (!handle || handle.name !== resource || !AWS_HANDLE_TYPES.includes(handle.type)) {
    throw invalid(`WaitCondition invalid Handle ${resource}`);
  }
  const own = typeof handle.data.url === 'string' ? handleArn(handle.data.url) : undefined;
  if (own && own.project !== arn.project) throw invalid(`WaitCondition invalid Handle tenant ${arn.project}`);
  return handle;
}

async function start(ctx: PluginContext, properties: Record<string, Value>): Promise<ActionResult> {
  const handle = await handleOf(ctx, String(properties.Handle));
  return startWaiting(ctx, handle, Number(properties.Count ?? 1), Number(properties.Timeout));
}

/**
 * AWS::CloudFormation::WaitCondition: stays CREATE_IN_PROGRESS until the handle whose URL is
 * `Handle` (an AWS::CloudFormation::WaitConditionHandle of the same stack) has received `Count`
 * signals, failing at the first FAILURE (with its reason) or after `Timeout` seconds, as
 * OS::Heat::WaitCondition does (wait-condition-base.ts: persisted polling parked on the handle's
 * signals). `Data` is Heat's JSON text of each signal's Data by UniqueId.
 */
export const awsWaitConditionPlugin: CatalogPlugin = {
  type: 'AWS::CloudFormation::WaitCondition',
  description:
    'Waits, while the stack is created, until the WaitConditionHandle whose URL it is given ' +
    'has received enough signals, or fails when a signal reports a failure or the time is up.',
  supportStatus: { version: '2014.1' },
  properties: {
    Handle: P.string({
      description: 'The URL of the WaitConditionHandle (its Ref) whose signals this condition counts.',
      required: true,
    }),
    Timeout: P.integer({
      description: 'How many seconds to wait for the signals before failing.',
      required: true,
      constraints: [C.range({ min: 1, max: 43200 })],
    }),
    Count: P.integer({
      description: 'How many successful signals complete the wait.',
      default: 1,
      constraints: [C.range({ min: 1 })],
      updateAllowed: true,
    }),
  },
  attributes: {
    Data: attr('The Data of the signals received, by their UniqueId, as JSON text.', 'string'),
  },

  ...waitConditionLifecycle(start),

  async attribute(ctx, name) {
    if (name !== 'Data') return null;
    const handle = typeof ctx.data.handle === 'string' ? ctx.data.handle : undefined;
    return signalsData(handle === undefined ? undefined : await ctx.readResource(handle));
  },
};
