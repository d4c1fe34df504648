import { randomUUID } from 'node:crypto';
import { ResourceFailure } from '../../resources/contract.js';
import type { NestedPlugin } from '../../resources/nested-type.js';
import { withRemoteTemplate } from '../context/remote-template.js';
import { childPeer } from '../context/peers.js';
import type { ResourceRecord, StackRecord } from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import { resolveFacade } from '../../template/facade.js';
import type { Value } from '../../template/functions/types.js';
import { validateProperties } from '../../template/properties/index.js';
import type { DefinedResource, StackDefinition } from '../../template/stack-definition.js';
import type { JsonObject } from '../../util/json.js';
import {
  CHILD_KEY,
  childOutputs,
  childParameters,
  type ChildSpec,
  childSpec,
  childStackOf,
  childTemplateRecord,
  DIGEST_KEY,
  generatedChildSpec,
  newChildStack,
  parentTemplate,
  regionOf,
} from '../context/child-stack.js';
import { inWantedRegion, regionUnreachable } from '../context/child-region.js';
import { cloudOf, ownerOf } from '../core/deps.js';
import { stackEvent } from '../core/events.js';
import { generatedAttributes } from '../nodes/nested/nested.js';
import type { NodeOutput } from '../core/nodes.js';
import { NodeResolveContext } from '../context/resolver.js';
import { type LegacyRun, StackFailed, StackTimedOut, WalkInterrupted } from './context.js';
import {
  abortedText,
  nestedFailureText,
  resourceFailureText,
  stackFailureText,
  TIMED_OUT,
} from '../core/failure-text.js';
import { lockRow, recordDone, recordFailed } from './resource-op.js';

/** Runs a child stack's operation to its end (stack-walk.ts), throwing StackFailed. */
export type ChildWalk = (child: StackRecord) => Promise<void>;

/**
 * A template resource (or a nested-stack type such as ResourceGroup) in a legacy walk: its child
 * stack, also a legacy stack, is created or updated and walked right here, inside the parent's
 * walk and under the root's lock, as Heat's legacy engine did; its outputs become the row's
 * attributes.
 */
export async function convergeNested(
  run: LegacyRun,
  stack: StackRecord,
  definition: StackDefinition,
  resource: DefinedResource,
  plugin: NestedPlugin | undefined,
  row: ResourceRecord,
  inputs: ReadonlyMap<string, NodeOutput>,
  walk: ChildWalk,
): Promise<NodeOutput> {
  let spec: ChildSpec;
  try {
    spec = await specOf(run, stack, definition, resource, plugin, row, inputs);
  } catch (err) {
    if (!(err instanceof TemplateError) && !(err instanceof ResourceFailure)) throw err;
    const op = row.action === 'INIT' ? 'create' : 'update';
    const reason = resourceFailureText(err, row.name);
    await recordFailed(run, row, op, reason);
    throw new StackFailed(stackFailureText(op.toUpperCase(), reason));
  }
  const childId = childStackOf(row);
  const existing =
    childId === undefined ? undefined : await run.deps.store.tx((tx) => tx.stacks.get(childId));
  const child = existing && !existing.deletedAt && existing.action !== 'DELETE' ? existing : undefined;
  const settled = row.status === 'COMPLETE' && !row.unhealthy && child?.status === 'COMPLETE';
  if (settled && row.data[DIGEST_KEY] === spec.digest && row.type === spec.type) {
    return { name: row.name, rowId: row.id, refId: child.id, attributes: row.attributes };
  }
  const op = child ? 'update' : 'create';
  const refused = await refusedRegion(run, stack, child, spec);
  if (refused) {
    await recordFailed(run, row, op, refused);
    throw new StackFailed(`Resource ${op.toUpperCase()} failed: ${refused}`);
  }
  const lockedRow = await lockRow(run, row, op, spec.properties as Record<string, Value>);
  // A child this operation left under way (the engine died) is walked on as it is.
  const started =
    child?.status === 'IN_PROGRESS' && child.traversalId === stack.traversalId
      ? { child, row: lockedRow }
      : await startChild(run, stack, lockedRow, child, spec);
  const locked = started.row;
  try {
    await walk(started.child);
  } catch (err) {
    if (err instanceof StackTimedOut) {
      await recordFailed(run, locked, op, abortedText(op.toUpperCase(), TIMED_OUT));
      throw err;
    }
    if (err instanceof StackFailed) {
      const reason = nestedFailureText(err.message, op.toUpperCase(), locked.name);
      await recordFailed(run, locked, op, reason);
      throw new StackFailed(stackFailureText(op.toUpperCase(), reason));
    }
    throw err;
  }
  const ended = (await run.deps.store.tx((tx) => tx.stacks.get(started.child.id)))!;
  const outputs = await childOutputs(run, ended);
  const data = { ...locked.data, ...spec.data, [CHILD_KEY]: ended.id, [DIGEST_KEY]: spec.digest };
  const attributes = plugin
    ? await generatedAttributes(run, plugin, { ...locked, properties: spec.properties, data }, ended, outputs)
    : outputs.attributes;
  const done = await recordDone(run, { ...locked, physicalId: ended.id }, op, {
    type: spec.type,
    properties: spec.properties,
    attributes: attributes as JsonObject,
    data,
    templateId: stack.templateId,
  });
  return { name: done.name, rowId: done.id, refId: outputs.refId, attributes };
}

/**
 * Why the child cannot be made or kept in its region (OS::Heat::Stack's `context.region_name`): a
 * region the owner's catalog lacks; a changed region, which the convergence engine handles by
 * replacing the child and the legacy walk does not.
 */
