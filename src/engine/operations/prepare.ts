import { randomUUID } from 'node:crypto';
import type { StackRecord, TemplateRecord } from '../../store/contract.js';
import type { Environment } from '../../template/environment/index.js';
import type { DeferredConstraints, StackDefinition } from '../../template/stack-definition.js';
import type { SourceDocument } from '../../template/source.js';
import {
  checkCloudConstraints,
  type CloudConstraintCollector,
  cloudConstraintCollector,
} from '../context/cloud-constraints.js';
import { jsonEqual } from '../../util/json.js';
import { DEPLOYMENT, type EngineDeps, ownerOf, type StackOwner } from '../core/deps.js';
import { bindTemplateSliced, environmentJSON, type TemplateCache } from '../core/templates.js';
import { OperationError } from '../core/errors.js';
import { actionInProgress } from '../legacy/begin.js';
import { timeoutProblem } from '../core/stack-timeout.js';
import { requireStack, storedInput } from './queries.js';
import type { CreateRequest, UpdateRequest, TemplateInput } from '../core/requests.js';
import type { PartialBind, PartialBindInput } from './partial-bind.js';

/*
 * Validating a create or an update without writing anything (shared by the operations and their
 * previews): the stack name, the timeout, the template bound strictly, immutable parameters.
 */

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
    { id, name: req.name, projectId: req.projectId, topLevel: true },
    constraints,
    takeParsed(req.template),
    true,
  );
  return { record, definition, constraints };
}

/** The owner a request's checks act as when no credentials are made for them (a preview, a validate). */
function checkingOwner(req: CreateRequest): StackOwner {
  const given = req.credentials ?? DEPLOYMENT;
  // No trust is made for a check: it looks things up as the project's own cloud would.
  return { projectId: req.projectId, credentials: 'obtain' in given ? { kind: 'project' } : given };
}

/** What an update converges to, validated (shared by the update and its preview). */
export interface PreparedUpdate {
  stack: StackRecord;
  record: TemplateRecord;
  environment: Environment;
  definition: StackDefinition;
  /** The partial bind the definition is (partial-bind.ts), if it is one. */
  partial?: PartialBind;
}

/** An update's partial bind (partial-bind.ts), when its caller may take one. */
export type PartialHook = (
  input: PartialBindInput & { environment: Environment },
) => Promise<PartialBind | undefined>;

/** Validates an update request against the stack without writing anything. */
export async function prepareUpdate(
  deps: EngineDeps,
  cache: TemplateCache,
  stackId: string,
  req: UpdateRequest,
  partialHook?: PartialHook,
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
  const record = {
    ...templateRecord({ ...input, environment }, deps.clock.now()),
    ...(await parentFacadeOf(deps, stack)),
  };
  // The stack's own credentials (its creator's trust), whoever asks for the update.
  const constraints = cloudConstraintCollector(deps, ownerOf(stack));
  const parsed = takeParsed(input);
  const topLevel = stack.parentId === null;
  const identity = { stackId: stack.id, stackName: stack.name, projectId: stack.projectId, topLevel };
  const hookInput = {
    stack,
    record,
    parsed,
    identity,
    deferredConstraints: constraints,
    environment,
  };
  const partial = await partialHook?.(hookInput);
  if (partial) cache.put(cache.keyOf(record.id, stack.id), partial.definition);
  const definition =
    partial?.definition ??
    (await bind(
      deps,
      cache,
      record,
      { id: stack.id, name: stack.name, projectId: stack.projectId, topLevel },
      constraints,
      hookInput.parsed,
      true,
    ));
  await checkCloudConstraints(constraints);
  await refuseImmutableChanges(deps, cache, stack, definition);
  return { stack, record, environment, definition, ...(partial ? { partial } : {}) };
}

/**
 * A nested stack updated directly keeps what its parent resource recorded for `resource_facade`
 * (the parent's own next update records it again); a top-level stack has none.
 */
async function parentFacadeOf(deps: EngineDeps, stack: StackRecord): Promise<Pick<TemplateRecord, 'facade'>> {
  const templateId = stack.templateId;
  if (stack.parentId === null || !templateId) return {};
  const current = await deps.store.tx((tx) => tx.templates.get(templateId));
  return current?.facade ? { facade: current.facade } : {};
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

/**
 * The input's parsed document, taken from it: it serves the one bind, and is not held for the rest
 * of the operation (the CLI's request lives until its `--wait` ends; a million resources' document
 * is half a GiB).
 */
function takeParsed(input: TemplateInput): SourceDocument | undefined {
  const parsed = input.parsed;
  delete input.parsed;
  return parsed;
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
export async function bind(
  deps: EngineDeps,
  cache: TemplateCache,
  record: TemplateRecord,
  stack: { id: string; name: string; projectId: string; topLevel?: boolean },
  deferredConstraints?: DeferredConstraints,
  /** The template's text parsed already (TemplateInput.parsed). */
  parsed?: SourceDocument,
  /** A create's or an update's: its digests are computed before the document is released. */
  digests = false,
): Promise<StackDefinition> {
  const definition = await bindTemplateSliced(
    record,
    {
      stackId: stack.id,
      stackName: stack.name,
      projectId: stack.projectId,
      ...(stack.topLevel ? { topLevel: true } : {}),
    },
    deps.plugins.typeCatalog,
    deps.settings.limits,
    {
      ...(deferredConstraints ? { deferredConstraints } : {}),
      ...(parsed ? { parsed } : {}),
      digests,
    },
  );
  cache.put(cache.keyOf(record.id, stack.id), definition);
  return definition;
}
