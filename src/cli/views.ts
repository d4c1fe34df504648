import type { EventInfo, ResourceDetail, ResourceInfo, StackInfo, StackSummary } from './backend.js';
import { statusStyle } from './output.js';
import { styled } from './terminal.js';

/*
 * The rows and records the stack commands print, with Heat's column names: one definition for
 * both backends, so a command prints the same whichever runs it.
 */

export function stackView(stack: StackInfo): Record<string, unknown> {
  return {
    id: stack.id,
    stack_name: stack.name,
    stack_status: stack.status,
    stack_status_reason: stack.reason,
    creation_time: stack.creationTime,
    updated_time: stack.updatedTime,
    disable_rollback: stack.disableRollback,
    timeout_mins: stack.timeoutMins,
    parent: stack.parent,
    tags: stack.tags,
    // Hearth's own, shown only when the stack is observed (Heat's fields stay as Heat shows them).
    ...(stack.observe ? { observe_interval: stack.observe.intervalSeconds, heal: stack.observe.heal } : {}),
  };
}

/** A row of `stack list`: Heat's list columns, and its `parent` when nested stacks are shown. */
export function stackListView(stack: StackSummary, withParent: boolean): Record<string, unknown> {
  return {
    id: stack.id,
    stack_name: stack.name,
    stack_status: stack.status,
    creation_time: stack.creationTime,
    updated_time: stack.updatedTime,
    ...(withParent ? { parent: stack.parent } : {}),
  };
}

/** A row of `stack resource list`; with a nested depth, the stack each belongs to. */
export function resourceView(resource: ResourceInfo, withStack = false): Record<string, unknown> {
  return {
    resource_name: resource.name,
    physical_resource_id: resource.physicalId,
    resource_type: resource.type,
    resource_status: resource.status,
    resource_status_reason: resource.reason,
    updated_time: resource.updatedTime,
    ...(withStack ? { stack_name: resource.stackName } : {}),
  };
}

export function resourceDetailView(resource: ResourceDetail): Record<string, unknown> {
  return { ...resourceView(resource), attributes: resource.attributes, required_by: resource.requiredBy };
}

export function eventView(event: EventInfo): Record<string, unknown> {
  return {
    id: event.id,
    resource_name: event.resourceName,
    physical_resource_id: event.physicalId,
    resource_status: event.status,
    resource_status_reason: event.reason,
    event_time: event.time,
  };
}

/** An event as `--wait` prints it, one line each; with `colour`, its status coloured. */
export function eventLine(
  event: Pick<EventInfo, 'resourceName' | 'status' | 'reason' | 'time'>,
  colour = false,
): string {
  const style = colour ? statusStyle(event.status) : undefined;
  const status = style ? styled(style, event.status) : event.status;
  return `${event.time} [${event.resourceName}]: ${status}  ${event.reason}\n`;
}
