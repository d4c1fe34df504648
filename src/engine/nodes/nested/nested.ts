import { randomUUID } from 'node:crypto';
import { ResourceFailure } from '../../../resources/contract.js';
import { isNestedPlugin, type NestedMember, type NestedPlugin } from '../../../resources/nested-type.js';
import { withRemoteTemplate } from '../../context/remote-template.js';
import { childPeer } from '../../context/peers.js';
import type { NodeOutput } from '../../core/nodes.js';
import type { ResourceRecord, ResourceState, StackRecord, Tx } from '../../../store/contract.js';
import { TemplateError } from '../../../template/errors.js';
import { resolveFacade } from '../../../template/facade.js';
import type { Value } from '../../../template/functions/types.js';
import type { DefinedResource, StackDefinition } from '../../../template/stack-definition.js';
import { validateProperties } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import {
  bindChild,
  CHILD_KEY,
  childOutputs,
  childParameters,
  type ChildSpec,
  childSpec,
  childStackOf,
  childTemplateRecord,
  DIGEST_KEY,
  generatedChildSpec,
  guarded,
  NESTED_SAFETY_MS,
  type NestedProgress,
  nestedProgress,
  newChildStack,
  park,
  type ParkedPayload,
  parentTemplate,
  Retry,
  regionOf,
} from '../../context/child-stack.js';
import { inWantedRegion, regionUnreachable } from '../../context/child-region.js';
import { finishCleanup } from '../record.js';
import { cloudOf, ownerOf } from '../../core/deps.js';
import { resourceEvent } from '../../core/events.js';
import { stopAtHook } from '../../context/hooks.js';
import { failNode } from '../failure.js';
import { adoptFailureText, nestedFailureText, resourceFailureText } from '../../core/failure-text.js';
import type { LockState } from '../locks.js';
import { lockState } from '../locks.js';
import { inputsOf, type NodeScope, type Operation, requiresWhileRunning } from '../../context/node-work.js';
import { convergesChild } from '../converge.js';
import { desiredOf } from '../../core/plan.js';
import { unchangedFor } from '../unchanged.js';
import { resumeNestedCheck } from './nested-check.js';
import { nestedResources } from '../../context/adopt-document.js';
import { ADOPT_KEY, adoptEntryOf } from '../../core/rows.js';
import { resumeNestedVisit } from '../suspend-node.js';
import { NodeResolveContext } from '../../context/resolver.js';
import { loadZones } from '../../context/zones.js';
import { beginTraversal } from '../../core/traversal.js';
import { drop, retryLater, waitForLock } from '../../context/node-work.js';
import { makeReplacement, recordDone } from '../record.js';

/**
 * Template resources: a resource whose type is a template is implemented by a child stack (its
 * own stack row, template row and traversals). The parent's unit of work starts the child's
 * operation in the transaction that locks the row, and parks on the child's end event
 * (`stack:<child>`), which the child's finishTraversal/failTraversal raises: the parent never
 * polls, and never loads the child's resources except to read its outputs once it is done.
 * The row's `progress` says what the child is converging to, so a newer traversal's node can take
 * the lock and the wait over instead of waiting for the old operation to end.
 */

const ACTION: Record<Operation, 'CREATE' | 'UPDATE' | 'DELETE'> = {
  create: 'CREATE',
  update: 'UPDATE',
  delete: 'DELETE',
};

