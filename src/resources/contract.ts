import type { Cloud } from '../openstack/index.js';
import type { Value } from '../template/functions/types.js';
import type { AttributesSchema, PropertiesSchema } from '../template/properties/index.js';
import type { SoftwareService } from '../software/contract.js';
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
  /**
   * The software config whose id is `id` (the physical id of a resource of this project whose
   * type has `isSoftwareConfig`), as the config API would show it; undefined when no config has
   * that id, or it is not created yet.
   */
  softwareConfig(id: string): Promise<SoftwareConfig | undefined>;
  /** Heat's software config service for the stack's project (configs and deployments). */
  readonly software: SoftwareService;
  now(): number;
  random(): number;
  /**
   * Another resource of this stack as it is persisted now (e.g. the signals a wait condition's
   * handle received): `ref` is the reference id (get_resource) of a resource this one depends on,
   * or a resource's name. One indexed read, never the whole stack; undefined when there is none.
   */
  readResource(ref: string): Promise<PeerResource | undefined>;
  /**
   * How a client outside signals this resource through the API (Heat's TOKEN_SIGNAL endpoint and
   * token, and a pre-signed URL); undefined when the deployment has no signal key (tests).
   */
  signalCredentials(): SignalCredentials | undefined;
  /**
   * The credential of this resource's in-guest agent (a server whose user_data_format is
   * SOFTWARE_CONFIG) for `nonce`, which the resource keeps in its data as `agent_nonce`: the token
   * is valid while the row holds that nonce. Undefined when the deployment has no signing key.
   */
  agentCredentials?(nonce: string): AgentCredentials | undefined;
  /**
   * The EC2 keypair of this AWS::IAM::AccessKey resource for `nonce`, which it keeps in its data as
   * `key_nonce` (auth/stack-user-keys.ts). Undefined when the deployment has no signing key.
   */
  stackUserKeypair?(nonce: string): StackUserKeypair | undefined;
  /**
   * The resource's template `metadata` resolved against the resources it refers to (Heat's
   * metadata_get): what a server writes into its `cfn-init-data`. {} when it has none, or the
   * action runs outside a traversal.
   */
  metadata?(): Promise<JsonObject>;
  /**
   * The CFN API's URL as heat-cfntools reach it (`<public URL>/v1/`, Heat's cfn metadata server
   * URL), for a HEAT_CFNTOOLS server's user data; undefined when the deployment has no public URL.
   */
  cfnUrl?(): string | undefined;
  /**
   * The OpenStack cloud the stack's resources live in, logged in (the OS::Nova, OS::Neutron,
   * OS::Cinder types); throws a ResourceFailure naming what to configure when the deployment has
   * none.
   */
  openstack(): Cloud;
}

/** How a client outside reaches a resource's signal route. */
export interface SignalCredentials {
  /** The resource's signal route: POST here with the token in X-Auth-Token. */
  endpoint: string;
  /** Lets its holder signal this one resource and do nothing else. */
  token: string;
  /** A URL that needs no header: the token is in its path (Heat's pre-signed alarm_url). */
  alarmUrl: string;
  /**
   * Heat's pre-signed wait condition URL (the CFN API's `/waitcondition/<resource arn>`), which
   * `cfn-signal` or curl PUTs or POSTs to: good while the resource's physical id is `accessKey`.
   */
  waitConditionUrl(accessKey: string): string;
  /**
   * Heat's pre-signed signal URL (the CFN API's `/signal/<resource arn>`), an AWS scaling
   * policy's AlarmUrl, which an alarm or curl POSTs to: good while the physical id is `accessKey`.
   */
  cfnSignalUrl(accessKey: string): string;
}

/** What a server's agent authenticates with, and where it finds Hearth's API. */
export interface AgentCredentials {
  /** `hagt_<payload>.<hmac>`: the X-Auth-Token, password or URL segment of every transport. */
  token: string;
  /** The token split for the CFN transport: `hagt_<payload>` and the HMAC part. */
  accessKey: string;
  secretKey: string;
  /** The API's public URL, without a trailing slash. */
  publicUrl: string;
  projectId: string;
}

/** An EC2-style keypair (an AWS::IAM::AccessKey's): the access key id and its secret. */
export interface StackUserKeypair {
  accessKey: string;
  secretKey: string;
}

/** What SignalContext.adjustResource's change is given of the resource it adjusts. */
export interface AdjustedResource {
  readonly name: string;
  readonly type: string;
  readonly properties: Readonly<Record<string, Value>>;
  readonly data: Readonly<JsonObject>;
}

