import { randomUUID } from 'node:crypto';
import type {
  ObservePolicy,
  ResourceRecord,
  StackCredentials,
  StackRecord,
  TemplateRecord,
  Tx,
} from '../store/contract.js';
import type { Environment } from '../template/environment/index.js';
import type { DeferredConstraints, StackDefinition } from '../template/stack-definition.js';
import {
  checkCloudConstraints,
  type CloudConstraintCollector,
  cloudConstraintCollector,
} from './cloud-constraints.js';
import { type Json, jsonEqual } from '../util/json.js';
import { type CredentialSource, DEPLOYMENT, type EngineDeps, ownerOf, type StackOwner } from './deps.js';
import type { DesiredResource } from './plan.js';
import { bindTemplateSliced, environmentFromJSON, environmentJSON, type TemplateCache } from './templates.js';
import { resourceEvent } from './events.js';
import { currentRow } from './rows.js';
import { enqueueRollback } from './failure.js';
import { failTraversal } from './finish.js';
import { type BeginOptions, beginTraversal, ConflictError } from './traversal.js';
import { beginVisit } from './suspend-node.js';
import { deleteStackSnapshots } from './snapshot-state.js';
import { setObservation } from './observer.js';
import { refuseRestrictedActions } from './restricted.js';
import { unchangedResources } from './unchanged.js';
import { actionInProgress, beginLegacy, notInLegacyMode } from './legacy/begin.js';
import { migrateOnUpdate } from './legacy/migrate.js';
import { timeoutProblem } from './stack-timeout.js';

/** A template as a client sends it: the document, its URL, its environment and files. */
export interface TemplateInput {
  url: string;
  text: string;
  files: Record<string, string>;
  environment: Environment;
}

export interface CreateRequest {
  name: string;
  projectId: string;
  template: TemplateInput;
  timeoutMins?: number | null;
  /** Heat's default: a failed create or update is not rolled back. */
  disableRollback?: boolean;
  tags?: string[];
  /** Continuous observation (observer.ts); absent: off. */
  observe?: ObservePolicy | null;
  /**
   * Whose credentials the stack's cloud calls use (absent: the deployment's login, as the embedded
   * CLI's); a source makes them once the template is valid (a Keystone trust).
   */
  credentials?: StackCredentials | CredentialSource;
}

export interface UpdateRequest {
  /** The new template; absent (`--existing`), the stored one with `parameters` merged in. */
  template?: TemplateInput;
  parameters?: Record<string, Json>;
  disableRollback?: boolean;
  timeoutMins?: number | null;
  /** New tags for the stack; absent, they stay. */
  tags?: string[];
  /**
   * Decide every resource's action from its live state (Heat's `converge`; converge.ts); the
   * `observe_on_update` setting makes it the default.
   */
  converge?: boolean;
  /** Starts, changes (a policy) or stops (null) the stack's observation; absent, it stays. */
  observe?: ObservePolicy | null;
}

/** The operation cannot start: bad input or a state that forbids it. */
export class OperationError extends Error {
  override readonly name = 'OperationError';
  constructor(
    message: string,
    readonly code: 'not_found' | 'conflict' | 'invalid',
  ) {
    super(message);
  }
}

const STACK_NAME = /^[a-zA-Z][a-zA-Z0-9_.-]{0,254}$/;

function checkTimeout(mins: number | null | undefined): void {
  const problem = mins === null || mins === undefined ? undefined : timeoutProblem(mins);
  if (problem) throw new OperationError(problem, 'invalid');
}

/** Validates a create request (name, template) without writing anything. */
export async function prepareCreate(
  deps: EngineDeps,
  cache: TemplateCache,
  req: CreateRequest,
  id: string,
  /** Whose cloud the constraints are looked up in (by default the request's credentials, if made). */
  owner: StackOwner | (() => StackOwner) = checkingOwner(req),
): Promise<{
  record: TemplateRecord;
  definition: StackDefinition;
  constraints: CloudConstraintCollector | undefined;
}> {
  if (!STACK_NAME.test(req.name)) {
    throw new OperationError(
      `invalid stack name "${req.name}": it must start with a letter and contain only letters, digits, _, - and .`,
      'invalid',
    );
  }
  checkTimeout(req.timeoutMins);
  const record = templateRecord(req.template, deps.clock.now());
  const constraints = cloudConstraintCollector(deps, owner);
  const definition = await bind(
    deps,
    cache,
    record,
    { id, name: req.name, projectId: req.projectId },
    constraints,
  );
  return { record, definition, constraints };
}

