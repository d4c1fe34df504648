import type { Json, JsonObject } from '../util/json.js';
import type { DriftRecord, DriftSummary, HealRecord, ObserverCounts } from './reality.js';
import type {
  EventQuery,
  StackActivity,
  StackFilter,
  StackProgressCounts,
  StackQuery,
  StackStatusCount,
  WorkQueueStats,
} from './queries.js';
export * from './queries.js';
export * from './reality.js';

/**
 * The persistence contract of Hearth. The engine reads and writes state only through it, and every
 * backend (sqlite/, postgres/) passes the same contract tests. A `Tx` is one database transaction:
 * a state change and the work it enables commit together (the work queue lives in the same
 * database), so no progress exists only in memory.
 */

export type StackAction =
  | 'INIT'
  | 'CREATE'
  | 'UPDATE'
  | 'DELETE'
  | 'ROLLBACK'
  | 'CHECK'
  | 'SUSPEND'
  | 'RESUME'
  | 'ADOPT'
  | 'SNAPSHOT';
export type Status = 'IN_PROGRESS' | 'COMPLETE' | 'FAILED';
export type ResourceAction = StackAction;

export interface StackRecord {
  id: string;
  name: string;
  projectId: string;
  /** The parent stack of a nested stack, and the resource of the parent it implements. */
  parentId: string | null;
  parentResource: string | null;
  /** The top of the nesting tree: every row of a tree carries it, so work never spans two roots. */
  rootId: string;
  action: StackAction;
  status: Status;
  reason: string;
  /** The only traversal allowed to make progress; '' when none is (after a failure). */
  traversalId: string;
  templateId: string | null;
  /** The template current when the running operation started: the rollback target. */
  prevTemplateId: string | null;
  convergence: boolean;
  timeoutMins: number | null;
  disableRollback: boolean;
  tags: string[];
  createdAt: string;
  updatedAt: string | null;
  deletedAt: string | null;
  /** Continuous observation of a top-level stack (engine/reality/observer.ts); null: off. */
  observe: ObservePolicy | null;
  /**
   * Whose credentials the stack's cloud calls use: the root's, copied to its nested stacks when they
   * are made (null: none recorded, as a row the engine never reads for a cloud).
   */
  credentials: StackCredentials | null;
}

/**
 * Where the credentials of a stack's cloud calls come from, decided at create and never changed
 * (Heat keeps the creator's): a Keystone trust from the creating user to Hearth's service user
 * (its id sealed with the deployment key: auth/secret-box.ts), the project's own cloud
 * (`hearth manage project set-cloud`), or the deployment's configured login (the embedded CLI,
 * noauth, and stacks made before owners had credentials).
 */
export type StackCredentials = (
  { kind: 'trust'; sealedTrustId: string; trustorId: string } | { kind: 'project' } | { kind: 'deployment' }
) & {
  /**
   * The region whose endpoints the calls use (absent: the cloud's own): a child stack of an
   * `OS::Heat::Stack` with `context.region_name`, and every stack nested in it.
   */
  region?: string;
};

/**
 * A stack snapshot (Heat's `stack snapshot create`): what the stack was (template, environment,
 * files, parameters) and what each resource's type recorded of its data (a volume's backup, a
 * server's image), in `data`, Heat's snapshot document.
 */
export interface SnapshotRecord {
  id: string;
  stackId: string;
  projectId: string;
  name: string | null;
  /** IN_PROGRESS while resources are being snapshotted, then COMPLETE or FAILED. */
  status: Status;
  statusReason: string;
  /** The SNAPSHOT traversal taking it (cleared once it ended). */
  traversalId: string;
  data: JsonObject | null;
  /** Set when its delete was asked: a unit of work deletes what it made, then the row. */
  deleting: boolean;
  createdAt: string;
  updatedAt: string | null;
}

/** Who walks a legacy stack now (Heat's stack_lock). */
export interface StackLock {
  stackId: string;
  engineId: string;
  acquiredAt: number;
}