/** The first step of the update node of a template resource. */
export async function runNestedUpdate(
  scope: NodeScope,
  definition: StackDefinition,
  resource: DefinedResource,
  row: ResourceRecord,
): Promise<void> {
  const impl = resource.implementation;
  const plugin = impl.kind === 'plugin' ? scope.deps.plugins.plugin(impl.type) : undefined;
  if (impl.kind !== 'template' && !isNestedPlugin(plugin)) {
    throw new Error(`internal: ${row.name} is not a template resource`);
  }
  let spec: ChildSpec;
  try {
    const ctx = new NodeResolveContext(definition, inputsOf(scope.point));
    const path = [...resource.definition.path, 'properties'];
    const resolved = ctx.resolve(resource.definition.properties);
    const templateId = scope.traversal?.templateId;
    const parent = templateId ? await parentTemplate(scope, templateId) : undefined;
    if (!parent) return drop(scope);
    const facade = resolveFacade(ctx, resource.definition);
    if (impl.kind === 'template') {
      const properties = childParameters(resolved, path);
      const typePath = [...resource.definition.path, 'type'];
      spec = childSpec(scope, parent, row.name, impl, properties, typePath, facade);
    } else {
      // A nested-stack type: its child template is generated from the converted properties.
      const nestedPlugin = plugin as NestedPlugin;
      const properties = validateProperties(nestedPlugin.properties, resolved ?? {}, path) as Record<
        string,
        Value
      >;
      const updatePolicy = ctx.resolve(resource.definition.updatePolicy);
      const files = await withRemoteTemplate(scope.deps, nestedPlugin, properties, parent.files);
      const gather = nestedPlugin.nested.gather?.bind(nestedPlugin.nested);
      const peerRef = nestedPlugin.nested.peer?.(properties);
      const outputs = Object.values(scope.point?.inputs ?? {}) as unknown as (NodeOutput | null)[];
      const peer =
        peerRef === undefined ? undefined : await childPeer(scope.deps, row.stackId, peerRef, outputs);
      const child = nestedPlugin.nested.child(properties, row.data, {
        updatePolicy,
        creating: childStackOf(row) === undefined,
        settled: row.status === 'COMPLETE' && nestedProgress(row) === undefined,
        files,
        stackParameters: definition.parameters,
        ...(gather ? { gathered: await gather(properties, cloudOf(scope.deps, ownerOf(scope.stack))) } : {}),
        ...(peer ? { peer } : {}),
      });
      spec = generatedChildSpec(parent, row.name, impl.type, child, properties as JsonObject, facade);
    }
  } catch (err) {
    if (err instanceof TemplateError || err instanceof ResourceFailure) {
      return failNode(scope, row, resourceFailureText(err, row.name));
    }
    throw err;
  }

  const lock = await lockState(scope, row);
  const inflight = nestedProgress(row);
  const converging = inflight?.op === 'create' || inflight?.op === 'update' ? inflight : undefined;
  // A unit parked on the child's create or update holds nothing but the lock: this node may take
  // it over. A delete or a check runs to its end first.
  if (lock === 'busy' && !converging) return waitForLock(scope);
  if (converging) {
    if (converging.digest === spec.digest) return adopt(scope, row, converging);
    return converge(scope, row, spec, 'update', converging.child);
  }

  if (row.action === 'INIT' && scope.traversal?.action === 'ADOPT') {
    // Adopted: the child is made from the resource's entry, a document of its own (adopt.ts).
    const resources = nestedResources(adoptEntryOf(row));
    if (!resources) {
      const why = 'Resource ID was not provided (the adopt data has no nested stack for it)';
      return failNode(scope, row, adoptFailureText(why, row.name), 'ADOPT');
    }
    return converge(scope, row, spec, 'create', randomUUID(), resources);
  }
  const childId = childStackOf(row);
  if ((childId === undefined && row.physicalId !== null) || row.action === 'DELETE') {
    // A plugin resource became a template resource, or the row's child was being deleted.
    if (await stopAtHook(scope, row, 'update')) return;
    const fresh = await makeReplacement(scope, row);
    if (!fresh) return retryLater(scope);
    return converge(scope, fresh, spec, 'create', randomUUID());
  }
  const child = childId === undefined ? undefined : await scope.deps.store.tx((tx) => tx.stacks.get(childId));
  if (!child || child.deletedAt || child.action === 'DELETE') {
    // A breakpoint (hooks.ts), as for a plugin resource: a remade child stops where an update would.
    if (await stopAtHook(scope, row, row.action === 'INIT' ? 'create' : 'update')) return;
    return converge(scope, row, spec, 'create', randomUUID());
  }
  const wanted = spec.region ?? regionOf(scope.stack);
  if (!(await inWantedRegion(scope.deps, ownerOf(scope.stack), regionOf(child), wanted))) {
    // A stack does not move between regions: a new child is made in the new one (the old one
    // is deleted with the replaced row), as a changed property that cannot be updated does.
    if (await stopAtHook(scope, row, 'update')) return;
    const fresh = await makeReplacement(scope, row);
    if (!fresh) return retryLater(scope);
    return converge(scope, fresh, spec, 'create', randomUUID());
  }
  const unchanged =
    row.data[DIGEST_KEY] === spec.digest &&
    row.type === spec.type &&
    row.status === 'COMPLETE' &&
    !row.unhealthy &&
    child.status === 'COMPLETE' &&
    !convergesChild(scope.traversal?.converge, child.id);
  if (unchanged) {
    const properties = (row.properties ?? {}) as Record<string, Value>;
    return recordDone(scope, row, properties, row.engineId, { refId: child.id, attributes: row.attributes });
  }
  // Heat pauses before any update of the resource, the child stack's in-place update included.
  if (await stopAtHook(scope, row, 'update')) return;
  return converge(scope, row, spec, 'update', child.id);
}