/** The owner a request's checks act as when no credentials are made for them (a preview, a validate). */
function checkingOwner(req: CreateRequest): StackOwner {
  const given = req.credentials ?? DEPLOYMENT;
  // No trust is made for a check: it looks things up as the project's own cloud would.
  return { projectId: req.projectId, credentials: 'obtain' in given ? { kind: 'project' } : given };
}

/**
 * The request's credentials, made now if they come from a source; `discard` undoes what was made
 * (a trust) when the create is refused after all.
 */
async function obtainCredentials(
  req: CreateRequest,
): Promise<{ credentials: StackCredentials; discard: () => Promise<void> }> {
  const given = req.credentials ?? DEPLOYMENT;
  if (!('obtain' in given)) return { credentials: given, discard: async () => {} };
  const credentials = await given.obtain();
  return { credentials, discard: () => given.discard(credentials) };
}

export async function createStack(
  deps: EngineDeps,
  cache: TemplateCache,
  req: CreateRequest,
  /** An adopt (adopt.ts): the stack's action is ADOPT, each resource's entry goes with its row. */
  adopt?: { resources: Readonly<Record<string, Json>> },
): Promise<StackRecord> {
  const action = adopt ? 'ADOPT' : 'CREATE';
  const id = randomUUID();
  // The constraints are looked up as the owner, whose credentials exist only after binding.
  const known: { owner?: StackOwner } = {};
  const { record, definition, constraints } = await prepareCreate(deps, cache, req, id, () => known.owner!);
  // Made only for a valid template; nothing is stored when they cannot be made.
  const { credentials, discard } = await obtainCredentials(req);
  known.owner = { projectId: req.projectId, credentials };
  try {
    return await storeCreate(deps, req, { id, action, record, definition, constraints, credentials }, adopt);
  } catch (error) {
    await discard().catch(() => undefined);
    throw error;
  }
}

/** The rest of a create, once its credentials exist: checks against the cloud, then one transaction. */
async function storeCreate(
  deps: EngineDeps,
  req: CreateRequest,
  made: {
    id: string;
    action: 'ADOPT' | 'CREATE';
    record: TemplateRecord;
    definition: StackDefinition;
    constraints: CloudConstraintCollector | undefined;
    credentials: StackCredentials;
  },
  adopt: { resources: Readonly<Record<string, Json>> } | undefined,
): Promise<StackRecord> {
  const { id, action, record, definition, constraints, credentials } = made;
  const now = deps.clock.now();
  await checkCloudConstraints(constraints);
  // Sticky: the setting at create time decides the stack's engine for good (migration aside).
  // An adopt is a convergence traversal (adopt.ts): adopted stacks run under convergence.
  const convergence = adopt !== undefined || (deps.settings.convergenceEngine ?? true);
  const stack: StackRecord = {
    id,
    name: req.name,
    projectId: req.projectId,
    parentId: null,
    parentResource: null,
    rootId: id,
    action,
    status: 'IN_PROGRESS',
    reason: `Stack ${action} started`,
    traversalId: '',
    templateId: null,
    prevTemplateId: null,
    convergence,
    timeoutMins: req.timeoutMins ?? null,
    disableRollback: req.disableRollback ?? true,
    tags: req.tags ?? [],
    createdAt: new Date(now).toISOString(),
    updatedAt: null,
    deletedAt: null,
    observe: req.observe ?? null,
    credentials,
  };
  if (!convergence && req.observe) throw notInLegacyMode(stack, 'observe and heal it');
  await deps.store.tx(async (tx) => {
    if (await tx.stacks.findByName(req.projectId, req.name)) {
      throw new OperationError(`a stack named "${req.name}" already exists`, 'conflict');
    }
    await tx.templates.insert(record, stack.rootId);
    await tx.stacks.insert(stack);
    if (!convergence) return beginLegacy(tx, stack, { action: 'CREATE', templateId: record.id, now });
    await beginTraversal(tx, {
      stack,
      action,
      templateId: record.id,
      desired: desiredOf(definition),
      now,
      ...(adopt ? { adopt: adopt.resources } : {}),
    });
    if (req.observe) await setObservation(tx, stack, req.observe, now);
  });
  return (await getStack(deps, id))!;
}