export interface ObservePolicy {
  /** How often the live state is read. */
  intervalMs: number;
  /** Whether what drifted is converged back (a heal traversal), or only recorded. */
  heal: boolean;
}

/** A template version with its environment and files, stored once and never modified. */
export interface TemplateRecord {
  id: string;
  /** The template document as the user wrote it (text, YAML or JSON). */
  template: string;
  /** The template's URL (file:// for local files), the base for relative paths. */
  url: string;
  files: Record<string, string>;
  /** The merged environment, in Heat's JSON shape. */
  environment: JsonObject;
  createdAt: string;
}

export interface ResourceRecord {
  /** Row id: several rows may share one name (an old row and its replacement). */
  id: number;
  uuid: string;
  stackId: string;
  rootStackId: string;
  name: string;
  type: string;
  action: ResourceAction;
  status: Status;
  reason: string;
  physicalId: string | null;
  /** The template this row was last successfully converged to (null before its first create). */
  templateId: string | null;
  /** The resolved properties it was last created or updated with. */
  properties: JsonObject | null;
  /** Cached attribute values, so get_attr and outputs need no live call. */
  attributes: JsonObject;
  /** Plugin-private data (e.g. a RandomString's value, a signal token). */
  data: JsonObject;
  /** In-flight operation state of a plugin, for persisted polling. */
  progress: Json;
  /** Row ids this resource depended on at its last update (union of old and new while updating). */
  requires: number[];
  replaces: number | null;
  replacedBy: number | null;
  /** The resource lock: the engine working on it, and a counter every locked write bumps. */
  engineId: string | null;
  atomicKey: number;
  /** Set by `mark-unhealthy`: the next update replaces it. */
  unhealthy: boolean;
  /**
   * Create attempts of this row that failed and were retried (action_retry_limit): each attempt
   * has its own idempotency key, so a retry never finds the failed attempt's deleted object.
   */
  createRetries: number;
  createdAt: string;
  updatedAt: string | null;
}

/** The fields of a row that planning a traversal reads (see `resources.listHeads`). */
export type ResourceHead = Pick<
  ResourceRecord,
  | 'id'
  | 'name'
  | 'type'
  | 'action'
  | 'status'
  | 'physicalId'
  | 'requires'
  | 'replacedBy'
  | 'engineId'
  | 'atomicKey'
  | 'templateId'
>;

/** The fields of a row that comparing it with a new definition reads (`resources.listStates`). */
export type ResourceState = ResourceHead &
  Pick<ResourceRecord, 'uuid' | 'createRetries' | 'unhealthy' | 'properties' | 'attributes' | 'data'>;

export interface EventRecord {
  id: number;
  uuid: string;
  stackId: string;
  /** The stack's name for stack events, the resource's name for resource events. */
  resourceName: string;
  resourceType: string;
  physicalId: string | null;
  action: string;
  status: string;
  reason: string;
  createdAt: string;
}

/** What identifies one claim of a work item (a WorkItem is one). */
export interface Claim {
  readonly id: number;
  readonly claimedBy: string | null;
}

/**
 * A unit of work tried to record its outcome after losing its claim (its engine was presumed dead
 * and another took the item over). Its transaction rolls back: the new claimer runs the unit.
 */
export class ClaimLostError extends Error {
  constructor(readonly itemId: number) {
    super(`unit of work ${itemId} is no longer claimed by this engine`);
    this.name = 'ClaimLostError';
  }
}

/** A unit of work: "check node N of traversal T" (or another kind), claimable by any engine. */
export interface WorkItem {
  id: number;
  rootStackId: string;
  stackId: string;
  traversalId: string;
  kind: string;
  /** The graph node, e.g. `u:12` (update node of resource row 12) or `c:7` (cleanup of row 7). */
  node: string;
  payload: Json;
  /** Not claimable before this time (persisted polling and backoff). */
  runAt: number;
  attempts: number;
  /**
   * The claim: `<engine id>#<attempt>`, unique to one claim of the item (a fencing token). A unit
   * writes its outcome only while the item is still claimed with this token.
   */
  claimedBy: string | null;
  claimExpires: number | null;
  /**
   * The key of the event the item is parked on (e.g. `stack:<id>`: that nested stack finished), or
   * null. A parked item stays queued (its locks stay held) until `wakeWaiting(key)` or its runAt.
   */
  waitingFor: string | null;
}

