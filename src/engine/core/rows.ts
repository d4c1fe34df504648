import { randomUUID } from 'node:crypto';
import type { ResourceRecord } from '../../store/contract.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';

/**
 * Row data key of a row made by an ADOPT traversal: its resource's entry in the adopt document
 * (adopt-node.ts), kept until the row's node has adopted it.
 */
export const ADOPT_KEY = 'adopt_entry';

/** The adopt document's entry a row was made with, if any. */
export function adoptEntryOf(row: Pick<ResourceRecord, 'data'>): JsonObject | undefined {
  const entry = row.data[ADOPT_KEY];
  return isPlainObject(entry) ? (entry as JsonObject) : undefined;
}

/**
 * A resource row that has not been created yet (INIT_COMPLETE): for a resource new in a template,
 * or the replacement of an existing row. Its uuid is the idempotency key of its physical create.
 */
export function initRow(
  owner: { stackId: string; rootStackId: string; name: string; type: string },
  now: number,
  replaces: number | null = null,
  adoptEntry?: Json,
): Omit<ResourceRecord, 'id'> {
  return {
    uuid: randomUUID(),
    stackId: owner.stackId,
    rootStackId: owner.rootStackId,
    name: owner.name,
    type: owner.type,
    action: 'INIT',
    status: 'COMPLETE',
    reason: '',
    physicalId: null,
    templateId: null,
    properties: null,
    attributes: {},
    data: adoptEntry === undefined ? {} : { [ADOPT_KEY]: adoptEntry },
    progress: null,
    requires: [],
    replaces,
    replacedBy: null,
    engineId: null,
    atomicKey: 0,
    unhealthy: false,
    createRetries: 0,
    createdAt: new Date(now).toISOString(),
    updatedAt: null,
  };
}

/**
 * The row that carries a resource name now, among the live rows of that name: the newest one not
 * replaced (an old row and its replacement share the name while the replacement is made).
 */
export function currentRow<R extends Pick<ResourceRecord, 'replacedBy'>>(rows: readonly R[]): R | undefined {
  return rows.filter((r) => r.replacedBy === null).at(-1) ?? rows.at(-1);
}

/** The current row of each name among `rows`, in the order the names first appear. */
export function currentRows<R extends Pick<ResourceRecord, 'name' | 'replacedBy'>>(rows: readonly R[]): R[] {
  const byName = new Map<string, R[]>();
  for (const row of rows) {
    const same = byName.get(row.name);
    if (same) same.push(row);
    else byName.set(row.name, [row]);
  }
  return [...byName.values()].map((same) => currentRow(same)!);
}

/**
 * The idempotency key of the row's current create attempt: its uuid, then a new key per retry
 * (the failed attempt's object was deleted; a resumed attempt must find its own, not that one).
 */
export function idempotencyKey(row: Pick<ResourceRecord, 'uuid' | 'createRetries'>): string {
  return row.createRetries === 0 ? row.uuid : `${row.uuid}/retry-${row.createRetries}`;
}