/** The cleanup node of a template resource row: delete its child stack and wait for the end. */
export async function runNestedDelete(scope: NodeScope, row: ResourceRecord, lock: LockState): Promise<void> {
  const inflight = nestedProgress(row);
  if (lock === 'busy' && (!inflight || inflight.op === 'check')) return waitForLock(scope);
  if (inflight?.op === 'delete') return adopt(scope, row, inflight);
  if (await stopAtHook(scope, row, 'delete')) return;
  return deleteChild(scope, row);
}

/**
 * A parked unit runs again: woken by its child's end (or, if an event was lost, its safety
 * deadline). The child done, the row records the outcome; still running, the unit parks again.
 */
export async function resumeNested(scope: NodeScope, payload: ParkedPayload): Promise<void> {
  const { deps } = scope;
  const { row, child } = await deps.store.tx(async (tx) => ({
    row: await tx.resources.get(payload.row),
    child: await tx.stacks.get(payload.child),
  }));
  if (!row || row.status !== 'IN_PROGRESS') return drop(scope);
  const lock = await lockState(scope, row);
  // Another unit took the operation over (or it ended): nothing is left for this one.
  if (lock === 'busy' || lock === 'free') return drop(scope);
  // A delete needs nothing of the progress record but the child: whatever became of it, the
  // child's own state says whether the row is deleted, failed (naming what is left) or goes on.
  if (payload.op === 'delete') {
    if (!child || (child.action === 'DELETE' && child.status === 'COMPLETE')) {
      return finishCleanup(scope, row, row.engineId, true);
    }
    if (child.status === 'IN_PROGRESS') return repark(scope, payload);
    if (child.action === 'DELETE')
      return failNode(scope, row, nestedFailureText(child.reason, 'DELETE', row.name));
    return deleteChild(scope, row); // the child was changed behind the delete: delete it again
  }
  const progress = nestedProgress(row);
  if (!progress) return failNode(scope, row, 'internal: the nested stack operation was lost');
  if (payload.op === 'check') return resumeNestedCheck(scope, row, child, () => repark(scope, payload));
  if (payload.op === 'suspend' || payload.op === 'resume')
    return resumeNestedVisit(scope, row, child, () => repark(scope, payload));

  if (!child || child.deletedAt || child.action === 'DELETE') {
    return failNode(scope, row, `the nested stack ${payload.child} was deleted`);
  }
  if (child.status === 'IN_PROGRESS') return repark(scope, payload);
  if (child.status === 'FAILED') {
    return failNode(scope, row, nestedFailureText(child.reason, child.action, row.name));
  }
  const outputs = await childOutputs(scope, child);
  const done = { ...row, data: { ...row.data, [CHILD_KEY]: child.id, [DIGEST_KEY]: progress.digest } };
  if (progress.generated) {
    const plugin = deps.plugins.plugin(progress.type);
    if (isNestedPlugin(plugin))
      outputs.attributes = await generatedAttributes(scope, plugin, done, child, outputs);
  }
  const properties = progress.properties as Record<string, Value>;
  return recordDone(scope, done, properties, row.engineId, outputs, progress.adopt ? 'adopt' : payload.op, {
    type: progress.type,
    unhealthy: false,
  });
}

