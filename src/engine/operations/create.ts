import { randomUUID } from 'node:crypto';
import type { StackCredentials, StackRecord, TemplateRecord } from '../../store/contract.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { checkCloudConstraints, type CloudConstraintCollector } from '../context/cloud-constraints.js';
import type { Json } from '../../util/json.js';
import { DEPLOYMENT, type EngineDeps, type StackOwner } from '../core/deps.js';
import { desiredOf } from '../core/plan.js';
import type { TemplateCache } from '../core/templates.js';
import { beginTraversal } from '../core/traversal.js';
import { OperationError } from '../core/errors.js';
import { setObservation } from './observation.js';
import { beginLegacy, notInLegacyMode } from '../legacy/begin.js';
import { prepareCreate } from './prepare.js';
import { getStack } from './queries.js';
import type { CreateRequest } from '../core/requests.js';
import { digestsOf } from '../core/digests.js';
import { encodeDigests } from '../core/digests-form.js';

/* `stack create` (and an adopt's create): credentials made, cloud checks, one transaction. */

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
  // Kept with the template: the stack's first update is planned from a diff of them (update-diff.ts).
  const digests = encodeDigests(await digestsOf(definition, record));
  await deps.store.tx(async (tx) => {
    if (await tx.stacks.findByName(req.projectId, req.name)) {
      throw new OperationError(`a stack named "${req.name}" already exists`, 'conflict');
    }
    await tx.templates.insert(record, stack.rootId, digests);
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
