import { isNotFound } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import { type PluginContext, ResourceFailure } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { realityOf, serviceFailure } from '../../openstack/common.js';

/**
 * AWS::CloudWatch::Alarm: Heat 19 maps it (a template resource of its global environment) onto an
 * Aodh threshold alarm, OS::Aodh::Alarm; Hearth makes the same Aodh alarm directly: the statistic
 * and comparison translated to Aodh's words, the Dimensions (`{Name, Value}` maps) a query on the
 * samples' metadata, the actions as given (a scaling policy's Ref is its alarm URL). A cloud
 * without an alarming service fails the create with Aodh's name in the message.
 */

const SERVICE = 'alarming';
const STATISTICS: Record<string, string> = {
  SampleCount: 'count',
  Average: 'avg',
  Sum: 'sum',
  Minimum: 'min',
  Maximum: 'max',
};
const OPERATORS: Record<string, string> = {
  LessThanOrEqualToThreshold: 'le',
  LessThanThreshold: 'lt',
  GreaterThanThreshold: 'gt',
  GreaterThanOrEqualToThreshold: 'ge',
};
const UNITS = [
  'Seconds',
  'Microseconds',
  'Milliseconds',
  'Bytes',
  'Kilobytes',
  'Megabytes',
  'Gigabytes',
  'Terabytes',
  'Bits',
  'Kilobits',
  'Megabits',
  'Gigabits',
  'Terabits',
  'Percent',
  'Count',
  'Bytes/Second',
  'Kilobytes/Second',
  'Megabytes/Second',
  'Gigabytes/Second',
  'Terabytes/Second',
  'Bits/Second',
  'Kilobits/Second',
  'Megabits/Second',
  'Gigabits/Second',
  'Terabits/Second',
  'Count/Second',
  'None',
];
/** Meters of Nova's, whose samples carry the server's metadata as `user_metadata` (Heat's list, in part). */
const NOVA_METER = /^(instance|memory(\..+)?|cpu|cpu_util|vcpus|disk\..+|network\.(incoming|outgoing)\..+)$/;

const text = (description: string, required = false) =>
  P.string({ description, required, updateAllowed: true });
const actions = (description: string) => P.list({ description, updateAllowed: true });

/** A number from a string property, or a clear failure. */
function numberOf(properties: Record<string, Value>, name: string, integer: boolean): number {
  const raw = String(properties[name] ?? '');
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new ResourceFailure(`${name}: "${raw}" is not ${integer ? 'an integer' : 'a number'}`, {
      heatClass: 'StackValidationFailed',
    });
  }
  return n;
}

/** Dimensions as Aodh's query on the samples' metadata (Heat: MemberListToMap, then matching_metadata). */
function queryOf(meter: string, dimensions: Value | undefined): JsonObject[] {
  const prefix = NOVA_METER.test(meter) ? 'user_metadata.' : 'metering.';
  const query: JsonObject[] = [];
  for (const item of (dimensions as Value[] | null) ?? []) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const { Name, Value: value } = item as Record<string, Value>;
    if (Name === undefined || Name === null) continue;
    query.push({ field: `metadata.${prefix}${String(Name)}`, op: 'eq', value: String(value ?? '') });
  }
  return query;
}

const list = (v: Value | undefined): Json[] =>
  ((v as Value[] | null) ?? []).filter((a) => a !== '').map(String);

/** The Aodh alarm the properties describe (what Heat's OS::Aodh::Alarm sends). */
function alarmBody(name: string, properties: Record<string, Value>): JsonObject {
  const meter = String(properties.MetricName ?? '');
  const query = queryOf(meter, properties.Dimensions);
  return {
    name,
    description: String(properties.AlarmDescription ?? 'An alarm'),
    type: 'threshold',
    enabled: true,
    repeat_actions: true,
    severity: 'low',
    time_constraints: [],
    alarm_actions: list(properties.AlarmActions),
    ok_actions: list(properties.OKActions),
    insufficient_data_actions: list(properties.InsufficientDataActions),
    threshold_rule: {
      meter_name: meter,
      period: numberOf(properties, 'Period', true),
      evaluation_periods: numberOf(properties, 'EvaluationPeriods', true),
      threshold: numberOf(properties, 'Threshold', false),
      statistic: STATISTICS[String(properties.Statistic)] ?? null,
      comparison_operator: OPERATORS[String(properties.ComparisonOperator)] ?? null,
      ...(query.length > 0 ? { query } : {}),
    },
  };
}