/**
 * Starts the child's CREATE (a new child stack) or UPDATE traversal and parks, all in the
 * transaction that locks the row (taking it over from a parked unit if there is one). `adopt`:
 * the new child is adopted (an ADOPT traversal), these its resources' entries.
 */
async function converge(
  scope: NodeScope,
  row: ResourceRecord,
  spec: ChildSpec,
  op: 'create' | 'update',
  childId: string,
  adopt?: Readonly<Record<string, Json>>,
): Promise<void> {
  const { deps } = scope;
  const now = deps.clock.now();
  const existing = op === 'update' ? await deps.store.tx((tx) => tx.stacks.get(childId)) : undefined;
  if (op === 'update' && (!existing || existing.deletedAt || existing.action === 'DELETE')) {
    return converge(scope, row, spec, 'create', randomUUID());
  }
  if (!existing && spec.region !== undefined) {
    const unreachable = await regionUnreachable(deps, ownerOf(scope.stack), spec.region);
    if (unreachable) return failNode(scope, row, unreachable);
  }
  const identity = existing ?? newChildStack(scope.stack, row.name, childId, now, spec.region);
  const record = childTemplateRecord(randomUUID(), spec, now);
  let definition: StackDefinition;
  try {
    definition = await bindChild(scope, record, identity);
  } catch (err) {
    if (err instanceof TemplateError) return failNode(scope, row, resourceFailureText(err, row.name));
    throw err;
  }
  // What stays unchanged is found by resolving the child's properties (Fn::GetAZs among them).
  if (op === 'update') await loadZones(deps, identity, definition);
  const action = adopt ? 'ADOPT' : ACTION[op];
  const progress: NestedProgress = {
    child: childId,
    op,
    properties: spec.properties,
    digest: spec.digest,
    type: spec.type,
    ...(spec.data ? { generated: true } : {}),
    ...(adopt ? { adopt: true } : {}),
  };
  const { [ADOPT_KEY]: _entry, ...kept } = row.data;
  const started = await guarded(
    deps.store.tx(async (tx) => {
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder,
        action,
        status: 'IN_PROGRESS',
        reason: 'state changed',
        physicalId: childId,
        data: { ...kept, ...spec.data, [CHILD_KEY]: childId },
        requires: requiresWhileRunning(scope, row),
        progress: progress as unknown as JsonObject,
        updatedAt: new Date(now).toISOString(),
      });
      if (!locked) return false;
      // Heat's event of a create carries the resource's physical name, which is the child stack's
      // name: clients label the child's events with the resource's name through it.
      const subject = op === 'create' ? { ...locked, physicalId: identity.name } : locked;
      await tx.events.append([resourceEvent(subject, action, 'IN_PROGRESS', 'state changed', now)]);
      await tx.templates.insert(record, identity.rootId);
      if (op === 'create') await tx.stacks.insert(identity);
      const child = op === 'create' ? identity : await tx.stacks.get(childId);
      const payload: ParkedPayload = { phase: 'nested', op, row: row.id, child: childId };
      if (!child) throw new Retry();
      await park(tx, scope, payload, now + NESTED_SAFETY_MS);
      const desired = desiredOf(definition);
      await beginTraversal(tx, {
        stack: child,
        action,
        templateId: record.id,
        desired,
        ...(op === 'update'
          ? {
              unchanged: unchangedFor(deps, definition, desired),
              converge: scope.traversal?.converge ?? null,
            }
          : {}),
        ...(adopt ? { adopt } : {}),
        now,
      });
      return true;
    }),
  );
  if (!started) return retryLater(scope);
}

