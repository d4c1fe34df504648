import type { StackOutput } from '../engine/context/outputs.js';
import type { UpdatePlan } from '../engine/operations/update-plan.js';
import type { ObservePolicy } from '../store/contract.js';
import type { Environment, Hook } from '../template/environment/index.js';
import type { StackInput } from '../template/loader.js';
import type { Json, JsonObject } from '../util/json.js';

/*
 * What the stack commands need of Hearth, whether the engine runs in this process on a SQLite file
 * (EmbeddedBackend) or a server does behind Heat's REST API (RemoteBackend, `--url`). The values
 * are what the CLI prints, in Heat's terms (statuses `ACTION_STATUS`, times to the second in UTC),
 * so that a command prints the same in both modes.
 */

/** How a `--wait` shows the operation's progress (progress.ts draws it). */
export interface WaitDisplay {
  /** A terminal gets a status block redrawn in place (when stderr is one). */
  tty: boolean;
  /** Throw StackFailed when the operation ends FAILED (a cancel ends FAILED by design). */
  failOnFailure: boolean;
  /**
   * Events and progress lines go to stderr: stdout carries only a machine-readable document
   * (`-f json|yaml|value`). Otherwise they go where the command prints, as `openstack` does.
   */
  logToStderr?: boolean;
  /** `--poll SECONDS`: how often a remote wait asks the server (the embedded engine reports as it goes). */
  pollMs?: number;
  /** Event lines colour their status (where they go is a terminal, or FORCE_COLOR; no NO_COLOR). */
  colour?: boolean;
}

export interface StackRef {
  id: string;
  name: string;
}

/** A stack as `stack list` shows it. */
export interface StackSummary extends StackRef {
  status: string;
  reason: string;
  creationTime: string | null;
  /** Null until the stack's first update, as in Heat. */
  updatedTime: string | null;
  parent: string | null;
}

/** A stack as `stack show` and the operations show it. */
export interface StackInfo extends StackSummary {
  disableRollback: boolean;
  timeoutMins: number | null;
  tags: string[];
  /** Continuous observation (Hearth's): seconds between observations and healing; absent when off. */
  observe?: { intervalSeconds: number; heal: boolean };
}

export interface ResourceInfo {
  name: string;
  physicalId: string;
  type: string;
  status: string;
  reason: string;
  updatedTime: string | null;
  /** The stack the resource belongs to (a nested one's, with a nested depth). */
  stackName: string;
}

export interface ResourceDetail extends ResourceInfo {
  attributes: Json;
  requiredBy: string[];
}

export interface EventInfo {
  id: string;
  resourceName: string;
  physicalId: string;
  status: string;
  reason: string;
  time: string | null;
}

/** A resource a create would make (`--dry-run`); `properties` null where not known before. */
export interface PreviewResource {
  name: string;
  type: string;
  parentResource: string | null;
  requiredBy: string[];
  properties: Json;
}

/** What an update would do to a resource (`--dry-run`). */
export interface PreviewChange {
  change: 'unchanged' | 'updated' | 'replaced' | 'added' | 'deleted';
  name: string;
  type: string;
  physicalId: string;
  status: string;
  parentResource: string | null;
}

/** A resource waiting at a hook, named by its path from the top stack (`parent/child`). */
export interface PendingHook {
  path: string;
  hook: Hook;
  stackName: string;
}

export interface NewStack {
  name: string;
  template: StackInput;
  timeoutMins: number | null;
  disableRollback: boolean;
  tags: string[];
  /** Continuous observation (`--observe SECONDS`, `--heal`); absent: off. */
  observe?: ObservePolicy;
}

/** `stack adopt`: a stack made from an abandon document (its template, resources' ids and data). */
export interface AdoptStack {
  name: string;
  /** The document's text, as read from the file. */
  document: string;
  /** `-e` and `--parameter`, over the document's own environment. */
  environment: Environment;
  /** The files the environments name. */
  files: Record<string, string>;
  timeoutMins: number | null;
  disableRollback: boolean;
}

/** An update: a new template, or (`parameters` given, Heat's `existing`) the stored one changed. */
export interface StackChange {
  template?: StackInput;
  parameters?: Record<string, Json>;
  disableRollback?: boolean;
  /** null: back to the default (stack_action_timeout). */
  timeoutMins?: number | null;
  /** Decide from the resources' live state (`--converge`). */
  converge?: boolean;
  /** Start or change (a policy) or stop (null) continuous observation; absent: as it is. */
  observe?: ObservePolicy | null;
}

export type StackVisit = 'check' | 'suspend' | 'resume';

/**
 * Stack operations. One given a `wait` display runs to its end showing progress and returns the
 * stack then (undefined once it is gone); otherwise it returns the stack as the operation started it.
 */
