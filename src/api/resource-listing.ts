import type { Engine } from '../engine/engine.js';
import { currentRows } from '../engine/core/rows.js';
import type { ResourceListing, ResourceRecord, StackRecord, TemplateRecord } from '../store/contract.js';
import { parseSource } from '../template/source.js';
import { parseTemplate, type Template } from '../template/template.js';
import { maskSecretAttributes } from '../template/hidden-values.js';
import type { JsonObject } from '../util/json.js';
import type { ShownResource } from './views/resource.js';

/** Heat's resource list filters (each list: any of its values). */
export interface ResourceFilter {
  names?: string[];
  /** A type matches when it contains the value (Heat's `type` filter is a substring match). */
  types?: string[];
  /** `COMPLETE` matches the status; `CREATE_COMPLETE` the action and status together. */
  statuses?: string[];
  actions?: string[];
  /** The resource's uuid. */
  ids?: string[];
  physicalIds?: string[];
}

export interface ListOptions {
  /** Levels of nested stacks whose resources follow their parent resource. */
  depth: number;
  filter: ResourceFilter;
  detail: boolean;
  /** Attributes shown beyond the cached ones (Heat's `with_attr`). */
  withAttr?: string[];
}

function matches(row: ResourceListing, filter: ResourceFilter): boolean {
  const any = (values: string[] | undefined, test: (v: string) => boolean) =>
    values === undefined || values.some(test);
  return (
    any(filter.names, (v) => v === row.name) &&
    any(filter.types, (v) => row.type.includes(v)) &&
    any(filter.statuses, (v) => v === row.status || v === `${row.action}_${row.status}`) &&
    any(filter.actions, (v) => v === row.action) &&
    any(filter.ids, (v) => v === row.uuid) &&
    any(filter.physicalIds, (v) => v === row.physicalId)
  );
}

/** Who requires each resource: the current rows whose last update depended on one of its rows. */
function requiredBy(
  rows: readonly ResourceListing[],
  current: readonly ResourceListing[],
): Map<string, string[]> {
  const nameOf = new Map(rows.map((r) => [r.id, r.name]));
  const out = new Map<string, string[]>();
  for (const row of current) {
    for (const id of row.requires) {
      const name = nameOf.get(id);
      if (name === undefined || name === row.name) continue;
      const list = out.get(name) ?? [];
      if (!list.includes(row.name)) list.push(row.name);
      out.set(name, list);
    }
  }
  return out;
}

/**
 * A resource's attributes as they are cached, read through its type (a group derives its
 * per-member maps from compact lists), with any `withAttr` names added.
 */
function attributesOf(engine: Engine, row: ResourceRecord, withAttr: readonly string[]): JsonObject {
  const info = engine.deps.plugins.typeCatalog.get(row.type);
  const read = info?.readAttribute;
  const all = maskSecretAttributes(
    info?.secretAttributes,
    (read?.(row.attributes, undefined) ?? row.attributes) as JsonObject,
  );
  if (withAttr.length === 0) return all;
  const out: JsonObject = { ...all };
  for (const name of withAttr) {
    if (Object.hasOwn(out, name)) continue;
    out[name] =
      read?.(row.attributes, name) ?? (Object.hasOwn(row.attributes, name) ? row.attributes[name]! : null);
  }
  return out;
}

/**
 * The resources of a stack, each followed by those of its nested stack down to `depth` levels (as
 * Heat's iter_resources: a resource the filter leaves out takes its nested stack's with it). One
 * read of the rows and of the child stacks per stack listed.
 */
export async function listResources(
  engine: Engine,
  stack: StackRecord,
  options: ListOptions,
): Promise<ShownResource[]> {
  const out: ShownResource[] = [];
  const templates = new Map<string, Template | undefined>();
  const descriptionOf = async (of: StackRecord, name: string): Promise<string> => {
    const templateId = of.templateId;
    if (!templateId) return '';
    if (!templates.has(templateId)) templates.set(templateId, await templateOf(engine, of, templateId));
    return templates.get(templateId)?.resources.get(name)?.description ?? '';
  };

  const visit = async (at: StackRecord, depth: number): Promise<void> => {
    // Without detail, no row's documents are read (a third of the read at 10,000 resources).
    const { rows, children } = await engine.deps.store.tx(async (tx) => ({
      rows: options.detail ? await tx.resources.listActive(at.id) : await tx.resources.listListings(at.id),
      children: await tx.stacks.children(at.id),
    }));
    const current = currentRows<ResourceListing>(rows);
    const required = requiredBy(rows, current);
    for (const row of current) {
      if (!matches(row, options.filter)) continue;
      const nested = children.find((c) => c.parentResource === row.name && c.id === row.physicalId);
      const shown: ShownResource = { row, stack: at, requiredBy: required.get(row.name) ?? [] };
      if (nested) shown.nested = nested;
      if (options.detail) {
        shown.detail = {
          description: await descriptionOf(at, row.name),
          attributes: attributesOf(engine, row as ResourceRecord, options.withAttr ?? []),
        };
      }
      out.push(shown);
      if (nested && depth > 0) await visit(nested, depth - 1);
    }
  };
  await visit(stack, options.depth);
  return out;
}

/** A stack's template, parsed (not bound: descriptions need no parameter values). */
async function templateOf(
  engine: Engine,
  stack: StackRecord,
  templateId: string,
): Promise<Template | undefined> {
  const cached = engine.cache.peek(templateId, stack.id);
  if (cached) return cached.template;
  const record: TemplateRecord | undefined = await engine.deps.store.tx((tx) => tx.templates.get(templateId));
  if (!record) return undefined;
  try {
    return parseTemplate(parseSource(record.url, record.template, engine.deps.settings.limits));
  } catch {
    // A template stored under other limits than today's: the descriptions are not worth a failure.
    return undefined;
  }
}
