import type { StackRecord } from '../../store/contract.js';
import { pseudoParameterValues } from '../../template/pseudo-parameters.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { shownDescription } from '../../template/template.js';
import { isUnknown } from '../../template/functions/types.js';
import { MASK, pyStr } from '../../template/parameters/index.js';
import type { Json, JsonObject } from '../../util/json.js';
import type { StackOutput } from '../../engine/context/outputs.js';
import { type Base, type Link, stackPath } from './common.js';
import { heatTime } from '../../views/time.js';

export function stackStatus(stack: StackRecord): string {
  return `${stack.action}_${stack.status}`;
}

function links(base: Base, stack: StackRecord): Link[] {
  const self: Link[] = [{ href: stackPath(base, stack), rel: 'self' }];
  return stack.parentId
    ? [...self, { href: `${base.project}/stacks/${stack.parentId}`, rel: 'parent' }]
    : self;
}

/** A new stack's row records its creation as its last update; Heat shows no update yet. */
function updatedTime(stack: StackRecord): string | null {
  return stack.updatedAt === null || stack.updatedAt === stack.createdAt ? null : heatTime(stack.updatedAt);
}

/** A stack in a list (`GET /stacks`): no template is read. */
export function stackListItem(base: Base, stack: StackRecord, withProject: boolean): JsonObject {
  return {
    id: stack.id,
    links: links(base, stack) as unknown as Json,
    ...(withProject ? { project: stack.projectId } : {}),
    stack_name: stack.name,
    description: '',
    stack_status: stackStatus(stack),
    stack_status_reason: stack.reason,
    creation_time: heatTime(stack.createdAt),
    updated_time: updatedTime(stack),
    deletion_time: heatTime(stack.deletedAt),
    stack_owner: stack.projectId,
    parent: stack.parentId,
    stack_user_project_id: stack.projectId,
    tags: stack.tags.length > 0 ? stack.tags : null,
  };
}

/**
 * The parameters as Heat shows them: pseudo parameters first, every value as Python's str() of
 * it, hidden ones masked.
 */
export function shownParameters(
  definition: StackDefinition | undefined,
  stack: Pick<StackRecord, 'id' | 'projectId' | 'name'>,
): JsonObject {
  const out: JsonObject =
    definition?.template.version.format === 'cfn'
      ? (pseudoParameterValues(definition.template.version, {
          stackName: stack.name,
          stackId: stack.id,
          projectId: stack.projectId,
        }) as JsonObject)
      : {
          'OS::stack_id': stack.id,
          'OS::project_id': stack.projectId,
          'OS::stack_name': stack.name,
        };
  if (!definition) return out;
  for (const [name, schema] of definition.template.parameters) {
    const value = definition.parameters.get(name);
    if (value === undefined || isUnknown(value)) continue;
    out[name] = schema.hidden ? MASK : pyStr(value as Json);
  }
  return out;
}

/** A stack in full (`GET /stacks/{name}/{id}`). */
export function stackDetail(
  base: Base,
  stack: StackRecord,
  definition: StackDefinition | undefined,
  outputs: StackOutput[] | undefined,
): JsonObject {
  const description = definition ? shownDescription(definition.template) : '';
  return {
    stack_name: stack.name,
    id: stack.id,
    links: links(base, stack) as unknown as Json,
    creation_time: heatTime(stack.createdAt),
    updated_time: updatedTime(stack),
    deletion_time: heatTime(stack.deletedAt),
    notification_topics: [],
    parameters: shownParameters(definition, stack),
    description,
    template_description: description,
    capabilities: [],
    disable_rollback: stack.disableRollback,
    timeout_mins: stack.timeoutMins,
    stack_owner: stack.projectId,
    parent: stack.parentId,
    stack_user_project_id: stack.projectId,
    tags: stack.tags,
    stack_status: stackStatus(stack),
    stack_status_reason: stack.reason,
    // Hearth's own, only for an observed stack (docs/observer.md).
    ...(stack.observe ? { observe_interval: stack.observe.intervalMs / 1000, heal: stack.observe.heal } : {}),
    ...(outputs ? { outputs: outputs as unknown as Json } : {}),
  };
}