/** What an update converges to, validated (shared by the update and its preview). */
export interface PreparedUpdate {
  stack: StackRecord;
  record: TemplateRecord;
  environment: Environment;
  definition: StackDefinition;
}

/** Validates an update request against the stack without writing anything. */
export async function prepareUpdate(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  req: UpdateRequest,
): Promise<PreparedUpdate> {
  const stack = await requireStack(deps, stackId);
  if (stack.action === 'DELETE' && stack.status !== 'FAILED') {
    throw new OperationError(`stack "${stack.name}" is being deleted; it cannot be updated`, 'conflict');
  }
  if (!stack.convergence && stack.status === 'IN_PROGRESS') throw actionInProgress(stack);
  checkTimeout(req.timeoutMins);
  const input = req.template ?? (await storedInput(deps, stack));
  const environment = req.parameters
    ? { ...input.environment, parameters: { ...input.environment.parameters, ...req.parameters } }
    : input.environment;
  const record = templateRecord({ ...input, environment }, deps.clock.now());
  // The stack's own credentials (its creator's trust), whoever asks for the update.
  const constraints = cloudConstraintCollector(deps, ownerOf(stack));
  const definition = await bind(
    deps,
    cache,
    record,
    { id: stack.id, name: stack.name, projectId: stack.projectId },
    constraints,
  );
  await checkCloudConstraints(constraints);
  await refuseImmutableChanges(deps, cache, stack, definition);
  return { stack, record, environment, definition };
}

export async function updateStack(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  req: UpdateRequest,
): Promise<StackRecord> {
  const now = deps.clock.now();
  const prepared = await prepareUpdate(deps, cache, stackId, req);
  const { stack, record, definition } = prepared;
  const refused = await refuseRestrictedActions(deps, prepared, req.disableRollback ?? stack.disableRollback);
  if (refused) return refused;
  const desired = desiredOf(definition);
  const stackChanges = {
    ...(req.disableRollback !== undefined ? { disableRollback: req.disableRollback } : {}),
    ...(req.timeoutMins !== undefined ? { timeoutMins: req.timeoutMins } : {}),
    ...(req.tags !== undefined ? { tags: req.tags } : {}),
  };
  await deps.store.tx(async (tx) => {
    await tx.templates.insert(record, stack.rootId);
    // convergence_migrate_on_update: a legacy stack's tree is migrated in this transaction; a
    // legacy stack that stays one is updated by the legacy engine.
    const current = stack.convergence ? stack : await migrateOnUpdate(tx, deps, cache, stack);
    if (!current.convergence) {
      if (req.converge) throw notInLegacyMode(stack, 'converge an update with live state');
      if (req.observe) throw notInLegacyMode(stack, 'observe and heal it');
      return beginLegacy(tx, current, { action: 'UPDATE', templateId: record.id, now, stackChanges });
    }
    // A person's update: the observer's heal bounds start again (heal-policy.ts).
    await tx.heals.clearTree(stack.rootId);
    if (req.observe !== undefined) await setObservation(tx, current, req.observe, now);
    await beginTraversal(tx, {
      stack: current,
      action: 'UPDATE',
      templateId: record.id,
      desired,
      unchanged: unchangedFor(deps, definition, desired),
      converge: (req.converge ?? deps.settings.observeOnUpdate) ? { mode: 'all' } : null,
      now,
      stackChanges,
    });
  });
  return (await getStack(deps, stackId))!;
}

export async function deleteStack(deps: EngineDeps, stackId: string): Promise<StackRecord> {
  const stack = await requireStack(deps, stackId);
  const now = deps.clock.now();
  if (!stack.convergence) {
    await deps.store.tx(async (tx) => {
      await deleteStackSnapshots(tx, stack, now);
      await beginLegacy(tx, stack, { action: 'DELETE', templateId: stack.templateId, now });
    });
    return (await getStack(deps, stackId))!;
  }
  await deps.store.tx(async (tx) => {
    await deleteStackSnapshots(tx, stack, now);
    await beginTraversal(tx, { stack, action: 'DELETE', templateId: stack.templateId, desired: [], now });
  });
  return (await getStack(deps, stackId))!;
}

/**
 * Checks a stack (Heat's stack check): a CHECK traversal over the stack's current template and
 * the rows it has, in dependency order; each resource's plugin probes its backend (check-node.ts).
 * Nothing is created, deleted or converged; the template stays.
 */