/** Starts the child's DELETE traversal and parks (or finishes at once if the child is gone). */
async function deleteChild(scope: NodeScope, row: ResourceRecord): Promise<void> {
  const { deps } = scope;
  const childId = childStackOf(row)!;
  const now = deps.clock.now();
  const progress: NestedProgress = {
    child: childId,
    op: 'delete',
    properties: row.properties ?? {},
    digest: '',
    type: row.type,
  };
  const outcome = await guarded(
    deps.store.tx(async (tx) => {
      const child = await tx.stacks.get(childId);
      if (!child || (child.action === 'DELETE' && child.status === 'COMPLETE')) return 'gone';
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder,
        action: 'DELETE',
        status: 'IN_PROGRESS',
        reason: 'state changed',
        progress: progress as unknown as JsonObject,
      });
      if (!locked) return false;
      await tx.events.append([resourceEvent(locked, 'DELETE', 'IN_PROGRESS', 'state changed', now)]);
      const payload: ParkedPayload = { phase: 'nested', op: 'delete', row: row.id, child: childId };
      await park(tx, scope, payload, now + NESTED_SAFETY_MS);
      await beginTraversal(tx, {
        stack: child,
        action: 'DELETE',
        templateId: child.templateId,
        desired: [],
        now,
      });
      return 'parked';
    }),
  );
  if (outcome === 'gone') return finishCleanup(scope, row, row.engineId, true);
  if (!outcome) return retryLater(scope);
}

/** Takes over the lock and the wait of a child operation already converging to what this node wants. */
async function adopt(scope: NodeScope, row: ResourceRecord, inflight: NestedProgress): Promise<void> {
  const { deps } = scope;
  const now = deps.clock.now();
  const payload: ParkedPayload = { phase: 'nested', op: inflight.op, row: row.id, child: inflight.child };
  const adopted = await guarded(
    deps.store.tx(async (tx) => {
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder,
      });
      if (!locked) return false;
      await parkOnChild(tx, scope, payload, now);
      return true;
    }),
  );
  if (!adopted) return retryLater(scope);
}

/** The child is still running: park again (due at once if it ended meanwhile). */
async function repark(scope: NodeScope, payload: ParkedPayload): Promise<void> {
  const { deps } = scope;
  await deps.store.tx((tx) => parkOnChild(tx, scope, payload, deps.clock.now()));
}

async function parkOnChild(tx: Tx, scope: NodeScope, payload: ParkedPayload, now: number): Promise<void> {
  const child = await tx.stacks.get(payload.child);
  const runAt = child?.status === 'IN_PROGRESS' ? now + NESTED_SAFETY_MS : now;
  return park(tx, scope, payload, runAt);
}

/**
 * A nested-stack type's attributes, from its child's resources' cached attributes and reference
 * ids: read once, when the child is done.
 */
export async function generatedAttributes(
  scope: Pick<NodeScope, 'deps'>,
  plugin: NestedPlugin,
  row: ResourceRecord,
  child: StackRecord,
  outputs: { attributes: Record<string, Json> },
): Promise<Record<string, Json>> {
  const rows = await scope.deps.store.tx((tx) => tx.resources.listStates(child.id));
  // One row per member: the one of the child's current template when a replacement left two.
  const byName = new Map<string, ResourceState>();
  for (const r of rows) {
    const seen = byName.get(r.name);
    if (!seen || r.templateId === child.templateId) byName.set(r.name, r);
  }
  const members: NestedMember[] = [...byName.values()].map((r) => ({
    name: r.name,
    refId: r.physicalId,
    attributes: r.attributes,
  }));
  return plugin.nested.attributes({
    childId: child.id,
    childName: child.name,
    properties: (row.properties ?? {}) as Record<string, Value>,
    data: row.data,
    members,
    outputs: outputs.attributes,
  });
}
