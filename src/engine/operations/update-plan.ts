import { isTemplateError } from '../../template/errors.js';
import { collectHidden, redactor } from '../../template/hidden-values.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { CHILD_KEY } from '../context/child-stack.js';
import type { EngineDeps } from '../core/deps.js';
import { prepareUpdate } from './prepare.js';
import type { UpdateRequest } from '../core/requests.js';
import { type PropertyChange, propertyChanges } from './plan-diff.js';
import { type Change, type PreviewedChange, previewUpdate } from './preview.js';
import type { TemplateCache } from '../core/templates.js';

/**
 * `hearth stack plan`: the update preview (preview.ts, which asks the engine's own deciders) with,
 * per resource, the property-level diff between its stored properties and the new ones, and why
 * a replacement is needed. Hearth's own addition: Heat's preview has no property diff. Hidden
 * parameters' values (old and new) and secret-named properties are masked.
 */

export type PlanAction = 'create' | 'update' | 'replace' | 'delete';

export interface PlannedResource {
  /** The resource's name, prefixed by the template resources leading to its nested stack (`group.0`). */
  resource_name: string;
  resource_type: string;
  action: PlanAction;
  /** Why a replaced resource is replaced. */
  reason?: string;
  /** Changed properties only; none for a deleted resource. */
  changes: PropertyChange[];
}

export interface UpdatePlan {
  resources: PlannedResource[];
  summary: Record<PlanAction, number>;
}

const ACTION: Partial<Record<Change, PlanAction>> = {
  added: 'create',
  updated: 'update',
  replaced: 'replace',
  deleted: 'delete',
};

export async function planStackUpdate(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  req: UpdateRequest,
  nested: boolean,
): Promise<UpdatePlan> {
  const { stack, definition, environment } = await prepareUpdate(deps, cache, stackId, req);
  const changes = await previewUpdate(deps, stack.id, definition, nested, environment);
  const secrets = new Set<string>();
  collectHidden(definition, secrets);
  const current = await currentDefinition(deps, cache, stack);
  if (current) collectHidden(current, secrets);
  return planOf(changes, redactor(secrets));
}

/**
 * The plan for previewed changes. Left out: unchanged resources, and a nested stack the update
 * only walks through (its properties the same, nothing in it changing), which the preview counts
 * as updated because Heat always updates a nested stack and lets its resources decide.
 */
export function planOf(changes: readonly PreviewedChange[], redact: (text: string) => string): UpdatePlan {
  const summary: Record<PlanAction, number> = { create: 0, update: 0, replace: 0, delete: 0 };
  const planned: (PlannedResource & { walkedThrough: boolean })[] = [];
  for (const c of changes) {
    const action = ACTION[c.change];
    if (!action) continue;
    const diff =
      action === 'delete' || c.properties === undefined
        ? []
        : propertyChanges(action === 'create' ? {} : (c.row?.properties ?? {}), c.properties, redact);
    const hasChild = typeof c.row?.data[CHILD_KEY] === 'string';
    planned.push({
      resource_name: [...c.path, c.name].join('.'),
      resource_type: c.type,
      action,
      ...(c.reason === undefined ? {} : { reason: redact(c.reason) }),
      changes: diff,
      walkedThrough: action === 'update' && hasChild && c.properties !== undefined && diff.length === 0,
    });
  }
  const resources: PlannedResource[] = [];
  for (const { walkedThrough, ...r } of planned) {
    const inside = `${r.resource_name}.`;
    if (walkedThrough && !planned.some((p) => p.resource_name.startsWith(inside) && !p.walkedThrough))
      continue;
    summary[r.action] += 1;
    resources.push(r);
  }
  return { resources, summary };
}

/** The definition the stack has now (for its hidden values); none when it has none or no longer binds. */
async function currentDefinition(
  deps: EngineDeps,
  cache: TemplateCache,
  stack: { id: string; name: string; projectId: string; templateId: string | null },
): Promise<StackDefinition | undefined> {
  const templateId = stack.templateId;
  if (!templateId) return undefined;
  const record = await deps.store.tx((tx) => tx.templates.get(templateId));
  if (!record) return undefined;
  try {
    return cache.get(record, { stackId: stack.id, stackName: stack.name, projectId: stack.projectId });
  } catch (err) {
    // A stored template that no longer binds (stricter limits since) has no values to mask.
    if (isTemplateError(err)) return undefined;
    throw err;
  }
}