export async function checkStack(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
): Promise<StackRecord> {
  const stack = await requireStack(deps, stackId);
  if (!stack.convergence) throw notInLegacyMode(stack, 'check it');
  if (stack.status === 'IN_PROGRESS') {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_IN_PROGRESS: it can be checked once that ends`,
      'conflict',
    );
  }
  const templateId = stack.templateId;
  const record = templateId ? await deps.store.tx((tx) => tx.templates.get(templateId)) : undefined;
  if (!templateId || !record) {
    throw new OperationError(`stack "${stack.name}" has no template to check against`, 'invalid');
  }
  const identity = { stackId: stack.id, stackName: stack.name, projectId: stack.projectId };
  const definition = cache.get(record, identity);
  await deps.store.tx((tx) =>
    beginTraversal(tx, {
      stack,
      action: 'CHECK',
      templateId,
      desired: desiredOf(definition),
      now: deps.clock.now(),
    }),
  );
  return (await getStack(deps, stackId))!;
}

/**
 * Suspends or resumes a stack (Heat's stack suspend / resume): a SUSPEND traversal visits every
 * resource after those that depend on it, a RESUME one before (suspend-node.ts). A stack already in
 * the asked state is left as it is, as Heat does.
 */
export async function suspendOrResume(
  deps: EngineDeps,
  stackId: string,
  action: 'SUSPEND' | 'RESUME',
): Promise<StackRecord> {
  const stack = await requireStack(deps, stackId);
  if (!stack.convergence) throw notInLegacyMode(stack, action === 'SUSPEND' ? 'suspend it' : 'resume it');
  if (stack.action === action && stack.status === 'COMPLETE') return stack;
  if (stack.status === 'IN_PROGRESS') {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_IN_PROGRESS: it can be ${action === 'SUSPEND' ? 'suspended' : 'resumed'} once that ends`,
      'conflict',
    );
  }
  await deps.store.tx((tx) => beginVisit(tx, stack, action, deps.clock.now()));
  return (await getStack(deps, stackId))!;
}

/**
 * Rolls a failed create or update back: a traversal to the template that was current when the
 * failed operation started (none for a create: everything goes).
 */
export async function rollbackStack(deps: EngineDeps, cache: TemplateCache, stackId: string): Promise<void> {
  const stack = await getStack(deps, stackId);
  if (!stack || stack.status !== 'FAILED' || (stack.action !== 'CREATE' && stack.action !== 'UPDATE')) return;
  const target = stack.action === 'UPDATE' ? stack.prevTemplateId : null;
  let desired: DesiredResource[] = [];
  let definition: StackDefinition | undefined;
  if (target) {
    const record = await deps.store.tx((tx) => tx.templates.get(target));
    if (!record) return;
    definition = await bind(deps, cache, record, {
      id: stack.id,
      name: stack.name,
      projectId: stack.projectId,
    });
    desired = desiredOf(definition);
  }
  await deps.store.tx((tx) =>
    beginTraversal(tx, {
      stack,
      action: 'ROLLBACK',
      templateId: target,
      desired,
      ...(definition ? { unchanged: unchangedFor(deps, definition, desired) } : {}),
      now: deps.clock.now(),
      reason: `Rolling back: ${stack.reason}`,
    }),
  );
}

/** A stack as last committed (a read transaction: it does not queue behind the engine's writes). */
export async function getStack(deps: EngineDeps, stackId: string): Promise<StackRecord | undefined> {
  return deps.store.read((tx) => tx.stacks.get(stackId));
}

/** A stack by name or id, in a project; deleted stacks are not found. */
export async function findStack(deps: EngineDeps, projectId: string, nameOrId: string): Promise<StackRecord> {
  const found = await deps.store.tx(async (tx) => {
    const byName = await tx.stacks.findByName(projectId, nameOrId);
    if (byName) return byName;
    const byId = await tx.stacks.get(nameOrId);
    return byId && byId.projectId === projectId && !byId.deletedAt ? byId : undefined;
  });
  if (!found) throw new OperationError(`stack "${nameOrId}" not found`, 'not_found');
  return found;
}

/** A resource of a stack by name: the row that carries the name now. */
export async function getResource(
  deps: EngineDeps,
  stack: StackRecord,
  name: string,
): Promise<ResourceRecord> {
  const row = currentRow(await deps.store.tx((tx) => tx.resources.findByName(stack.id, name)));
  if (!row) throw resourceNotFound(stack, name);
  return row;
}