const cloudFailure = (action: string, error: unknown) =>
  serviceFailure(action, error, SERVICE, 'alarming service (Aodh)');

/** The alarm a create named `name` made before (a create run again after a crash). */
async function existing(ctx: PluginContext, name: string): Promise<string | undefined> {
  const q = { 'q.field': 'name', 'q.op': 'eq', 'q.value': name };
  const r = await ctx
    .openstack()
    .request<JsonObject[]>(SERVICE, 'GET', '/v2/alarms', undefined, { query: q });
  const found = (r.body ?? []).find((a) => a.name === name);
  return found ? String(found.alarm_id) : undefined;
}

export const cloudWatchAlarmPlugin: CatalogPlugin = {
  type: 'AWS::CloudWatch::Alarm',
  description: 'A threshold alarm on a meter: an Aodh alarm, as Heat makes it.',
  properties: {
    AlarmActions: actions('URLs to call when the alarm goes to the alarm state.'),
    AlarmDescription: text('What the alarm is about.'),
    ComparisonOperator: P.string({
      description: 'How the statistic is compared with the threshold.',
      required: true,
      updateAllowed: true,
      constraints: [
        C.allowedValues([
          'GreaterThanOrEqualToThreshold',
          'GreaterThanThreshold',
          'LessThanThreshold',
          'LessThanOrEqualToThreshold',
        ]),
      ],
    }),
    Dimensions: P.list({
      description: 'Name/Value maps the samples’ metadata must match.',
      updateAllowed: true,
    }),
    EvaluationPeriods: text('How many periods are evaluated.', true),
    InsufficientDataActions: actions('URLs to call when there is too little data.'),
    MetricName: text('The meter watched.', true),
    Namespace: text('The namespace of the meter (not used).'),
    OKActions: actions('URLs to call when the alarm goes back to ok.'),
    Period: text('The length of a period, in seconds.', true),
    Statistic: P.string({
      description: 'The statistic of the samples compared.',
      required: true,
      updateAllowed: true,
      constraints: [C.allowedValues(Object.keys(STATISTICS))],
    }),
    Threshold: text('The value compared with.', true),
    Units: P.string({
      description: 'The unit of the meter (not used).',
      updateAllowed: true,
      constraints: [C.allowedValues(UNITS)],
    }),
  },
  attributes: {},

  async create(ctx, properties) {
    const name = physicalResourceName(ctx);
    const body = alarmBody(name, properties);
    try {
      const made = await existing(ctx, name);
      if (made) return { physicalId: made };
      const r = await ctx.openstack().request<JsonObject>(SERVICE, 'POST', '/v2/alarms', body);
      return { physicalId: String(r.body.alarm_id) };
    } catch (error) {
      throw cloudFailure('creating the alarm', error);
    }
  },

  async update(ctx, properties) {
    const id = ctx.physicalId;
    if (!id) return {};
    try {
      const r = await ctx.openstack().request<JsonObject>(SERVICE, 'GET', `/v2/alarms/${id}`);
      const body = { ...r.body, ...alarmBody(String(r.body.name), properties) };
      await ctx.openstack().request(SERVICE, 'PUT', `/v2/alarms/${id}`, body);
    } catch (error) {
      throw cloudFailure('updating the alarm', error);
    }
    return {};
  },

  async delete(ctx) {
    if (!ctx.physicalId) return {};
    try {
      await ctx.openstack().request(SERVICE, 'DELETE', `/v2/alarms/${ctx.physicalId}`);
    } catch (error) {
      if (!isNotFound(error)) throw cloudFailure('deleting the alarm', error);
    }
    return {};
  },

  async check(ctx) {
    if (!ctx.physicalId) return;
    try {
      await ctx.openstack().request(SERVICE, 'GET', `/v2/alarms/${ctx.physicalId}`);
    } catch (error) {
      throw cloudFailure('reading the alarm', error);
    }
  },

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      await ctx.openstack().request(SERVICE, 'GET', `/v2/alarms/${ctx.physicalId}`);
      // Heat reads nothing of this type back (its template resource has no live state).
      return { ...(ctx.storedProperties ?? {}) };
    });
  },

  async attribute() {
    return null;
  },
};
