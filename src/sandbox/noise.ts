import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The sandbox's noise knobs: how unreliable the cloud is. Set at start (`hearth sandbox serve
 * --noise`) and changed at run time through the admin route; rates are probabilities from 0 to 1.
 */
/** The agent's policy for one config group. */
export const GroupPolicySchema = Type.Object(
  {
    policy: Type.Union([Type.Literal('succeed'), Type.Literal('fail'), Type.Literal('command')]),
    /** `fail`: the status code (default 1) and stderr it reports. */
    status_code: Type.Optional(Type.Integer()),
    message: Type.Optional(Type.String()),
    /** `command`: a shell command run as a script would be (inputs in its environment). */
    command: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export type GroupPolicy = Static<typeof GroupPolicySchema>;

export const NoiseSchema = Type.Object(
  {
    /** How long a server stays BUILD before it is ACTIVE (or ERROR), and a volume `creating`. */
    bootDelayMs: Type.Integer({ minimum: 0, default: 500 }),
    /** A new server goes to ERROR instead of ACTIVE, a new volume to `error` instead of `available`. */
    bootFailureRate: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
    /** An ACTIVE server goes to ERROR `errorAfterMs` after it became ACTIVE. */
    errorAfterRate: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
    errorAfterMs: Type.Integer({ minimum: 0, default: 10_000 }),
    /** An ACTIVE server disappears `disappearAfterMs` after it became ACTIVE. */
    disappearRate: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
    disappearAfterMs: Type.Integer({ minimum: 0, default: 10_000 }),
    /** Every API answer (identity and admin routes excepted) waits this long: mean and spread. */
    latencyMs: Type.Integer({ minimum: 0, default: 0 }),
    latencyJitterMs: Type.Integer({ minimum: 0, default: 0 }),
    /** An API call is answered 503 (nothing done), or 429 with Retry-After. */
    serverErrorRate: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
    rateLimitRate: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
    retryAfterSecs: Type.Integer({ minimum: 0, default: 1 }),
    /** The guest agent (agent/): how long after ACTIVE it first polls, how often it polls. */
    agentStartDelayMs: Type.Integer({ minimum: 0, default: 0 }),
    agentPollIntervalMs: Type.Integer({ minimum: 1, default: 1000 }),
    /** A config the agent applies fails (status code 1) without running. */
    agentFailureRate: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
    /**
     * What the agent does with a config of a group it has no hook for (ansible, puppet, ...), by
     * group name (`*`: any other group); absent: succeed with no outputs.
     */
    agentGroups: Type.Record(Type.String(), GroupPolicySchema, { default: {} }),
    /** heat-cfntools (cfntools/): how long after ACTIVE the UserData script is interpreted. */
    cfnStartDelayMs: Type.Integer({ minimum: 0, default: 0 }),
    /** A cfn-init call fails (exit status 1) without applying anything. */
    cfnFailureRate: Type.Number({ minimum: 0, maximum: 1, default: 0 }),
    /**
     * What cfn-init does with `commands`: succeed (recorded, not run), run (in the server's scratch
     * folder, a minimal environment, `cfnCommandTimeoutMs` at most), fail (each fails).
     */
    cfnCommands: Type.Union([Type.Literal('succeed'), Type.Literal('run'), Type.Literal('fail')], {
      default: 'succeed',
    }),
    cfnCommandTimeoutMs: Type.Integer({ minimum: 1, default: 10_000 }),
    /** How often cfn-hup polls (0: the `interval` of its cfn-hup.conf, in minutes). */
    cfnHupIntervalMs: Type.Integer({ minimum: 0, default: 0 }),
    /**
     * How Neutron picks a port's address when none is asked for: `first` (the first free one of
     * the subnet's pools: repeatable), or `random` (as Neutron's IPAM does: any of the first
     * thousand free ones).
     */
    ipAllocation: Type.Union([Type.Literal('first'), Type.Literal('random')], { default: 'first' }),
    /** Per-project quotas (-1: unlimited), as Nova, Neutron and Cinder name them. */
    quotas: Type.Object(
      {
        instances: Type.Integer({ minimum: -1, default: -1 }),
        cores: Type.Integer({ minimum: -1, default: -1 }),
        ram: Type.Integer({ minimum: -1, default: -1 }),
        key_pairs: Type.Integer({ minimum: -1, default: -1 }),
        network: Type.Integer({ minimum: -1, default: -1 }),
        subnet: Type.Integer({ minimum: -1, default: -1 }),
        port: Type.Integer({ minimum: -1, default: -1 }),
        router: Type.Integer({ minimum: -1, default: -1 }),
        floatingip: Type.Integer({ minimum: -1, default: -1 }),
        security_group: Type.Integer({ minimum: -1, default: -1 }),
        volumes: Type.Integer({ minimum: -1, default: -1 }),
        gigabytes: Type.Integer({ minimum: -1, default: -1 }),
      },
      { default: {}, additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type Noise = Static<typeof NoiseSchema>;
export type Quota = keyof Noise['quotas'];

/** The defaults: a quiet cloud whose servers boot in half a second. */
export function defaultNoise(): Noise {
  return Value.Default(NoiseSchema, { quotas: {}, agentGroups: {} }) as Noise;
}

/** The knobs whose changes merge key by key (a quota, a group's policy) instead of replacing. */
const NESTED = ['quotas', 'agentGroups'] as const;

/**
 * `current` with `changes` applied (quotas and agent groups merged one by one); throws a message
 * naming the first bad knob.
 */
export function mergeNoise(current: Noise, changes: unknown): Noise {
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes)) {
    throw new Error('noise settings must be a JSON object');
  }
  const merged: Record<string, unknown> = { ...current, ...(changes as Record<string, unknown>) };
  for (const key of NESTED) {
    const given = (changes as Record<string, unknown>)[key];
    if (given === undefined) continue;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new Error(`noise setting ${key} must be a JSON object`);
    }
    merged[key] = { ...current[key], ...given };
  }
  const error = Value.Errors(NoiseSchema, merged).First();
  if (error) throw new Error(`noise setting ${error.path.slice(1).replace(/\//g, '.')}: ${error.message}`);
  return merged as Noise;
}

/** The noise's random draws, replaceable for tests (a seeded source makes a run repeatable). */
export type Random = () => number;

/** Whether an event of probability `rate` happens this time. */
export function happens(rate: number, random: Random): boolean {
  return rate > 0 && random() < rate;
}

/** A latency draw: uniform in mean ± jitter, never negative. */
export function latency(noise: Noise, random: Random): number {
  if (noise.latencyMs === 0 && noise.latencyJitterMs === 0) return 0;
  return Math.max(0, Math.round(noise.latencyMs + (random() * 2 - 1) * noise.latencyJitterMs));
}
