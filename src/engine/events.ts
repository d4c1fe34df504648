import { randomUUID } from 'node:crypto';
import type { EventRecord, ResourceRecord, StackRecord } from '../store/contract.js';

/** Heat truncates event reasons; long plugin errors would bloat the append-only table. */
const MAX_REASON = 1024;

export function stackEvent(
  stack: StackRecord,
  action: string,
  status: string,
  reason: string,
  now: number,
): Omit<EventRecord, 'id'> {
  return {
    uuid: randomUUID(),
    stackId: stack.id,
    resourceName: stack.name,
    resourceType: 'OS::Heat::Stack',
    physicalId: stack.id,
    action,
    status,
    reason: reason.slice(0, MAX_REASON),
    createdAt: new Date(now).toISOString(),
  };
}

export function resourceEvent(
  row: ResourceRecord,
  action: string,
  status: string,
  reason: string,
  now: number,
): Omit<EventRecord, 'id'> {
  return {
    uuid: randomUUID(),
    stackId: row.stackId,
    resourceName: row.name,
    resourceType: row.type,
    physicalId: row.physicalId,
    action,
    status,
    reason: reason.slice(0, MAX_REASON),
    createdAt: new Date(now).toISOString(),
  };
}
