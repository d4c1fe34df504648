import { CHANGES } from '../../engine/operations/preview.js';
import type { PreviewChange, PreviewResource } from '../backend.js';

/**
 * What `stack create --dry-run` and `stack update --dry-run` print. As the openstack client: a
 * table of resources, or with `-f json|yaml` Heat's preview shapes (`resources`, and
 * `resource_changes` by category). A value not known before the operation runs is null.
 */

/** Rows for a table, or Heat's create preview document. */
export function createPreviewView(
  name: string,
  resources: readonly PreviewResource[],
  tabular: boolean,
): Record<string, unknown>[] | Record<string, unknown> {
  const rows = resources.map((r) => ({
    resource_name: r.name,
    resource_type: r.type,
    ...(tabular ? {} : { stack_name: name }),
    parent_resource: r.parentResource,
    required_by: r.requiredBy,
    properties: r.properties,
  }));
  return tabular ? rows : { stack_name: name, resources: rows };
}

/** Rows for a table (one per resource, with its category), or Heat's `resource_changes`. */
export function updatePreviewView(
  changes: readonly PreviewChange[],
  tabular: boolean,
): Record<string, unknown>[] | Record<string, unknown> {
  const entry = (c: PreviewChange) => ({
    resource_name: c.name,
    resource_type: c.type,
    physical_resource_id: c.physicalId,
    resource_status: c.status,
    parent_resource: c.parentResource,
  });
  if (tabular) {
    const order = (c: PreviewChange) => CHANGES.indexOf(c.change);
    return [...changes].sort((a, b) => order(a) - order(b)).map((c) => ({ state: c.change, ...entry(c) }));
  }
  const byChange = Object.fromEntries(CHANGES.map((change) => [change, [] as unknown[]]));
  for (const c of changes) byChange[c.change]!.push(entry(c));
  return { resource_changes: byChange };
}