async function refusedRegion(
  run: LegacyRun,
  stack: StackRecord,
  child: StackRecord | undefined,
  spec: ChildSpec,
): Promise<string | undefined> {
  if (child) {
    const wanted = spec.region ?? regionOf(stack);
    if (await inWantedRegion(run.deps, ownerOf(stack), regionOf(child), wanted)) return undefined;
    return 'the region of a legacy stack’s OS::Heat::Stack cannot change (migrate the stack to convergence: hearth manage migrate-convergence)';
  }
  return spec.region === undefined ? undefined : regionUnreachable(run.deps, ownerOf(stack), spec.region);
}

/** What the child is built from: the nested file, or the template a nested-stack type generates. */
async function specOf(
  run: LegacyRun,
  stack: StackRecord,
  definition: StackDefinition,
  resource: DefinedResource,
  plugin: NestedPlugin | undefined,
  row: ResourceRecord,
  inputs: ReadonlyMap<string, NodeOutput>,
): Promise<ChildSpec> {
  const impl = resource.implementation;
  const ctx = new NodeResolveContext(definition, inputs);
  const path = [...resource.definition.path, 'properties'];
  const resolved = ctx.resolve(resource.definition.properties);
  const parent = await parentTemplate(run, stack.templateId!);
  if (!parent) throw new TemplateError('reference', `the template of stack ${stack.name} is gone`, path);
  const facade = resolveFacade(ctx, resource.definition);
  if (impl.kind === 'template') {
    const properties = childParameters(resolved, path);
    return childSpec(run, parent, row.name, impl, properties, [...resource.definition.path, 'type'], facade);
  }
  const properties = validateProperties(plugin!.properties, resolved ?? {}, path) as Record<string, Value>;
  const updatePolicy = ctx.resolve(resource.definition.updatePolicy);
  const files = await withRemoteTemplate(run.deps, plugin!, properties, parent.files);
  const peerRef = plugin!.nested.peer?.(properties);
  const peer =
    peerRef === undefined ? undefined : await childPeer(run.deps, stack.id, peerRef, inputs.values());
  const child = plugin!.nested.child(properties, row.data, {
    updatePolicy,
    creating: childStackOf(row) === undefined,
    files,
    stackParameters: definition.parameters,
    ...(plugin!.nested.gather
      ? { gathered: await plugin!.nested.gather(properties, cloudOf(run.deps, ownerOf(stack))) }
      : {}),
    ...(peer ? { peer } : {}),
  });
  return generatedChildSpec(parent, row.name, impl.type, child, properties as JsonObject, facade);
}

/** Creates the child stack, or points it at its new template, IN_PROGRESS, in one transaction. */
async function startChild(
  run: LegacyRun,
  parent: StackRecord,
  row: ResourceRecord,
  child: StackRecord | undefined,
  spec: ChildSpec,
): Promise<{ child: StackRecord; row: ResourceRecord }> {
  const { deps } = run;
  const now = deps.clock.now();
  const record = childTemplateRecord(randomUUID(), spec, now);
  return deps.store.tx(async (tx) => {
    await tx.templates.insert(record, parent.rootId);
    if (!child) {
      const fresh = {
        ...newChildStack(parent, row.name, randomUUID(), now, spec.region),
        convergence: false,
        templateId: record.id,
        traversalId: parent.traversalId,
      };
      await tx.stacks.insert(fresh);
      await tx.events.append([stackEvent(fresh, 'CREATE', 'IN_PROGRESS', 'Stack CREATE started', now)]);
      // The row knows its child from now on: a takeover resumes this child rather than make another.
      const linked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        physicalId: fresh.id,
        data: { ...row.data, [CHILD_KEY]: fresh.id },
      });
      if (!linked) throw new WalkInterrupted(`resource ${row.name} was changed by another writer`);
      return { child: fresh, row: linked };
    }
    const changes = {
      action: 'UPDATE' as const,
      status: 'IN_PROGRESS' as const,
      reason: 'Stack UPDATE started',
      templateId: record.id,
      prevTemplateId: child.templateId,
      traversalId: parent.traversalId,
      updatedAt: new Date(now).toISOString(),
    };
    await tx.stacks.update(child.id, null, changes);
    await tx.events.append([stackEvent(child, 'UPDATE', 'IN_PROGRESS', changes.reason, now)]);
    return { child: { ...child, ...changes }, row };
  });
}

/** The child stack a template resource row implements, to delete with it. */
export async function childToDelete(run: LegacyRun, row: ResourceRecord): Promise<StackRecord | undefined> {
  const childId = childStackOf(row);
  if (childId === undefined) return undefined;
  const child = await run.deps.store.tx((tx) => tx.stacks.get(childId));
  return child && !child.deletedAt ? child : undefined;
}

/** Starts a child's DELETE (its state and event). */
export async function startChildDelete(
  run: LegacyRun,
  parent: StackRecord,
  child: StackRecord,
): Promise<StackRecord> {
  const now = run.deps.clock.now();
  const changes = {
    action: 'DELETE' as const,
    status: 'IN_PROGRESS' as const,
    reason: 'Stack DELETE started',
    traversalId: parent.traversalId,
    updatedAt: new Date(now).toISOString(),
  };
  await run.deps.store.tx(async (tx) => {
    await tx.stacks.update(child.id, null, changes);
    await tx.events.append([stackEvent(child, 'DELETE', 'IN_PROGRESS', changes.reason, now)]);
  });
  return { ...child, ...changes };
}
