import type { JsonObject } from '../../util/json.js';
import type {
  StackActivity,
  StackFilter,
  StackProgressCounts,
  StackQuery,
  StackStatusCount,
} from '../queries.js';
import type { StackAction, Status } from './actions.js';

/* Stacks, their templates and the legacy engine's stack locks. */

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
  /**
   * A nested stack's parent resource sections (`resource_facade`: metadata, deletion_policy,
   * update_policy), resolved by the parent; absent or null for a top-level stack's template.
   */
  facade?: JsonObject | null;
  createdAt: string;
}

/** Who walks a legacy stack now (Heat's stack_lock). */
export interface StackLock {
  stackId: string;
  engineId: string;
  acquiredAt: number;
}

/** The stacks table. */
export interface StackRepository {
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
}

/** What a stack tree's templates occupy: their distinct pieces (texts and digests, shared between versions). */
export interface TemplateFootprint {
  pieces: number;
  /** The pieces' characters, and their stored (deflated) bytes. */
  chars: number;
  bytes: number;
}

/**
 * The templates table: stored once, never modified. Texts and digests are kept in pieces each
 * stored once per stack tree (a new version writes the pieces it changed); a template's delete
 * removes the pieces no other template names.
 */
export interface TemplateRepository {
  /**
   * Stores a template of a stack of `rootStackId`'s tree (rows are placed by their root stack).
   * A template whose id is stored already is left as it is (a retried insert adds nothing).
   */
  insert(template: TemplateRecord, rootStackId: string, digests?: string): Promise<void>;
  get(id: string): Promise<TemplateRecord | undefined>;
  /** The per-resource digests stored with the template (engine/core/digests.ts), if any. */
  digests(id: string): Promise<string | undefined>;
  /** Which of `ids` are stored (by key: no template text read). */
  existing(ids: readonly string[]): Promise<Set<string>>;
  delete(id: string): Promise<void>;
  /** The pieces a stack tree's templates hold. */
  footprint(rootStackId: string): Promise<TemplateFootprint>;
}

/** Legacy engine mode's stack locks (engine/legacy/lock.ts): one engine walks a legacy stack at a time. */
export interface StackLockRepository {
  get(stackId: string): Promise<StackLock | undefined>;
  /**
   * Takes the stack's lock for `engineId`: when nobody holds it, or when `from` holds it (a steal
   * from a dead engine). False when another engine holds it.
   */
  acquire(stackId: string, engineId: string, now: number, from?: string): Promise<boolean>;
  /** Releases the lock if `engineId` holds it; false otherwise (it was stolen). */
  release(stackId: string, engineId: string): Promise<boolean>;
}
