import { heatTime } from '../../views/time.js';
import { knownValue, type PreviewedChange, type PreviewedResource } from '../../engine/operations/preview.js';
import type { EventLine, EventRecord, ResourceRecord, StackRecord } from '../../store/contract.js';
import type { EventInfo, PreviewChange, PreviewResource, ResourceInfo, StackInfo } from '../backend.js';

/** The store's records in the terms the CLI prints (Heat's, as the API shows them). */

export function stackInfo(stack: StackRecord): StackInfo {
  return {
    id: stack.id,
    name: stack.name,
    status: `${stack.action}_${stack.status}`,
    reason: stack.reason,
    creationTime: heatTime(stack.createdAt),
    // A new stack's row records its creation as its last update; Heat shows no update yet.
    updatedTime: stack.updatedAt === stack.createdAt ? null : heatTime(stack.updatedAt),
    parent: stack.parentId,
    disableRollback: stack.disableRollback,
    timeoutMins: stack.timeoutMins,
    tags: stack.tags,
    ...(stack.observe
      ? { observe: { intervalSeconds: stack.observe.intervalMs / 1000, heal: stack.observe.heal } }
      : {}),
  };
}

export function resourceInfo(row: ResourceRecord, stackName: string): ResourceInfo {
  return {
    name: row.name,
    physicalId: row.physicalId ?? '',
    type: row.type,
    status: `${row.action}_${row.status}`,
    reason: row.reason,
    updatedTime: heatTime(row.updatedAt ?? row.createdAt),
    stackName,
  };
}

export function eventInfo(event: EventRecord): EventInfo {
  return {
    id: event.uuid,
    resourceName: event.resourceName,
    physicalId: event.physicalId ?? '',
    status: `${event.action}_${event.status}`,
    reason: event.reason,
    time: heatTime(event.createdAt),
  };
}

/** What an event's log line shows (views.ts eventLine). */
export function eventLineInfo(
  event: EventLine,
): Pick<EventInfo, 'resourceName' | 'status' | 'reason' | 'time'> {
  return {
    resourceName: event.resourceName,
    status: `${event.action}_${event.status}`,
    reason: event.reason,
    time: heatTime(event.createdAt),
  };
}

export function previewResource(r: PreviewedResource): PreviewResource {
  return {
    name: r.name,
    type: r.type,
    parentResource: r.path.at(-1) ?? null,
    requiredBy: r.requiredBy,
    properties: knownValue(r.properties),
  };
}

export function previewChange(c: PreviewedChange): PreviewChange {
  return {
    change: c.change,
    name: c.name,
    type: c.type,
    physicalId: c.row?.physicalId ?? '',
    status: c.row ? `${c.row.action}_${c.row.status}` : 'INIT_COMPLETE',
    parentResource: c.path.at(-1) ?? null,
  };
}
