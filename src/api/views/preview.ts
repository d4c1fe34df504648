import { knownValue, type PreviewedChange, type PreviewedResource } from '../../engine/operations/preview.js';
import type { CatalogPlugin } from '../../resources/plugin-extras.js';
import type { PluginCatalog } from '../../resources/contract.js';
import type { ResourceRecord } from '../../store/contract.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { maskSecretAttributes } from '../../template/hidden-values.js';
import { shownDescription } from '../../template/template.js';
import type { Json, JsonObject } from '../../util/json.js';
import type { Base } from './common.js';
import { heatTime } from '../../views/time.js';
import { shownParameters } from './stack.js';

/**
 * Heat's preview bodies (heat.engine.api.format_stack_preview and preview_update_stack): each
 * resource as format_stack_resource shows it, its action and status apart. A resource that does
 * not exist yet is INIT_COMPLETE with no physical id and null attributes; a value not known before
 * the operation runs is null.
 */

/** Heat's id for a stack that a preview only imagines. */
const NO_ID = 'None';

interface StackRef {
  name: string;
  id: string;
}

/** One resource in Heat's preview shape. */
interface Shown {
  name: string;
  type: string;
  stack: StackRef;
  requiredBy: readonly string[];
  /** The template resource whose nested stack holds it (none at the top). */
  parentResource: string | undefined;
  description: string;
  metadata: Json;
  /** Its row now; none for a resource the operation would make. */
  row: ResourceRecord | undefined;
  /** Only the create preview shows them. */
  properties?: JsonObject;
}

function resourceJSON(projectId: string, plugins: PluginCatalog, r: Shown): JsonObject {
  const identity = (path: string): JsonObject => ({
    tenant: projectId,
    stack_name: r.stack.name,
    stack_id: r.stack.id,
    path,
  });
  const row = r.row;
  const out: JsonObject = {
    updated_time: row ? heatTime(row.updatedAt ?? row.createdAt) : null,
    creation_time: row ? heatTime(row.createdAt) : null,
    resource_name: r.name,
    physical_resource_id: row?.physicalId ?? '',
    resource_action: row?.action ?? 'INIT',
    resource_status: row?.status ?? 'COMPLETE',
    resource_status_reason: row?.reason ?? '',
    resource_type: r.type,
    resource_identity: identity(`/resources/${r.name}`),
    stack_identity: identity(''),
    stack_name: r.stack.name,
    required_by: [...r.requiredBy],
  };
  if (r.parentResource !== undefined) out.parent_resource = r.parentResource;
  out.description = r.description;
  out.metadata = r.metadata ?? {};
  out.attributes = attributesJSON(plugins, r.type, row);
  if (r.properties) out.properties = r.properties;
  return out;
}

/**
 * The type's attributes (not HIDDEN ones, nor `show`) with the row's cached values, null when the
 * resource has none yet. A template resource's attributes are its outputs, as cached.
 */
function attributesJSON(plugins: PluginCatalog, type: string, row: ResourceRecord | undefined): JsonObject {
  const plugin = plugins.plugin(type);
  const read = plugins.typeCatalog.get(type)?.readAttribute;
  const cached = row && row.action !== 'INIT' ? row.attributes : undefined;
  const value = (name: string): Json => {
    if (!cached) return null;
    if (Object.hasOwn(cached, name)) return cached[name]!;
    return read?.(cached, name) ?? null;
  };
  if (!plugin) return cached ? ((read?.(cached, undefined) as JsonObject | undefined) ?? { ...cached }) : {};
  const out: JsonObject = {};
  for (const [name, schema] of Object.entries(plugin.attributes)) {
    if (schema.supportStatus?.status !== 'HIDDEN') out[name] = value(name);
  }
  return maskSecretAttributes(plugins.typeCatalog.get(type)?.secretAttributes, out);
}

/** Every property of the type's schema (HIDDEN ones too, as Heat), null where not given or not known. */
function propertiesJSON(plugin: CatalogPlugin | undefined, known: Json): JsonObject {
  const given = known !== null && typeof known === 'object' && !Array.isArray(known) ? known : {};
  if (!plugin || plugin.anyProperties) return { ...given };
  const out: JsonObject = {};
  for (const name of Object.keys(plugin.properties))
    out[name] = Object.hasOwn(given, name) ? given[name]! : null;
  return out;
}

