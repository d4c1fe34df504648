import type { Json, JsonObject } from '../../util/json.js';
import type { EventQuery } from '../queries.js';
import type { ResourceAction, Status } from './actions.js';

/* Resources (one row per resource, and per replaced or replacing one) and their events. */

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

/** A row without its JSON documents (properties, attributes, data, progress): what a listing shows. */
export type ResourceListing = Omit<ResourceRecord, 'properties' | 'attributes' | 'data' | 'progress'>;

/** How many of a stack's current resources have one type, action and status (`resources.countCurrent`). */
export interface ResourceCount {
  type: string;
  action: string;
  status: string;
  count: number;
}

/** Counts of the same type, action and status added up, in that order. */
export function addUpCounts(counts: readonly ResourceCount[]): ResourceCount[] {
  const merged = new Map<string, ResourceCount>();
  for (const c of counts) {
    const key = `${c.type}\n${c.action}\n${c.status}`;
    const seen = merged.get(key);
    if (seen) seen.count += c.count;
    else merged.set(key, { ...c });
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...merged.values()].sort(
    (a, b) => cmp(a.type, b.type) || cmp(a.action, b.action) || cmp(a.status, b.status),
  );
}

/**
 * countCurrent() read a part at a time through `part` (`resources.countCurrentPart`, in whatever
 * transaction the caller gives each part), the parts added up.
 */
export async function countInParts(
  part: (after: string) => Promise<{ counts: ResourceCount[]; next?: string }>,
): Promise<ResourceCount[]> {
  const all: ResourceCount[] = [];
  for (let after: string | undefined = ''; after !== undefined;) {
    const { counts, next } = await part(after);
    all.push(...counts);
    after = next;
  }
  return addUpCounts(all);
}

/** A page of a stack's current resources in name order (`resources.listPage`). */
export interface ResourcePageQuery {
  /** The type, exactly. */
  type?: string;
  /** `CREATE_FAILED` (action and status) or `FAILED` (the status alone). */
  status?: string;
  /** A text in the name, case aside. */
  nameContains?: string;
  /** The names after this one (the last name of the previous page). */
  marker?: string;
  limit: number;
}

/** A resource of a stack that is a stack of its own (`resources.listNested`). */
export interface NestedResource {
  name: string;
  action: string;
  status: string;
  nestedId: string;
  nestedName: string;
}

/** One row's locked write (see resources.update). */
export interface LockedWrite {
  id: number;
  expectedKey: number;
  expectedEngine: string | null;
  changes: Partial<ResourceRecord>;
}

/** A live resource that has a given physical id, and the stack (and project) it belongs to. */
export interface PhysicalIdManager {
  physicalId: string;
  stackId: string;
  stackName: string;
  projectId: string;
}

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

/** What a log line of an event shows (`hearth ... --wait`): no uuid, type or physical id. */
export type EventLine = Pick<
  EventRecord,
  'id' | 'resourceName' | 'action' | 'status' | 'reason' | 'createdAt'
>;

/** The resources table: one row per resource, and per replaced or replacing one. */
export interface ResourceRepository {
  /** Inserts rows and returns them with their ids, in order. */
  insert(rows: Omit<ResourceRecord, 'id'>[]): Promise<ResourceRecord[]>;
  get(id: number): Promise<ResourceRecord | undefined>;
  getMany(ids: readonly number[]): Promise<ResourceRecord[]>;
  /** Rows of a stack that are not DELETE_COMPLETE. */
  listActive(stackId: string): Promise<ResourceRecord[]>;
  /** listActive() without the JSON documents (a resource list without detail: a third of the read). */
  listListings(stackId: string): Promise<ResourceListing[]>;
  /**
   * The current rows (one per name, as currentRows() picks them) of a stack counted by type, action
   * and status, in SQL: the stack's rows through its index, no listing read into memory.
   */
  countCurrent(stackId: string): Promise<ResourceCount[]>;
  /**
   * countCurrent() of the names after `after` ('' for all), a part at a time where the backend's
   * statements block the event loop (SQLite: 5,000 names): `next` is where the next part starts,
   * absent after the last. A caller may read each part in a read transaction of its own, so that
   * a big stack's count does not hold the read connection (each name is counted in one part).
   */
  countCurrentPart(stackId: string, after: string): Promise<{ counts: ResourceCount[]; next?: string }>;
  /** A page of the current rows' listings, in name order, through the (stack_id, name) index. */
  listPage(stackId: string, query: ResourcePageQuery): Promise<ResourceListing[]>;
  /**
   * The stack's resources that have a nested stack (a group's members, template resources), by
   * name, at most `limit`, and how many there are in all.
   */
  listNested(stackId: string, limit: number): Promise<{ nested: NestedResource[]; total: number }>;
  /** listActive() with only what planning a traversal needs (no JSON documents to decode). */
  listHeads(stackId: string): Promise<ResourceHead[]>;
  /**
   * listActive() with what an update's comparison of each row with its new definition reads
   * (no reason, progress, timestamps or ids of other tables: a third of the row, half the time).
   */
  listStates(stackId: string): Promise<ResourceState[]>;
  /**
   * listStates() of the rows that carry one of `names` (through the (stack_id, name) index): an
   * update planned from a diff reads only the rows it visits and their requirements.
   */
  listStatesByName(stackId: string, names: readonly string[]): Promise<ResourceState[]>;
  /**
   * listStates() of the rows no update may leave alone whatever their definition (not COMPLETE,
   * INIT, being deleted, unhealthy, locked, replaced, without a physical resource), through a
   * partial index of those: a settled stack has none, and finding that reads nothing else.
   */
  listUnsettled(stackId: string): Promise<ResourceState[]>;
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
   * Removes rows, each under the compare-and-swap of a locked write (`changes` unused): a stack's
   * delete drops a row once its resource is gone. Returns the ids of the rows removed.
   */
  removeMany(writes: readonly Omit<LockedWrite, 'changes'>[]): Promise<Set<number>>;
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
}

/** The events table. */
export interface EventRepository {
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
  /** A stack's events after `afterId`, oldest first, as log lines show them: narrow rows for a follower. */
  lines(stackId: string, afterId: number): Promise<EventLine[]>;
}