function resourceNotFound(stack: StackRecord, name: string): OperationError {
  return new OperationError(`resource "${name}" not found in stack "${stack.name}"`, 'not_found');
}

async function requireStack(deps: EngineDeps, stackId: string): Promise<StackRecord> {
  const stack = await getStack(deps, stackId);
  if (!stack || stack.deletedAt) throw new OperationError(`stack "${stackId}" not found`, 'not_found');
  return stack;
}

/** The template, files and environment a stack was last given (what an `existing` update reuses). */
export async function storedInput(deps: EngineDeps, stack: StackRecord): Promise<TemplateInput> {
  const record = stack.templateId
    ? await deps.store.tx((tx: Tx) => tx.templates.get(stack.templateId!))
    : undefined;
  if (!record) throw new OperationError(`stack "${stack.name}" has no stored template to reuse`, 'invalid');
  return {
    url: record.url,
    text: record.template,
    files: record.files,
    environment: environmentFromJSON(record.environment, deps.settings.limits),
  };
}

/**
 * Heat's immutable parameters: an update may not change the value of a parameter the stack's
 * current template declares `immutable`. The current template is only looked at when the new
 * one declares such parameters (templates keep their parameter schemas from version to version).
 */
async function refuseImmutableChanges(
  deps: EngineDeps,
  cache: TemplateCache,
  stack: StackRecord,
  next: StackDefinition,
): Promise<void> {
  const templateId = stack.templateId;
  if (!templateId || ![...next.template.parameters.values()].some((p) => p.immutable)) return;
  const record = await deps.store.tx((tx) => tx.templates.get(templateId));
  if (!record) return;
  const current = cache.get(record, { stackId: stack.id, stackName: stack.name, projectId: stack.projectId });
  const changed = [...current.template.parameters.values()]
    .filter((p) => p.immutable && next.parameters.has(p.name))
    .filter((p) => !jsonEqual(current.parameters.get(p.name), next.parameters.get(p.name)))
    .map((p) => p.name);
  if (changed.length > 0) {
    throw new OperationError(
      `The following parameters are immutable and may not be updated: ${changed.join(', ')}`,
      'invalid',
    );
  }
}

function templateRecord(input: TemplateInput, now: number): TemplateRecord {
  return {
    id: randomUUID(),
    template: input.text,
    url: input.url,
    files: input.files,
    environment: environmentJSON(input.environment),
    createdAt: new Date(now).toISOString(),
  };
}

/**
 * Validates the template strictly (every parameter needs a value) and caches the result. Template
 * resources are validated with their nested templates here; each child stack binds its own
 * template again, with real values, when its parent's node starts it (nested.ts).
 */
/** Binds a new template in slices (a create, update or preview of 100,000 resources takes seconds). */
async function bind(
  deps: EngineDeps,
  cache: TemplateCache,
  record: TemplateRecord,
  stack: { id: string; name: string; projectId: string },
  deferredConstraints?: DeferredConstraints,
): Promise<StackDefinition> {
  const definition = await bindTemplateSliced(
    record,
    { stackId: stack.id, stackName: stack.name, projectId: stack.projectId },
    deps.plugins.typeCatalog,
    deps.settings.limits,
    deferredConstraints,
  );
  cache.put(cache.keyOf(record.id, stack.id), definition);
  return definition;
}

/**
 * Starts an UPDATE traversal of a stack to the template it has, in the caller's transaction: what a
 * change of desired state made outside the template needs (a scaling signal's new capacity), or a
 * heal (observer.ts). Like a user's update, it supersedes a running traversal (whose in-flight
 * work finishes).
 */
export async function reconvergeStack(
  tx: Tx,
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  now: number,
  options: Pick<BeginOptions, 'reason' | 'converge' | 'stackChanges'> = {},
): Promise<void> {
  const stack = await tx.stacks.get(stackId);
  if (!stack?.templateId || stack.deletedAt || stack.action === 'DELETE') return;
  if (!stack.convergence) {
    // The legacy engine takes one operation at a time: a running one keeps the stack.
    if (stack.status === 'IN_PROGRESS') return;
    return beginLegacy(tx, stack, {
      action: 'UPDATE',
      templateId: stack.templateId,
      now,
      reason: options.reason,
    });
  }
  const record = await tx.templates.get(stack.templateId);
  if (!record) return;
  const definition = cache.get(record, {
    stackId: stack.id,
    stackName: stack.name,
    projectId: stack.projectId,
  });
  const desired = desiredOf(definition);
  await beginTraversal(tx, {
    stack,
    action: 'UPDATE',
    templateId: stack.templateId,
    desired,
    unchanged: unchangedFor(deps, definition, desired),
    now,
    reason: 'Stack UPDATE started: a resource signal changed its desired state',
    ...options,
  });
}