/** What a plugin may read of another resource of its stack (PluginContext.readResource). */
export interface PeerResource {
  readonly name: string;
  /** Its type, after the resource registry (the plugin that runs it). */
  readonly type: string;
  readonly physicalId: string | null;
  readonly action: string;
  readonly status: string;
  /** The resolved properties it was last created or updated with (null before its first create). */
  readonly properties?: Readonly<JsonObject> | null;
  /** Its plugin's persisted data. */
  readonly data: Readonly<JsonObject>;
}

/** A software config read by its id: what its resource was created with. */
export interface SoftwareConfig {
  id: string;
  /** The configuration tool it is for (Heat's `group`, default Heat::Ungrouped). */
  group: string;
  /** The config itself: text, or a structure (StructuredConfig). */
  config: Json;
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
  /**
   * Changes the desired state of another resource of the stack (a scaling policy's group): `ref`
   * is its reference id (get_resource) or name; `change` is given its properties (as last
   * converged) and data as they are when the signal's outcome is written, and returns changes to
   * merge into its data (or nothing). They are written with the signal's outcome, and the stack
   * converges again to its current template in the same transaction: like a user's update, this
   * supersedes a running traversal rather than waiting for it or failing.
   */
  adjustResource(ref: string, change: (peer: AdjustedResource) => JsonObject | undefined): void;
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
  /** See PollResult.wakeOnSignalTo. */
  wakeOnSignalTo?: string;
}

/** The result of one completion check: done, or not yet (with new progress and when to poll again). */
export interface PollResult {
  done: boolean;
  physicalId?: string;
  data?: JsonObject;
  progress?: Json;
  pollAfterMs?: number;
  /**
   * The name of a resource of this stack whose signals the operation waits for: the engine parks
   * the poll until that resource handles a signal, with `pollAfterMs` (not backed off) as the
   * latest time to poll anyway. Instead of polling a wait of many minutes every few seconds.
   */
  wakeOnSignalTo?: string;
}

/** The live state of the physical resource, for drift detection and converge updates. */
/**
 * A resource's live state. `failure`: the object exists but the cloud reports it broken (a server
 * in ERROR, a volume in error), with what it says; a converge or a heal replaces it.
 */
export type RealityState =
  { state: 'present'; properties: Record<string, Value>; failure?: string } | { state: 'gone' };

/**
 * An action failed: the resource goes to <ACTION>_FAILED with this message, shown as Heat shows it
 * (`<heatClass>: resources.<name>: <message>`). `heatClass` is the exception class Heat's own
 * plugin would raise for the same fault (Heat's generic `Error` when not given), since clients
 * and scripts match on it.
 */
export class ResourceFailure extends Error {
  override readonly name: string = 'ResourceFailure';
  readonly heatClass: string;
  /**
   * Row data the failed operation learned (a deployment's outputs), kept with the failure so the
   * resource's attributes show it, as Heat's attributes of a failed resource do.
   */
  readonly data: JsonObject | undefined;

  constructor(message: string, options?: { heatClass?: string; cause?: unknown; data?: JsonObject }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.heatClass = options?.heatClass ?? this.defaultHeatClass();
    this.data = options?.data;
  }

  protected defaultHeatClass(): string {
    return 'Error';
  }
}

/**
 * The physical resource went to an error state (or the cloud refused the call for now, e.g. a
 * conflict): Heat's ResourceInError. Deleting it and trying again may succeed, so the engine
 * retries such a failure up to action_retry_limit times (a create after deleting what it made, a
 * delete as it is); any other failure fails the resource at once.
 */
export class ResourceInError extends ResourceFailure {
  override readonly name: string = 'ResourceInError';

  protected override defaultHeatClass(): string {
    return 'ResourceInError';
  }
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
   * Its physical id is a software config's id: others read its `config` attribute and `group`
   * property by that id (PluginContext.softwareConfig), as Heat's configs are read from the API.
   */
  readonly isSoftwareConfig?: boolean;
  /**
   * The resource lives in its row alone (no backend object: None, Value, RandomString). Its
   * actions change nothing outside the engine's own writes, so the engine may run them without
   * committing a lock first: the write that records the result is the compare-and-swap.
   */
  readonly inRow?: boolean;
  /**
   * false: `getReality` reads nothing but the resource's own row (rowReality: None, Value, the
   * configs, a nested stack's resource), so it cannot see a change made outside Hearth. Drift
   * detection reports such a resource NOT_CHECKED. Absent: it observes its backend.
   */
  readonly observes?: false;
  /**
   * Every stack update replaces it, changed or not (Heat's UpdateWaitConditionHandle: a new URL
   * and no signals after each update). A re-convergence to the template it has (a scaling signal,
   * a heal) leaves it alone.
   */
  readonly replacedOnUpdate?: true;

