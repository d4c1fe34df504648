import { TemplateError } from '../../template/errors.js';
import type { Value } from '../../template/functions/types.js';
import { attr, P } from '../../template/properties/index.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import type { PeerResource } from '../contract.js';
import type { NestedView } from '../nested-type.js';
import { isPause } from './batches.js';
import { memberNames } from './scaled-group.js';

/*
 * What OS::Heat::InstanceGroup and AWS::AutoScaling::AutoScalingGroup share (Heat's AWS group is an
 * InstanceGroup): members are AWS::EC2::Instance resources made from a launch configuration, the
 * update policy's PauseTime is an ISO 8601 duration, and InstanceList joins the members' IPs.
 */

export const MEMBER_TYPE = 'AWS::EC2::Instance';
const LAUNCH_CONFIGURATION = 'AWS::AutoScaling::LaunchConfiguration';
/** Row data key of a launch configuration made from an instance (launch-configuration.ts). */
const FROM_INSTANCE_KEY = 'from_instance';

export const TAGS_PROPERTY = P.list({
  description: 'Tags to attach to this group.',
  items: P.map({
    schema: {
      Key: P.string({ description: 'Tag key.', required: true }),
      Value: P.string({ description: 'Tag value.', required: true }),
    },
  }),
});

export const INSTANCE_LIST = {
  InstanceList: attr('A comma-delimited list of server ip addresses. (Heat extension).', 'string'),
};

/** Heat's parse_isoduration: `PT#H#M#S` only, in seconds. */
export function isoDurationSecs(text: string, path: readonly (string | number)[]): number {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(text);
  if (!m) {
    throw new TemplateError('property', 'Only ISO 8601 duration format of the form PT#H#M#S is supported.', [
      ...path,
    ]);
  }
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

const int = (v: Json | undefined, fallback: number) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback;

/**
 * The group's UpdatePolicy entry `key` (AutoScalingRollingUpdate, RollingUpdate) in the HOT names
 * the shared batches take, with Heat's defaults; undefined when there is none. PauseTime over an
 * hour is refused, as Heat's validate does.
 */
export function rollingUpdateOf(updatePolicy: Value | undefined, key: string): JsonObject | undefined {
  if (!isPlainObject(updatePolicy) || !Object.hasOwn(updatePolicy, key)) return undefined;
  const policy = updatePolicy[key];
  if (!isPlainObject(policy)) return undefined;
  const pause =
    policy.PauseTime === undefined || policy.PauseTime === null ? 'PT0S' : String(policy.PauseTime);
  const pauseSecs = isoDurationSecs(pause, ['UpdatePolicy', key, 'PauseTime']);
  if (pauseSecs > 3600) {
    throw new TemplateError('property', 'Maximum PauseTime is 1 hour.', ['UpdatePolicy', key, 'PauseTime']);
  }
  return {
    min_in_service: int(policy.MinInstancesInService as Json, 0),
    max_batch_size: int(policy.MaxBatchSize as Json, 1),
    pause_time: pauseSecs,
  };
}

/**
 * The members' definition (Heat's _get_conf_properties): the launch configuration's properties as
 * given (what an InstanceId's server gave under them), the group's tags, and for an AWS group the
 * subnet of its VPCZoneIdentifier.
 */
export function instanceMember(
  conf: PeerResource | undefined,
  ref: string,
  extra: { tags: Value | undefined; subnet?: string | undefined },
): JsonObject {
  if (!conf || conf.type !== LAUNCH_CONFIGURATION) {
    throw new TemplateError('property', `LaunchConfigurationName (${ref}) reference can not be found.`, [
      'LaunchConfigurationName',
    ]);
  }
  const properties: JsonObject = {};
  const fromInstance = conf.data[FROM_INSTANCE_KEY];
  if (isPlainObject(fromInstance)) {
    for (const [k, v] of Object.entries(fromInstance)) if (v !== null) properties[k] = v;
  }
  for (const [k, v] of Object.entries(conf.properties ?? {})) {
    if (v !== null && v !== undefined && k !== 'InstanceId') properties[k] = v as Json;
  }
  if (Array.isArray(extra.tags) && extra.tags.length > 0) properties.Tags = extra.tags as Json;
  if (extra.subnet !== undefined) properties.SubnetId = extra.subnet;
  return { type: MEMBER_TYPE, properties };
}

/** The cached attributes: InstanceList (the members' PublicIp, oldest first) and the members' refs. */
export function instanceListAttributes(view: NestedView): Record<string, Json> {
  const byName = new Map(view.members.filter((m) => !isPause(m.name)).map((m) => [m.name, m]));
  const ips: string[] = [];
  for (const name of memberNames(view.data)) {
    const member = byName.get(name);
    if (!member) continue;
    const ip = member.attributes.PublicIp;
    ips.push(typeof ip === 'string' && ip !== '' ? ip : '0.0.0.0');
  }
  return {
    InstanceList: ips.length > 0 ? ips.join(',') : null,
    'OS::stack_id': view.childId,
  };
}
