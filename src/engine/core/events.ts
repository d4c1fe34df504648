import { randomUUID } from 'node:crypto';
import type { EventRecord, ResourceRecord, StackRecord } from '../../store/contract.js';

/** Heat truncates event reasons; long plugin errors would bloat the append-only table. */
const MAX_REASON = 1024;

type Subject = Pick<EventRecord, 'stackId' | 'resourceName' | 'resourceType' | 'physicalId'>;

function event(
  subject: Subject,
  action: string,
  status: string,
  reason: string,
  now: number,
): Omit<EventRecord, 'id'> {
  return {
    uuid: randomUUID(),
    ...subject,
    action,
    status,
    reason: reason.slice(0, MAX_REASON),
    createdAt: new Date(now).toISOString(),
  };
}

export function stackEvent(
  stack: StackRecord,
  action: string,
  status: string,
  reason: string,
  now: number,
): Omit<EventRecord, 'id'> {
  const subject = {
    stackId: stack.id,
    resourceName: stack.name,
    resourceType: 'OS::Heat::Stack',
    physicalId: stack.id,
  };
  return event(subject, action, status, reason, now);
}

export function resourceEvent(
  row: Pick<ResourceRecord, 'stackId' | 'name' | 'type' | 'physicalId'>,
  action: string,
  status: string,
  reason: string,
  now: number,
): Omit<EventRecord, 'id'> {
  const subject = {
    stackId: row.stackId,
    resourceName: row.name,
    resourceType: row.type,
    physicalId: row.physicalId,
  };
  return event(subject, action, status, reason, now);
}
