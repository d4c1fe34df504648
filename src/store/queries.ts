/* What the store's queries take and give beyond whole records: filters, pages, counts. */
import type { StackAction, Status } from './contract/actions.js';

/**
 * How far a stack's operation has got, over its tree (the stack and, for a root, the nested stacks
 * its current operation started), counted by the database: aggregate queries by index, no rows
 * loaded.
 */
export interface StackProgressCounts {
  /**
   * Nodes of the tree's current traversals — the resources they create, update or check and the
   * rows they delete (an update's unchanged resources have none) — plus the resources of nested
   * stacks whose part of the operation has ended (their graphs are gone). 0 when nothing runs.
   */
  total: number;
  /** Of `total`, those finished. */
  done: number;
  /** Nodes whose inputs are all in and that have not finished: their work is queued or running. */
  inProgress: number;
  /** Nodes still waiting for some of their dependencies. */
  waiting: number;
  /** Resources of the tree that are FAILED (they outlive the traversal). */
  failed: number;
}

/** Names of a stack tree's resources worth showing while it runs (`parent.name` for nested ones). */
export interface StackActivity {
  /** The resources IN_PROGRESS, longest running first, with when they started (ms). */
  running: { name: string; since: number }[];
  /** FAILED resources, first failed first. */
  failed: string[];
}

/** How many live stacks are in one action and status (monitoring). */
export interface StackStatusCount {
  action: StackAction;
  status: Status;
  count: number;
}

/** The work queue at a glance (monitoring): the items by state, and the next due. */
export interface WorkQueueStats {
  /** Items claimable now: their run time has come and no live claim holds them. */
  due: number;
  /** Items held by a live claim (running). */
  claimed: number;
  /** Items waiting for a later run time (polling, backoff) or for an event. */
  scheduled: number;
  /**
   * When the earliest item became or becomes claimable (ms; in the past while items are due), or
   * undefined when the queue is empty.
   */
  nextAvailableAt: number | undefined;
}

export interface StackFilter {
  projectId?: string;
  name?: string;
  parentId?: string | null;
  /** Only stacks under the convergence engine (true) or the legacy one (false). */
  convergence?: boolean;
  includeDeleted?: boolean;
}

/** The columns a stack list can be sorted by (Heat's sort keys map onto them). */
export type StackSortKey = 'name' | 'status' | 'createdAt' | 'updatedAt';

/** A page of a stack list, filtered as Heat's API filters (each list: any of its values). */
export interface StackQuery extends StackFilter {
  ids?: string[];
  names?: string[];
  /** Names with this text in them, ignoring ASCII case (the console's search; Heat has none). */
  nameContains?: string;
  /** `COMPLETE` matches the status; `CREATE_COMPLETE` the action and status together. */
  statuses?: string[];
  actions?: string[];
  /** Every one of `tags`, or any of `tagsAny`; none of... as Heat's not_tags/not_tags_any. */
  tags?: string[];
  tagsAny?: string[];
  notTags?: string[];
  notTagsAny?: string[];
  sortKey?: StackSortKey;
  sortDir?: 'asc' | 'desc';
  /** The id of the last stack of the previous page: the page starts after it. */
  marker?: string;
  limit?: number;
}

/** The orders an event list can take (Heat's sort keys event_time and resource_type). */
export type EventSortKey = 'time' | 'type';

/** A page of events, filtered as Heat's event list filters (each list: any of its values). */
export interface EventQuery {
  /** The stacks whose events are listed: one, or a stack and its nested stacks. */
  stackIds: readonly string[];
  resourceNames?: string[];
  resourceTypes?: string[];
  actions?: string[];
  /** `COMPLETE` matches the status; `CREATE_COMPLETE` the action and status together. */
  statuses?: string[];
  uuid?: string;
  /**
   * `time` (the default) is the order events were recorded, their ids: each event is stamped as it
   * is recorded, so that is its time order, and the index on (stack, id) serves it. `type` sorts by
   * resource type, then id.
   */
  sortKey?: EventSortKey;
  /** Default ascending. */
  sortDir?: 'asc' | 'desc';
  /** The uuid of the last event of the previous page: the page starts after it. */
  marker?: string;
  limit?: number;
}