export interface NewWork {
  rootStackId: string;
  stackId: string;
  traversalId: string;
  kind: string;
  node: string;
  payload?: Json;
  runAt?: number;
}

/** One traversal's graph, persisted: nodes with the count of predecessors not yet done. */
export interface TraversalRecord {
  id: string;
  stackId: string;
  rootStackId: string;
  action: StackAction;
  templateId: string | null;
  /** Nodes not yet finished; the traversal is complete at 0. */
  remaining: number;
  createdAt: string;
  /**
   * Whether this update compares resources with their live state before deciding (engine/nodes/converge.ts):
   * every resource (`--converge`, `observe_on_update`), or only those the last drift detection found
   * changed, in the listed stacks (a heal); null: with the stored state, as usual.
   */
  converge: ConvergeScope | null;
}

export type ConvergeScope = { mode: 'all' } | { mode: 'drifted'; stacks: string[] };

export interface SyncPointRecord {
  traversalId: string;
  node: string;
  stackId: string;
  /** Predecessors that have not reported yet. */
  waiting: number;
  /** Nodes that need this one (the edges out), so a finishing node knows whom to notify. */
  dependents: string[];
  /** Data reported by finished predecessors, by predecessor node. */
  inputs: Record<string, Json>;
  done: boolean;
}

/** One row's locked write (see resources.update). */
export interface LockedWrite {
  id: number;
  expectedKey: number;
  expectedEngine: string | null;
  changes: Partial<ResourceRecord>;
}

/** A finished node's data for one node that needs it. */
export interface SyncReport {
  /** The node reported to. */
  node: string;
  /** The finished node. */
  from: string;
  data: Json;
}

export interface ServiceRecord {
  engineId: string;
  host: string;
  pid: number;
  startedAt: number;
  heartbeatAt: number;
}

export interface ProjectRecord {
  id: string;
  name: string;
  createdAt: string;
}

export interface UserRecord {
  id: string;
  name: string;
  projectId: string;
  roles: string[];
  createdAt: string;
  /** When the user was disabled; null: enabled. A disabled user's tokens are refused. */
  disabledAt: string | null;
}

/** A live resource that has a given physical id, and the stack (and project) it belongs to. */
export interface PhysicalIdManager {
  physicalId: string;
  stackId: string;
  stackName: string;
  projectId: string;
}

/** An API token: only its hash is stored, so a copy of the database grants nothing. */
export interface TokenRecord {
  id: string;
  tokenHash: string;
  userId: string;
  /** ms since the epoch; null never expires. */
  expiresAt: number | null;
  createdAt: string;
  /** When the token was revoked; null: not revoked. */
  revokedAt: string | null;
}

/** A token as listings show it, with its user and project: never its hash. */
export interface TokenListing extends Omit<TokenRecord, 'tokenHash'> {
  userName: string;
  projectId: string;
  projectName: string;
  userDisabled: boolean;
}