export interface StackOperations {
  listStacks(nested: boolean): Promise<StackSummary[]>;
  /** A stack by name or id. */
  findStack(nameOrId: string): Promise<StackInfo>;
  createStack(request: NewStack, wait?: WaitDisplay): Promise<StackInfo | undefined>;
  adoptStack(request: AdoptStack, wait?: WaitDisplay): Promise<StackInfo | undefined>;
  updateStack(stack: StackRef, change: StackChange, wait?: WaitDisplay): Promise<StackInfo | undefined>;
  deleteStack(stack: StackRef, wait?: WaitDisplay): Promise<void>;
  /** `check`, `suspend`, `resume`: an operation over the stack's resources. */
  visitStack(stack: StackRef, visit: StackVisit, wait?: WaitDisplay): Promise<StackInfo | undefined>;
  cancelStack(stack: StackRef, rollback: boolean, wait?: WaitDisplay): Promise<StackInfo | undefined>;
  abandonStack(stack: StackRef): Promise<JsonObject>;
  /** Shows the progress of the stack's current operation until it ends. */
  waitForStack(stack: StackRef, display: WaitDisplay): Promise<StackInfo | undefined>;
  previewCreate(request: NewStack): Promise<PreviewResource[]>;
  previewUpdate(stack: StackRef, change: StackChange, nested: boolean): Promise<PreviewChange[]>;
  /** `stack plan`: what the update would do, with the property-level diffs. */
  planUpdate(stack: StackRef, change: StackChange, nested: boolean): Promise<UpdatePlan>;
}

/** What a stack is made of and what happened to it. */
export interface StackDetails {
  /** The outputs with their values, or (`values` false) only their keys and descriptions. */
  outputs(stack: StackRef, values: boolean): Promise<StackOutput[]>;
  output(stack: StackRef, key: string): Promise<StackOutput>;
  resources(stack: StackRef, nestedDepth: number): Promise<ResourceInfo[]>;
  resource(stack: StackRef, name: string): Promise<ResourceDetail>;
  events(stack: StackRef): Promise<EventInfo[]>;
  /** The stack's template, as text to print. */
  template(stack: StackRef): Promise<string>;
}

/** A resource's drift result: its live state against what it was last converged to. */
export interface DriftResourceInfo {
  name: string;
  /** The stack it belongs to (a nested stack's, for resources of nested stacks). */
  stackName: string;
  type: string;
  physicalId: string;
  /** IN_SYNC, MODIFIED, DELETED, NOT_CHECKED or FAILED. */
  status: string;
  /** The properties that differ (MODIFIED), secret values masked. */
  diff: { property: string; expected: Json; actual: Json }[];
  /** Why it was NOT_CHECKED, or the error of a FAILED check. */
  reason: string;
  detectedTime: string | null;
}

/** A stack's drift: counts by status over it and its nested stacks, and resources' results. */
export interface DriftInfo {
  stackName: string;
  detectedTime: string | null;
  counts: Record<string, number>;
  resources: DriftResourceInfo[];
}

/** Drift detection (docs/drift.md). */
export interface DriftActions {
  /** Detects drift now, to the end: the summary and the resources that are not IN_SYNC. */
  detectDrift(stack: StackRef): Promise<DriftInfo>;
  /** The last detection's results, every resource's. */
  showDrift(stack: StackRef): Promise<DriftInfo>;
}

/** What is done to single resources: marks, signals, hooks. */
export interface ResourceActions {
  markUnhealthy(stack: StackRef, resource: string, reason: string): Promise<void>;
  /** Sends a signal (the embedded engine returns once it has been handled; a handler's error is thrown). */
  signal(stack: StackRef, resource: string, data: JsonObject | null): Promise<void>;
  pendingHooks(stack: StackRef): Promise<PendingHook[]>;
  /** Clears the given hooks of the resource at `path` (none given: the one it waits at). */
  clearHooks(stack: StackRef, path: string, hooks: Hook[]): Promise<void>;
}

/**
 * Software configs and deployments (`hearth software ...`), in Heat's API shapes; a missing one
 * throws an error naming its id.
 */
export interface SoftwareActions {
  listSoftwareConfigs(): Promise<JsonObject[]>;
  showSoftwareConfig(id: string): Promise<JsonObject>;
  /** `body`: Heat's create body (`name`, `group`, `config`, `inputs`, `outputs`, `options`). */
  createSoftwareConfig(body: JsonObject): Promise<JsonObject>;
  deleteSoftwareConfig(id: string): Promise<void>;
  listSoftwareDeployments(serverId?: string): Promise<JsonObject[]>;
  showSoftwareDeployment(id: string): Promise<JsonObject>;
  deleteSoftwareDeployment(id: string): Promise<void>;
  /** A server's `deployments` metadata: its deployments' configs, by name. */
  softwareMetadata(serverId: string): Promise<JsonObject[]>;
}

/** The stack commands' view of Hearth, opened for one command and closed after it. */
export interface Backend
  extends StackOperations, StackDetails, ResourceActions, DriftActions, SoftwareActions {
  close(): Promise<void>;
}
