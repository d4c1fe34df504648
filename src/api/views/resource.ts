import type { ResourceListing, StackRecord } from '../../store/contract.js';
import type { Json, JsonObject } from '../../util/json.js';
import type { Redact } from '../../views/redact.js';
import { type Base, type Link, stackPath } from './common.js';
import { heatTime } from '../../views/time.js';

/** One resource as the API shows it, with what its view needs beyond its row. */
export interface ShownResource {
  /** A listing without detail reads no documents (`resources.listListings`). */
  row: ResourceListing;
  /** The stack it belongs to (a nested one, in a list with nested_depth). */
  stack: StackRecord;
  /** The stack that implements it, for a nested-stack resource. */
  nested?: StackRecord;
  requiredBy: string[];
  /** With detail (`with_detail`, and always when shown alone). */
  detail?: { description: string; attributes: JsonObject };
}

export function resourcePath(base: Base, stack: StackRecord, name: string): string {
  return `${stackPath(base, stack)}/resources/${encodeURIComponent(name)}`;
}

/**
 * Heat's resource view: its links lead to itself, its stack and its nested stack (which is how
 * clients name the stack of each resource in a nested list); `parent_resource` names the resource
 * of the parent stack that a nested stack's resources belong to.
 */
export function resourceView(base: Base, shown: ShownResource, redact: Redact): JsonObject {
  const { row, stack } = shown;
  const links: Link[] = [
    { href: resourcePath(base, stack, row.name), rel: 'self' },
    { href: stackPath(base, stack), rel: 'stack' },
  ];
  if (shown.nested) links.push({ href: stackPath(base, shown.nested), rel: 'nested' });
  return {
    updated_time: heatTime(row.updatedAt ?? row.createdAt),
    creation_time: heatTime(row.createdAt),
    logical_resource_id: row.name,
    resource_name: row.name,
    physical_resource_id: row.physicalId ?? '',
    resource_status: `${row.action}_${row.status}`,
    resource_status_reason: redact(row.reason),
    resource_type: row.type,
    links: links as unknown as Json,
    required_by: shown.requiredBy,
    ...(stack.parentResource !== null ? { parent_resource: stack.parentResource } : {}),
    ...(shown.detail ? { description: shown.detail.description, attributes: shown.detail.attributes } : {}),
  };
}
