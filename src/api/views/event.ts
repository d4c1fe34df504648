import type { EventRecord, StackRecord } from '../../store/contract.js';
import type { Json, JsonObject } from '../../util/json.js';
import type { Redact } from '../../views/redact.js';
import { type Base, type Link, stackPath } from './common.js';
import { heatTime } from '../../views/time.js';
import { resourcePath } from './resource.js';

export interface EventViewOptions {
  /** Heat's event show: the resource's type and properties too. */
  detail?: boolean;
  /** The stack a nested_depth list was asked of: each event links to it as `root_stack`. */
  root?: StackRecord;
}

/**
 * Heat's event view. A stack's own events are those of a "resource" named after the stack, so
 * every event links to an event path, a resource path and its stack. Events record no properties:
 * `resource_properties` is empty, so no property value (a hidden parameter's) can show there.
 */
export function eventView(
  base: Base,
  event: EventRecord,
  stack: StackRecord,
  redact: Redact,
  options: EventViewOptions = {},
): JsonObject {
  const resource = resourcePath(base, stack, event.resourceName);
  const links: Link[] = [
    { href: `${resource}/events/${event.uuid}`, rel: 'self' },
    { href: resource, rel: 'resource' },
    { href: stackPath(base, stack), rel: 'stack' },
  ];
  if (options.root) links.push({ href: stackPath(base, options.root), rel: 'root_stack' });
  return {
    id: event.uuid,
    links: links as unknown as Json,
    event_time: heatTime(event.createdAt),
    logical_resource_id: event.resourceName,
    resource_name: event.resourceName,
    physical_resource_id: event.physicalId,
    resource_status: `${event.action}_${event.status}`,
    resource_status_reason: redact(event.reason),
    ...(options.detail ? { resource_type: event.resourceType, resource_properties: {} } : {}),
  };
}