/** Repositories available inside a transaction. Every method runs in the transaction it belongs to. */
export interface Tx {
  stacks: {
    insert(stack: StackRecord): Promise<void>;
    get(id: string): Promise<StackRecord | undefined>;
    findByName(projectId: string, name: string): Promise<StackRecord | undefined>;
    list(filter: StackFilter): Promise<StackRecord[]>;
    /** A page of stacks in the query's order (default newest first, as Heat lists them). */
    query(query: StackQuery): Promise<StackRecord[]>;
    /** How many stacks the query matches, whatever its page (limit and marker are ignored). */
    count(query: StackQuery): Promise<number>;
    /**
     * Compare-and-swap on the traversal: writes `changes` only if the stored traversal is still
     * `expectedTraversal`. Returns false when another operation got there first.
     */
    update(id: string, expectedTraversal: string | null, changes: Partial<StackRecord>): Promise<boolean>;
    /** Child stacks that are not deleted. */
    children(parentId: string): Promise<StackRecord[]>;
    /** The stack's progress counts (for `--wait` displays); undefined if there is no such stack. */
    progress(id: string): Promise<StackProgressCounts | undefined>;
    /** A few names of the stack tree's running (longest first) and failed resources, `limit` of each. */
    activity(id: string, limit: number): Promise<StackActivity>;
    /** Live stacks (nested ones included) counted by action and status: one aggregate over an index. */
    countByStatus(): Promise<StackStatusCount[]>;
  };
  templates: {
    /** Stores a template of a stack of `rootStackId`'s tree (rows are placed by their root stack). */
    insert(template: TemplateRecord, rootStackId: string): Promise<void>;
    get(id: string): Promise<TemplateRecord | undefined>;
    delete(id: string): Promise<void>;
  };
  resources: {
    /** Inserts rows and returns them with their ids, in order. */
    insert(rows: Omit<ResourceRecord, 'id'>[]): Promise<ResourceRecord[]>;
    get(id: number): Promise<ResourceRecord | undefined>;
    getMany(ids: readonly number[]): Promise<ResourceRecord[]>;
    /** Rows of a stack that are not DELETE_COMPLETE. */
    listActive(stackId: string): Promise<ResourceRecord[]>;
    /** listActive() with only what planning a traversal needs (no JSON documents to decode). */
    listHeads(stackId: string): Promise<ResourceHead[]>;
    /**
     * listActive() with what an update's comparison of each row with its new definition reads
     * (no reason, progress, timestamps or ids of other tables: a third of the row, half the time).
     */
    listStates(stackId: string): Promise<ResourceState[]>;
    /** Every row of a stack, deleted ones included. */
    listAll(stackId: string): Promise<ResourceRecord[]>;
    /**
     * The rows of a stack that carry resource `name` and are not DELETE_COMPLETE (a replaced row
     * and its replacement share the name), by id: one resource's rows, through an index.
     */
    findByName(stackId: string, name: string): Promise<ResourceRecord[]>;
    /**
     * The rows whose physical id is `physicalId` and that are not DELETE_COMPLETE, by id, from any
     * stack. No index serves it (one on every row's physical id would slow every create): for rare
     * lookups only (a software config referenced from another stack).
     */
    findByPhysicalId(physicalId: string): Promise<ResourceRecord[]>;
    /**
     * Who manages each of `physicalIds`: the live resources of live stacks (any project) with one of
     * them as physical id. Scans like findByPhysicalId: for adopt and external_id checks only.
     */
    managersOf(physicalIds: readonly string[]): Promise<PhysicalIdManager[]>;
    /**
     * Locked write: applies `changes` and bumps atomicKey only if the row still has `expectedKey`
     * and `expectedEngine` (null = unlocked). Returns the new row, or undefined if it lost the race.
     */
    update(
      id: number,
      expectedKey: number,
      expectedEngine: string | null,
      changes: Partial<ResourceRecord>,
    ): Promise<ResourceRecord | undefined>;
    /**
     * update() for many rows, with multi-row statements: each write applies only if its row still
     * has its expected key and engine. Returns the ids written; a write whose id is missing lost
     * its race (its row changed meanwhile).
     */
    updateMany(writes: readonly LockedWrite[]): Promise<Set<number>>;
    /**
     * Unconditional write of many rows: records that they are converged to `templateId` as they
     * are (the unchanged resources of an update). Returns the number of rows written.
     */
    setTemplate(ids: readonly number[], templateId: string): Promise<number>;
    /** Removes rows physically. */
    delete(ids: readonly number[]): Promise<void>;
    /**
     * Removes the rows of a stack whose delete completed, or with `all` every row of it (the stack
     * is deleted). Returns how many went.
     */
    purge(stackId: string, all?: boolean): Promise<number>;
  };
  traversals: {
    insert(traversal: TraversalRecord): Promise<void>;
    get(id: string): Promise<TraversalRecord | undefined>;
    /**
     * Decrements `remaining` by `count` (negative: nodes added) and returns the new value.
     * Throws if the traversal does not exist.
     */
    finishNodes(id: string, count: number): Promise<number>;
    delete(id: string): Promise<void>;
  };
  sync: {
    insert(points: SyncPointRecord[]): Promise<void>;
    get(traversalId: string, node: string): Promise<SyncPointRecord | undefined>;
    /** The points of `nodes` that exist, inputs included (one query for a batch of nodes). */
    getMany(traversalId: string, nodes: readonly string[]): Promise<SyncPointRecord[]>;
    /**
     * Finished predecessors report: each report stores its data in the node's inputs and
     * decrements the node's `waiting`. Idempotent per (node, from): a repeated report changes
     * nothing, so a unit of work that runs twice counts once. Reports to points that are gone (a
     * superseded traversal) are ignored. Returns the nodes whose `waiting` these reports brought to
     * 0 and that are not done: each node is returned once, by the call that completed it.
     */
    report(traversalId: string, reports: readonly SyncReport[]): Promise<string[]>;
    /**
     * Marks nodes done. Returns the ones this call marked (not done before, still there), each with
     * its dependents as they are now: the caller reports to exactly those, exactly once.
     */
    markDone(
      traversalId: string,
      nodes: readonly string[],
    ): Promise<{ node: string; dependents: string[] }[]>;
    /** Adds `dependent` to the dependents of `node` (a cleanup node added during the traversal). */
    addDependent(traversalId: string, node: string, dependent: string): Promise<void>;
    deleteTraversal(traversalId: string): Promise<void>;
  };
  events: {
    append(events: Omit<EventRecord, 'id'>[]): Promise<void>;
    list(
      stackId: string,
      options?: { resourceName?: string; afterId?: number; limit?: number },
    ): Promise<EventRecord[]>;
    /**
     * A page of events in the query's order. A marker or uuid is looked up among the listed
     * stacks' events (there is no index on uuid: events are written far more often than read by id).
     */
    query(query: EventQuery): Promise<EventRecord[]>;
    /** The id of a stack's newest event (0 when it has none): where following its events starts. */
    latestId(stackId: string): Promise<number>;
  };
  work: {
    enqueue(items: NewWork[]): Promise<void>;
    /**
     * Removes a finished item. Throws ClaimLostError (rolling back the caller's transaction) when
     * the item is no longer claimed with `claim.claimedBy`: another engine took it over, and it
     * alone may write the unit's outcome now.
     */
    complete(claim: Claim): Promise<void>;
    /** complete() for many items: one statement; throws ClaimLostError if any claim was lost. */
    completeMany(claims: readonly Claim[]): Promise<void>;
    /**
     * Persisted polling: release the claim and make the item claimable again at `runAt`. With
     * `waitingFor`, the item is parked on that key: `wakeWaiting(key)` makes it due at once, and
     * `runAt` is only a safety deadline (no polling). Without it, the item waits for nothing (an
     * earlier key is cleared). Throws ClaimLostError as complete() does.
     */
    reschedule(claim: Claim, runAt: number, payload?: Json, waitingFor?: string): Promise<void>;
    /** Items of a traversal (for tests and cancellation). */
    listForTraversal(traversalId: string): Promise<WorkItem[]>;
    deleteForTraversal(traversalId: string): Promise<void>;
    /** Whether an item still exists (queued or claimed). */
    exists(id: number): Promise<boolean>;
    /** Whether a signal item for the same node was queued before item `id` and is still there. */
    signalQueuedBefore(node: string, id: number): Promise<boolean>;
    /** Makes every item claimed by `engineId` claimable now (that engine is dead, or stopping). */
    releaseClaimsOf(engineId: string, now: number): Promise<number>;
    /**
     * Extends the leases of these claims to `expires` (an engine's heartbeat, for the units it is
     * running), those whose lease ends before `renewBefore` only; a claim lost meanwhile is left
     * alone. Returns how many it extended.
     */
    renewClaims(claims: readonly Claim[], expires: number, renewBefore?: number): Promise<number>;
    /**
     * How many items of a stack are queued or running (an operation has settled at 0), its
     * observation (kind `observe`, which never ends) left out.
     */
    countForStack(stackId: string): Promise<number>;
    /**
     * The queue's size by state at `now`, for monitoring: read from indexes only (no item row is
     * decoded), one pass over the queue's smallest index.
     */
    stats(now: number): Promise<WorkQueueStats>;
    /**
     * Wakes items of a node now (e.g. a nested stack finished): sets runAt to `now` (never later).
     * For an item claimed at the time, its next `reschedule` makes it due no later than `now`, so
     * a wake that races a poll is not lost. Returns the number of items of the node.
     */
    wake(traversalId: string, node: string, now: number): Promise<number>;
    /**
     * The event `key` happened: every item parked on it becomes due at `now` (never later than it
     * was). The key stays set until the item's next `reschedule` or `complete`, so a wake that
     * arrives while the item is claimed (its worker looked, saw nothing yet, and is about to park it
     * again) makes that next `reschedule` due no later than `now`: no lost wake-up, provided the
     * item was parked on the key before the event could happen (e.g. in the transaction that
     * started what it waits for). Returns the number of items parked on the key.
     */
    wakeWaiting(key: string, now: number): Promise<number>;
  };
  drift: {
    /** Replaces every stored result of the stack with `records` (one detection's; none: clears them). */
    replace(stackId: string, rootStackId: string, records: readonly DriftRecord[]): Promise<void>;
    /** The stored results of a stack, by resource name. */
    list(stackId: string): Promise<DriftRecord[]>;
    /** The stored results of these stacks counted by status, with the newest detection time. */
    summary(stackIds: readonly string[]): Promise<DriftSummary>;
  };
  heals: {
    /** The records of a tree's stacks (one read for a whole observation), by stack and name. */
    listTree(rootStackId: string): Promise<HealRecord[]>;
    /** Inserts or replaces these records (by stack and resource name). */
    put(records: readonly HealRecord[]): Promise<void>;
    remove(stackId: string, names: readonly string[]): Promise<void>;
    /** Forgets every record of a tree (a person updated the stack: bounds start again). */
    clearTree(rootStackId: string): Promise<void>;
  };
  snapshots: {
    insert(snapshot: SnapshotRecord): Promise<void>;
    get(id: string): Promise<SnapshotRecord | undefined>;
    /** A stack's snapshots, oldest first. */
    list(stackId: string): Promise<SnapshotRecord[]>;
    /** The snapshot a SNAPSHOT traversal is taking, if any. */
    byTraversal(traversalId: string): Promise<SnapshotRecord | undefined>;
    /** Writes `changes`; false when there is no such snapshot. */
    update(
      id: string,
      changes: Partial<Omit<SnapshotRecord, 'id' | 'stackId' | 'projectId'>>,
    ): Promise<boolean>;
    /**
     * Records what one resource's type kept of it under `data.resources[name]`, merged with what
     * is there (resources of one snapshot record theirs concurrently). False: no such snapshot.
     */
    recordResource(id: string, name: string, entry: JsonObject): Promise<boolean>;
    delete(id: string): Promise<void>;
  };
  /** Legacy engine mode's stack locks (engine/legacy/lock.ts): one engine walks a legacy stack at a time. */
  stackLocks: {
    get(stackId: string): Promise<StackLock | undefined>;
    /**
     * Takes the stack's lock for `engineId`: when nobody holds it, or when `from` holds it (a steal
     * from a dead engine). False when another engine holds it.
     */
    acquire(stackId: string, engineId: string, now: number, from?: string): Promise<boolean>;
    /** Releases the lock if `engineId` holds it; false otherwise (it was stolen). */
    release(stackId: string, engineId: string): Promise<boolean>;
  };
  observerCounts: {
    /** Adds to a project's counters (created at zero). */
    add(counts: ObserverCounts): Promise<void>;
    list(): Promise<ObserverCounts[]>;
  };
  auth: {
    insertProject(project: ProjectRecord): Promise<void>;
    /** A project by id, or else by name. */
    findProject(idOrName: string): Promise<ProjectRecord | undefined>;
    /** Sets (null: clears) the cloud of clouds.yaml a project's stacks use; false when there is no such project. */
    setProjectCloud(projectId: string, cloud: string | null): Promise<boolean>;
    /** The cloud a project's stacks use; null when it has none, undefined when there is no such project. */
    projectCloud(projectId: string): Promise<string | null | undefined>;
    insertUser(user: UserRecord): Promise<void>;
    findUser(projectId: string, idOrName: string): Promise<UserRecord | undefined>;
    insertToken(token: TokenRecord): Promise<void>;
    /**
     * The token with this hash and its user, if the token, its user and the user's project all
     * exist (expiry, revocation and a disabled user are the caller's to judge). One query: the
     * API asks it on every request.
     */
    findToken(tokenHash: string): Promise<{ token: TokenRecord; user: UserRecord } | undefined>;
    /** Every project, by name. */
    listProjects(): Promise<ProjectRecord[]>;
    /** The users of one project, or of every project, by project id then name. */
    listUsers(projectId?: string): Promise<UserRecord[]>;
    /** Sets when the user was disabled (null: enables it); false when there is no such user. */
    setUserDisabled(userId: string, disabledAt: string | null): Promise<boolean>;
    /** Deletes the user and its tokens; false when there is no such user. */
    deleteUser(userId: string): Promise<boolean>;
    /** Deletes the project, its users and their tokens; false when there is no such project. */
    deleteProject(projectId: string): Promise<boolean>;
    /** Tokens (revoked and expired ones too) of a project and/or a user, oldest first. */
    listTokens(filter: { projectId?: string; userId?: string }): Promise<TokenListing[]>;
    /** A token by id, without its hash. */
    getToken(id: string): Promise<TokenListing | undefined>;
    /**
     * Revokes the named tokens, or every token of `userId`, not revoked yet; returns the ids it
     * revoked (an already revoked token keeps its first revocation time).
     */
    revokeTokens(
      which: { ids: readonly string[] } | { userId: string },
      revokedAt: string,
    ): Promise<string[]>;
  };
  settings: {
    /**
     * The setting's value; when it has none yet, `initial` becomes its value. Processes racing to
     * initialise one all get the first value written.
     */
    getOrInit(name: string, initial: string): Promise<string>;
  };
  services: {
    heartbeat(service: ServiceRecord): Promise<void>;
    list(): Promise<ServiceRecord[]>;
    get(engineId: string): Promise<ServiceRecord | undefined>;
    remove(engineId: string): Promise<void>;
  };
}

export interface Store {
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one read-only transaction (a consistent snapshot of committed state; a write
   * fails). It does not wait for this process's long write transactions (SQLite's read
   * connection): for API reads that must stay quick while the engine works.
   */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Claims up to `limit` items whose runAt has come and that no live claim holds, for `lease` ms.
   * Expired claims (a dead engine) are claimable again.
   */
  claimWork(engineId: string, now: number, limit: number, leaseMs: number): Promise<WorkItem[]>;
  /** The time (ms) the next item becomes claimable, or undefined if the queue is empty. */
  nextWorkTime(): Promise<number | undefined>;
  /**
   * Calls `listener` when work may have become due: after a transaction of this process enqueued
   * or woke some, and, where the backend can tell (PostgreSQL's NOTIFY), another process's. Returns
   * what stops it. A hint only: an engine still polls, at a slower pace.
   */
  onWork(listener: () => void): () => void;
  /** Creates or upgrades the schema (versioned migrations); returns the version it is at. */
  migrate(): Promise<number>;
  /** The version the schema is at (0: no schema yet), without changing anything. */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}