  create(ctx: PluginContext, properties: Record<string, Value>): Promise<ActionResult>;
  checkCreateComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;

  /**
   * Takes over an existing physical resource (`stack adopt`, Heat's handle_adopt): `ctx` carries
   * the physical id and data the adopt document gave. Must be idempotent. Absent: recording the id
   * and data is all there is to it, as in Heat; nothing is created either way.
   */
  adopt?(ctx: PluginContext, properties: Record<string, Value>): Promise<void>;

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

  /**
   * Readies the resource for its replacement, which is created before it is deleted (Heat's
   * prepare_for_replace: a server detaches the ports its replacement must bind). `progress` is null
   * at first, then what the previous call returned until one reports done (persisted polling). May
   * run again from null after a crash: it must look before it acts. Absent: nothing to ready.
   */
  prepareForReplace?(ctx: PluginContext, progress: Json | null): Promise<PollResult>;
  /**
   * Undoes prepareForReplace when the resource is the stack's again (a rollback gave its
   * replacement up: Heat's restore_prev_rsrc), polled the same way. The replacement may still be
   * being deleted meanwhile.
   */
  restorePrevious?(ctx: PluginContext, progress: Json | null): Promise<PollResult>;

  /** Deletes the physical resource; a resource that is already gone is success. */
  delete(ctx: PluginContext): Promise<ActionResult>;
  checkDeleteComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;

  /** Probes the backend (stack check); absent: CHECK is not supported and succeeds. */
  check?(ctx: PluginContext): Promise<void>;

  /**
   * Suspends and resumes the physical resource (stack suspend / resume), with completion checks as
   * for the other actions. Absent: the resource has nothing to suspend and only records the state.
   */
  suspend?(ctx: PluginContext): Promise<ActionResult>;
  checkSuspendComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;
  resume?(ctx: PluginContext): Promise<ActionResult>;
  checkResumeComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;

  /**
   * Takes a snapshot of the physical resource (`stack snapshot create`, Heat's handle_snapshot): a
   * volume's backup, a server's image. Returns in `data` what the snapshot keeps of it (merged into
   * the resource's data in the snapshot document, e.g. the backup's id), and `progress` while it is
   * being made: `checkSnapshotComplete` is polled with it. Absent: the resource's data is recorded
   * as it is. `ctx.idempotencyKey` is the snapshot's own (the same on every run of this resource's
   * step of one snapshot): mark what it makes with it, so a step run again finds it.
   */
  snapshot?(ctx: PluginContext): Promise<ActionResult>;
  checkSnapshotComplete?(ctx: PluginContext, progress: Json): Promise<PollResult>;
  /**
   * Deletes what `snapshot` made (Heat's handle_delete_snapshot), given the resource's data in the
   * snapshot; something already gone is success. `ctx` describes the resource as the snapshot
   * recorded it (it may no longer exist).
   */
  deleteSnapshot?(ctx: PluginContext, data: JsonObject): Promise<void>;
  /**
   * The resource's template properties (as written, functions included) rewritten to bring it back
   * from its data in a snapshot (Heat's handle_restore: a volume from its backup, a server from its
   * image). Absent: the snapshot's template is used as it is.
   */
  restoreProperties?(properties: JsonObject, data: JsonObject): JsonObject;

  /**
   * Handles a signal (`stack resource signal`) with the data sent along (a JSON object, or null).
   * Returns a short text for the signal's event ("Signal: <text>"), or nothing. Runs without the
   * resource's lock (a signal never waits behind an update), and may run more than once for one
   * signal: it changes state only through `ctx`. Absent: the type does not support signals.
   */
  handleSignal?(ctx: SignalContext, details: JsonObject | null): Promise<string | void>;
  /**
   * The resource actions during which a signal is refused (Heat's no_signal_actions); absent:
   * SUSPEND and DELETE. A deployment takes its agent's signals during every action it runs.
   */
  readonly noSignalActions?: readonly string[];

  /**
   * What an operation still waiting when the stack times out says, when the type knows more than
   * Heat's `<ACTION> aborted (Timed out)` (a deployment whose agent never answered). Given the
   * action, the wait's saved progress and the time; undefined: Heat's text alone.
   */
  timeoutReason?(action: string, progress: Json, now: number): string | undefined;

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
