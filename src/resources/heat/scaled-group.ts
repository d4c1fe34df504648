import { createHash } from 'node:crypto';
import type { Value } from '../../template/functions/types.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { ChildOptions, NestedChild } from '../nested-type.js';
import { addBatches, type Batching, batching } from './batches.js';
import { CAPACITY_KEY, DESIRED_SEEN_KEY } from './scaling.js';

/*
 * The child stack of a scaling group (OS::Heat::AutoScalingGroup, OS::Heat::InstanceGroup,
 * AWS::AutoScaling::AutoScalingGroup): `capacity` identical members made from one definition,
 * oldest removed first, and a changed definition rolled out in batches.
 */

/** Row data keys: the members' names in creation order, and the counter new names come from. */
const MEMBERS_KEY = 'members';
const NEXT_KEY = 'next_member';
/**
 * Row data keys: a digest of the member definition the last child was made from, and of the one
 * every member had when the update under way began (so a retried or superseded update still
 * knows the definition changed and keeps its batches).
 */
const DEFINITION_KEY = 'member_definition';
const BASE_KEY = 'member_definition_base';

function digest(definition: Json): string {
  return createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 16);
}

/** A member's name: 12 characters, stable for its position in the group's history (like Heat's short ids). */
function memberName(n: number): string {
  return createHash('sha256').update(`member ${n}`).digest('hex').slice(0, 12);
}

/** The members' names, oldest first. */
export function memberNames(data: Readonly<JsonObject>): string[] {
  const list = data[MEMBERS_KEY];
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
}

/**
 * Heat replaces members in rolling batches only when their definition changed; a resize alone
 * adds or removes members all at once. Returns the batching, if any, and the keys to record.
 */
function rollingBatches(
  rollingUpdate: Value | undefined,
  data: Readonly<JsonObject>,
  definition: Json,
  options: ChildOptions,
  count: number,
): { batches: Batching | undefined; recorded: JsonObject } {
  const now = digest(definition);
  const last = typeof data[DEFINITION_KEY] === 'string' ? data[DEFINITION_KEY] : undefined;
  const kept = typeof data[BASE_KEY] === 'string' ? data[BASE_KEY] : undefined;
  const base = options.creating ? now : (options.settled ?? true) ? last : kept;
  const changed = base !== undefined && base !== now;
  const batches = changed ? batching({ rolling_update: rollingUpdate ?? null }, false, count) : undefined;
  return {
    batches,
    recorded: { [DEFINITION_KEY]: now, ...(base === undefined ? {} : { [BASE_KEY]: base }) },
  };
}

export interface ScaledChildSpec {
  capacity: number;
  /** What every member is: `type`, and `properties` and `metadata` when present. */
  member: JsonObject;
  /** Heat's rolling_update in HOT's names (min_in_service, max_batch_size, pause_time in seconds). */
  rollingUpdate: Value | undefined;
  /** The desired size the template gave, which the group followed (scaling.ts). */
  desired: number | null;
}

/** The child of `capacity` members, and the row data that remembers them. */
export function scaledChild(
  spec: ScaledChildSpec,
  data: Readonly<JsonObject>,
  options: ChildOptions,
): NestedChild {
  let next = typeof data[NEXT_KEY] === 'number' ? data[NEXT_KEY] : 0;
  let kept = memberNames(data);
  // Shrinking removes the oldest members; growing adds new names.
  if (kept.length > spec.capacity) kept = kept.slice(kept.length - spec.capacity);
  while (kept.length < spec.capacity) kept.push(memberName(next++));
  const def = spec.member;
  const resources: JsonObject = {};
  for (const name of kept) {
    const member: JsonObject = { type: def.type as Json };
    for (const key of ['properties', 'metadata'] as const) {
      if (isPlainObject(def[key])) member[key] = def[key] as Json;
    }
    setOwn(resources, name, member);
  }
  // A changed definition reaches the members in batches (created all at once, as in Heat).
  const { batches, recorded } = rollingBatches(spec.rollingUpdate, data, def, options, kept.length);
  if (batches) addBatches(resources, kept, batches, def);
  const template = { heat_template_version: '2015-04-30', resources };
  return {
    template: JSON.stringify(template),
    parameters: {},
    data: {
      [MEMBERS_KEY]: kept,
      [NEXT_KEY]: next,
      [CAPACITY_KEY]: spec.capacity,
      [DESIRED_SEEN_KEY]: spec.desired,
      ...recorded,
    },
  };
}