export interface CreatePreviewStack {
  name: string;
  projectId: string;
  definition: StackDefinition;
  resources: readonly PreviewedResource[];
  disableRollback: boolean;
  timeoutMins: number | null;
  tags: string[];
  /** When the preview was made (Heat shows it as the creation time). */
  now: number;
}

/**
 * `POST /stacks/preview`: the stack as Heat's show would have it (no status), with `resources`.
 * A template resource appears as the list of its nested stack's resources, as in Heat.
 */
export function createPreviewBody(base: Base, plugins: PluginCatalog, s: CreatePreviewStack): JsonObject {
  const description = shownDescription(s.definition.template);
  const outputs = [...s.definition.template.outputs.values()].map((o) => ({
    output_key: o.name,
    description: o.description ?? 'No description given',
    output_value: null,
  }));
  return {
    stack_name: s.name,
    id: NO_ID,
    links: [{ href: `${base.project}/stacks/${encodeURIComponent(s.name)}/${NO_ID}`, rel: 'self' }],
    creation_time: heatTime(new Date(s.now).toISOString()),
    updated_time: null,
    deletion_time: null,
    notification_topics: [],
    parameters: shownParameters(s.definition, { id: NO_ID, projectId: s.projectId, name: s.name }),
    description,
    template_description: description,
    capabilities: [],
    disable_rollback: s.disableRollback,
    timeout_mins: s.timeoutMins,
    stack_owner: s.projectId,
    parent: null,
    stack_user_project_id: null,
    tags: s.tags,
    outputs,
    resources: nestedResources(s, plugins),
  };
}

function nestedResources(s: CreatePreviewStack, plugins: PluginCatalog): Json[] {
  const byStack = new Map<string, PreviewedResource[]>();
  for (const r of s.resources) {
    const key = JSON.stringify(r.path);
    byStack.set(key, [...(byStack.get(key) ?? []), r]);
  }
  const level = (path: string[]): Json[] =>
    (byStack.get(JSON.stringify(path)) ?? []).map((r) => {
      const inner = [...path, r.name];
      if (byStack.has(JSON.stringify(inner))) return level(inner);
      const plugin = plugins.plugin(r.type);
      return resourceJSON(s.projectId, plugins, {
        name: r.name,
        type: r.type,
        stack: { name: [s.name, ...path].join('-'), id: NO_ID },
        requiredBy: r.requiredBy,
        parentResource: path.at(-1),
        description: r.description,
        metadata: knownValue(r.metadata),
        row: undefined,
        properties: propertiesJSON(plugin, knownValue(r.properties)),
      });
    });
  return level([]);
}

export interface UpdatePreviewContext {
  projectId: string;
  /** The stack updated. */
  stack: StackRef;
  /** The rows the changes name, by row id, in full. */
  rows: ReadonlyMap<number, ResourceRecord>;
  /** The names of the nested stacks the changes are in, by id. */
  stackNames: ReadonlyMap<string, string>;
}

/**
 * `PUT|PATCH /stacks/{name}/{id}/preview`: `resource_changes` by category. Unchanged, updated and
 * deleted resources are shown as they are; a replaced or added one as the resource the update
 * would make (as Heat shows them).
 */
export function updatePreviewBody(
  plugins: PluginCatalog,
  ctx: UpdatePreviewContext,
  changes: readonly PreviewedChange[],
): JsonObject {
  const byChange: Record<PreviewedChange['change'], Json[]> = {
    unchanged: [],
    updated: [],
    replaced: [],
    added: [],
    deleted: [],
  };
  for (const c of changes) {
    const existing = c.change === 'unchanged' || c.change === 'updated' || c.change === 'deleted';
    const row = existing && c.row ? ctx.rows.get(c.row.id) : undefined;
    const stack: StackRef =
      c.stackId === null
        ? { name: [ctx.stack.name, ...c.path].join('-'), id: NO_ID }
        : { name: ctx.stackNames.get(c.stackId) ?? ctx.stack.name, id: c.stackId };
    byChange[c.change].push(
      resourceJSON(ctx.projectId, plugins, {
        name: c.name,
        type: c.type,
        stack,
        requiredBy: c.requiredBy,
        parentResource: c.path.at(-1),
        description: c.description,
        metadata: {},
        row,
      }),
    );
  }
  return { resource_changes: byChange };
}
