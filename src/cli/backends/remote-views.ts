import {
  CHANGE_KINDS,
  type HeatEvent,
  type HeatPreviewItem,
  type HeatResource,
  type HeatResourceChanges,
  type HeatStack,
  type HeatStackSummary,
  type Link,
} from '../../client/types.js';
import { stackIdFromUrl } from '../../client/heat-client.js';
import type { StackId } from '../../client/types.js';
import type {
  EventInfo,
  PreviewChange,
  PreviewResource,
  ResourceDetail,
  ResourceInfo,
  StackInfo,
  StackSummary,
} from '../backend.js';

/** Heat's API shapes in the terms the CLI prints (already Heat's: mostly a renaming). */

export function stackSummary(stack: HeatStackSummary): StackSummary {
  return {
    id: stack.id,
    name: stack.stack_name,
    status: stack.stack_status,
    reason: stack.stack_status_reason,
    creationTime: stack.creation_time,
    updatedTime: stack.updated_time,
    parent: stack.parent,
  };
}

export function stackInfo(stack: HeatStack): StackInfo {
  return {
    ...stackSummary(stack),
    disableRollback: stack.disable_rollback,
    timeoutMins: stack.timeout_mins,
    tags: stack.tags ?? [],
    ...(stack.observe_interval
      ? { observe: { intervalSeconds: stack.observe_interval, heal: stack.heal ?? false } }
      : {}),
  };
}

/** The stack a link of rel `rel` names (a resource's `stack`, a nested stack resource's `nested`). */
export function linkedStack(links: readonly Link[] | undefined, rel: string): StackId | undefined {
  const href = links?.find((l) => l.rel === rel)?.href;
  return href === undefined ? undefined : stackIdFromUrl(href);
}

/** `stackName`: the stack the resource's links name (a nested stack's), else the one listed. */
export function resourceInfo(resource: HeatResource, listed: string): ResourceInfo {
  return {
    name: resource.resource_name,
    physicalId: resource.physical_resource_id ?? '',
    type: resource.resource_type,
    status: resource.resource_status,
    reason: resource.resource_status_reason,
    updatedTime: resource.updated_time ?? resource.creation_time,
    stackName: linkedStack(resource.links, 'stack')?.name ?? resource.stack_name ?? listed,
  };
}

export function resourceDetail(resource: HeatResource, listed: string): ResourceDetail {
  return {
    ...resourceInfo(resource, listed),
    attributes: resource.attributes ?? {},
    requiredBy: resource.required_by ?? [],
  };
}

export function eventInfo(event: HeatEvent): EventInfo {
  return {
    id: event.id,
    resourceName: event.resource_name,
    physicalId: event.physical_resource_id ?? '',
    status: event.resource_status,
    reason: event.resource_status_reason,
    time: event.event_time,
  };
}

/** A create preview's resources; a nested stack's come as a list of their own, flattened here. */
export function previewResources(items: readonly HeatPreviewItem[]): PreviewResource[] {
  return items.flatMap((item) =>
    Array.isArray(item)
      ? previewResources(item)
      : [
          {
            name: item.resource_name,
            type: item.resource_type,
            parentResource: item.parent_resource ?? null,
            requiredBy: item.required_by ?? [],
            properties: item.properties ?? null,
          },
        ],
  );
}

/** An update preview's `resource_changes`, one entry per resource. */
export function previewChanges(changes: HeatResourceChanges): PreviewChange[] {
  return CHANGE_KINDS.flatMap((change) =>
    (changes[change] ?? []).map((r) => ({
      change,
      name: r.resource_name,
      type: r.resource_type,
      physicalId: r.physical_resource_id ?? '',
      // Previews split the status in two: `resource_action` and `resource_status`.
      status: r.resource_action ? `${r.resource_action}_${r.resource_status}` : r.resource_status,
      parentResource: r.parent_resource ?? null,
    })),
  );
}