/** The hook by which a traversal leaves unchanged resources alone (see unchanged.ts). */
export function unchangedFor(
  deps: EngineDeps,
  definition: StackDefinition,
  desired: readonly DesiredResource[],
): BeginOptions['unchanged'] {
  return (chosen, stackId, drifted) =>
    unchangedResources(deps, definition, desired, chosen, stackId, drifted);
}

export function desiredOf(definition: StackDefinition): DesiredResource[] {
  return [...definition.resources].map(([name, resource]) => ({
    name,
    type: resource.implementation.type,
    requires: resource.requires,
  }));
}

/**
 * Stops a running create or update. With rollback (an update only), the stack returns to the
 * template it had before; without, the traversal just ends FAILED. Either way operations already
 * running on resources finish, and nothing else of the traversal runs.
 */
export async function cancelStack(
  deps: EngineDeps,
  stackId: string,
  options: { rollback: boolean },
): Promise<void> {
  const stack = await requireStack(deps, stackId);
  if (!stack.convergence) throw notInLegacyMode(stack, 'cancel an operation');
  if (stack.status !== 'IN_PROGRESS' || (stack.action !== 'CREATE' && stack.action !== 'UPDATE')) {
    throw new OperationError(
      `stack "${stack.name}" is ${stack.action}_${stack.status}: only a running create or update can be cancelled`,
      'conflict',
    );
  }
  if (options.rollback && stack.action !== 'UPDATE') {
    throw new OperationError('only an update can be cancelled with rollback; use --no-rollback', 'invalid');
  }
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const stopped = await failTraversal(tx, stack, stack.traversalId, `Stack ${stack.action} cancelled`, now);
    if (!stopped) throw new ConflictError(`stack "${stack.name}" changed while cancelling; try again`);
    await cancelChildren(tx, stack.id, now);
    if (options.rollback) await enqueueRollback(tx, stack, now);
  });
}

/**
 * A cancelled stack's running nested stacks stop too (their in-flight work finishes on its own),
 * rather than running to their end for a parent that no longer waits for them.
 */
async function cancelChildren(tx: Tx, parentId: string, now: number): Promise<void> {
  for (const child of await tx.stacks.children(parentId)) {
    if (child.status !== 'IN_PROGRESS' || !child.traversalId) continue;
    // Heat's stop_traversal gives every stopped descendant the same reason as the stack.
    const reason = `Stack ${child.action} cancelled`;
    if (await failTraversal(tx, child, child.traversalId, reason, now))
      await cancelChildren(tx, child.id, now);
  }
}

/**
 * Marks a resource unhealthy (CHECK_FAILED with the reason): the next update replaces it. Marking
 * it healthy again (`unhealthy` false) turns a CHECK_FAILED resource CHECK_COMPLETE, as Heat's
 * resource_mark_unhealthy does, and leaves any other state alone.
 */
export async function markUnhealthy(
  deps: EngineDeps,
  stackId: string,
  resourceName: string,
  reason: string,
  unhealthy = true,
): Promise<void> {
  const stack = await requireStack(deps, stackId);
  const now = deps.clock.now();
  await deps.store.tx(async (tx) => {
    const row = currentRow(await tx.resources.findByName(stack.id, resourceName));
    if (!row) throw resourceNotFound(stack, resourceName);
    if (!unhealthy && (row.action !== 'CHECK' || row.status !== 'FAILED')) return;
    if (row.engineId !== null) {
      throw new OperationError(`resource "${resourceName}" is being worked on; try again later`, 'conflict');
    }
    const status = unhealthy ? 'FAILED' : 'COMPLETE';
    const marked = await tx.resources.update(row.id, row.atomicKey, null, {
      unhealthy,
      action: 'CHECK',
      status,
      reason: reason || (unhealthy ? 'marked unhealthy' : 'marked healthy'),
    });
    if (!marked) throw new ConflictError(`resource "${resourceName}" changed meanwhile; try again`);
    await tx.events.append([resourceEvent(marked, 'CHECK', status, marked.reason, now)]);
  });
}
