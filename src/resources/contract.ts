import type { Value } from '../template/functions/types.js';
import type { AttributesSchema, PropertiesSchema } from '../template/properties/index.js';
import type { Json, JsonObject } from '../util/json.js';

/**
 * The contract every resource type implements, one type per file. Plugins reach state only
 * through the context they are given; they never import the engine or the store.
 *
 * Long operations are persisted polling: an action returns `progress`, the engine stores it and
 * calls the matching `check*Complete` later (in a new unit of work, possibly in another process),
 * until it reports done. No plugin ever sleeps.
 */

/** A physical resource, as a plugin's backend (or a fake backend) keeps it. */
export interface PhysicalObject {
  id: string;
  /** The idempotency key it was created with: a retried create finds it instead of making another. */
  key: string;
  type: string;
  properties: JsonObject;
  status: string;
}

/** Where plugins without a cloud keep their "physical" objects (tests swap in a fake that counts). */
export interface Reality {
  findByKey(type: string, key: string): Promise<PhysicalObject | undefined>;
  get(type: string, id: string): Promise<PhysicalObject | undefined>;
  put(object: PhysicalObject): Promise<void>;
  delete(type: string, id: string): Promise<boolean>;
}

export interface PluginContext {
  readonly resourceName: string;
  readonly resourceType: string;
  readonly stackId: string;
  readonly stackName: string;
  /**
   * Stable for one create attempt of the resource row: a resumed attempt (after a crash) has the
   * same, so it finds what it made; a retry after a failure (action_retry_limit) has a new one.
   */
  readonly idempotencyKey: string;
  readonly physicalId: string | null;
  /** Plugin-private data persisted with the resource (e.g. a generated value). */
  readonly data: Readonly<JsonObject>;
  /** The properties of the last successful create/update (for update and delete). */
  readonly storedProperties: Readonly<Record<string, Value>> | null;
  readonly reality: Reality;
  now(): number;
  random(): number;
}

/**
 * What a signal handler is given: the resource as any action sees it, and the one way to change
 * its state. The changes are committed with the signal's event, or not at all.
 */
export interface SignalContext extends PluginContext {
  /**
   * The same on every run of one signal's handler: it may run again after a crash, or on fresh data
   * when another writer changed the resource meanwhile. Key any outside effect on it.
   */
  readonly signalId: string;
  /** Merges `changes` into the resource's persisted data (`data` shows it as it was before). */
  setData(changes: JsonObject): void;
}

/** The result of starting an action. */
export interface ActionResult {
  /** The physical resource id (create; an update that replaces its backend object may change it). */
  physicalId?: string;
  /** Data to persist with the resource (merged into `data`). */
  data?: JsonObject;
  /** Set when the action continues: the engine calls check*Complete with it later. */
  progress?: Json;
  /** When to poll first (ms); the engine backs off from there. */
  pollAfterMs?: number;
}

/** The result of one completion check: done, or not yet (with new progress and when to poll again). */
export interface PollResult {
  done: boolean;
  physicalId?: string;
  data?: JsonObject;
  progress?: Json;
  pollAfterMs?: number;
}

/** The live state of the physical resource, for drift detection and converge updates. */
export type RealityState = { state: 'present'; properties: Record<string, Value> } | { state: 'gone' };

/** An action failed: the resource goes to <ACTION>_FAILED with this message. */
export class ResourceFailure extends Error {
  override readonly name: string = 'ResourceFailure';
}

/**
 * The physical resource went to an error state (or the cloud refused the call for now, e.g. a
 * conflict): Heat's ResourceInError. Deleting it and trying again may succeed, so the engine
 * retries such a failure up to action_retry_limit times (a create after deleting what it made, a
 * delete as it is); any other failure fails the resource at once.
 */
export class ResourceInError extends ResourceFailure {
  override readonly name: string = 'ResourceInError';
}

/** A signal handler has nothing to do for this signal: no event is recorded (Heat's NoActionRequired). */
export class NoActionRequired extends Error {
  override readonly name = 'NoActionRequired';
}

/** The change cannot be made in place: the engine creates a replacement, then deletes this one. */
export class UpdateReplace extends Error {
  override readonly name = 'UpdateReplace';
}

export interface ResourcePlugin {
  readonly type: string;
  readonly description: string;
  readonly properties: PropertiesSchema;
  readonly attributes: AttributesSchema;
  /** Attribute names beyond the schema that get_attr may read (e.g. a group's `resource.0`). */
  dynamicAttribute?(name: string): boolean;
  /**
   * The resource lives in its row alone (no backend object: None, Value, RandomString). Its
   * actions change nothing outside the engine's own writes, so the engine may run them without
   * committing a lock first: the write that records the result is the compare-and-swap.
   */
  readonly inRow?: boolean;

  create(ctx: PluginContext, properties: Record<string, Value>): Promise<ActionResult>;
  checkCreateComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;

  /**
   * Updates in place. `changed` names the properties that differ. Properties that are not
   * `updateAllowed` never reach here: the engine replaces instead. Absent: an update only stores
   * the new properties.
   */
  update?(
    ctx: PluginContext,
    properties: Record<string, Value>,
    previous: Record<string, Value>,
    changed: readonly string[],
  ): Promise<ActionResult>;
  checkUpdateComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;

  /**
   * Whether a change the schema would allow in place still needs a new resource (Heat's
   * needs_replace_with_prop_diff). Decided before anything runs, so an update preview and the
   * environment's `restricted_actions` see the replacement too (unlike an UpdateReplace thrown by
   * `update`). `changed` names the properties that differ.
   */
  needsReplace?(
    properties: Record<string, Value>,
    previous: Record<string, Value>,
    changed: readonly string[],
  ): boolean;

  /** Deletes the physical resource; a resource that is already gone is success. */
  delete(ctx: PluginContext): Promise<ActionResult>;
  checkDeleteComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;

  /** Probes the backend (stack check); absent: CHECK is not supported and succeeds. */
  check?(ctx: PluginContext): Promise<void>;

  /**
   * Handles a signal (`stack resource signal`) with the data sent along (a JSON object, or null).
   * Returns a short text for the signal's event ("Signal: <text>"), or nothing. Runs without the
   * resource's lock (a signal never waits behind an update), and may run more than once for one
   * signal: it changes state only through `ctx`. Absent: the type does not support signals.
   */
  handleSignal?(ctx: SignalContext, details: JsonObject | null): Promise<string | void>;

  /** The live state of the physical resource, or gone. */
  getReality(ctx: PluginContext): Promise<RealityState>;

  /** An attribute's value, computed after create/update and cached by the engine. */
  attribute(ctx: PluginContext, name: string, properties: Record<string, Value>): Promise<Value>;

  /** The value of get_resource; by default the physical id. */
  referenceId?(ctx: PluginContext): string | null;
}

/** Plugins by type name, and the view of them the template validator needs. */
export interface PluginCatalog {
  plugin(type: string): ResourcePlugin | undefined;
  readonly typeCatalog: import('../template/types.js').TypeCatalog;
  types(): string[];
}
