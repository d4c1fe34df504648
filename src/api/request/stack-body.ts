import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Engine } from '../../engine/engine.js';
import { type CreateRequest, type UpdateRequest } from '../../engine/core/requests.js';
import { storedInput } from '../../engine/operations/queries.js';
import type { ObservePolicy, StackRecord } from '../../store/contract.js';
import { isPlainObject } from '../../util/json.js';
import { mergeEnvironments } from '../../template/environment/index.js';
import type { ApiDeps } from '../deps.js';
import { timeoutProblem } from '../../engine/core/stack-timeout.js';
import { badRequest, HttpError } from '../errors.js';
import { requestEnvironment, type TemplateFields, templateInput } from './template-input.js';

/**
 * The bodies of stack create and update, and of their previews (Heat's names), into the engine's
 * requests: one reading for the operation and its preview, so they cannot disagree.
 */

const Strings = Type.Array(Type.String());

/** The template fields every stack-changing body may carry (loosely typed: checked when read). */
const templateFields = {
  template: Type.Optional(Type.Unknown()),
  template_url: Type.Optional(Type.String()),
  files: Type.Optional(Type.Record(Type.String(), Type.String())),
  environment: Type.Optional(Type.Unknown()),
  environment_files: Type.Optional(Strings),
  parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};
/** Any integer: the range is checked by timeoutOf, with Heat's words. */
const Timeout = Type.Optional(Type.Union([Type.Integer(), Type.Null()]));
const stackFields = {
  timeout_mins: Timeout,
  disable_rollback: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.Union([Type.String(), Strings])),
  /** Hearth's: observe the stack every this many seconds (0 or null: not, or no longer). */
  observe_interval: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  /** Hearth's: with observe_interval, converge what drifted back. */
  heal: Type.Optional(Type.Boolean()),
};

/** The observation a body asks for: a policy, null (off), or undefined (not said). */
export function observeOf(body: {
  observe_interval?: number | null;
  heal?: boolean;
}): ObservePolicy | null | undefined {
  if (body.observe_interval === undefined) {
    if (body.heal !== undefined) throw badRequest('heal goes with observe_interval');
    return undefined;
  }
  if (!body.observe_interval) return null;
  return { intervalMs: Math.round(body.observe_interval * 1000), heal: body.heal ?? false };
}

/** The fields whose null is a value of its own ("no timeout", "observe no longer"), not "not given". */
const NULL_IS_A_VALUE = new Set(['timeout_mins', 'timeout', 'observe_interval']);

/**
 * Callers of heatclient's Python API pass None for what they leave out (`environment_files=None`),
 * which arrives as null: such a field is taken as absent, as Heat takes it. A route's
 * preValidation hook: the schema's type coercion would otherwise read null as "" or false.
 */
export async function nullFieldsAbsent(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (!isPlainObject(body)) return;
  for (const [field, value] of Object.entries(body)) {
    if (value === null && !NULL_IS_A_VALUE.has(field)) delete body[field];
  }
}

/** A validate body: the template fields alone. */
export const TemplateBody = Type.Object(templateFields, { additionalProperties: true });
export const CreateBody = Type.Object(
  {
    stack_name: Type.Optional(Type.String()),
    ...templateFields,
    ...stackFields,
    /** Heat's adopt: the abandon document, as a string (heatclient) or an object. */
    adopt_stack_data: Type.Optional(Type.Unknown()),
    /** openstackclient's `stack adopt` sends its timeout under this name. */
    timeout: Timeout,
  },
  { additionalProperties: true },
);
export const UpdateBody = Type.Object(
  {
    ...templateFields,
    ...stackFields,
    clear_parameters: Type.Optional(Strings),
    existing: Type.Optional(Type.Boolean()),
    /** Heat's `converge`: decide from the resources' live state (engine/nodes/converge.ts). */
    converge: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
export type CreateBody = typeof CreateBody.static;
export type UpdateBody = typeof UpdateBody.static;

/**
 * A body's stack timeout: 0 is "not given" (the default applies), as Heat reads it; negative and
 * too large (beyond Heat's 32-bit column) are refused before anything is stored.
 */
export function timeoutOf(
  value: number | null | undefined,
  field = 'timeout_mins',
): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (value === 0) return null;
  const problem = timeoutProblem(value, field);
  if (problem) throw badRequest(problem);
  return value;
}

/** Heat's tag lists are comma-separated strings (or, from some clients, lists). */
export function tagList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : value.split(',');
  return items.map((t) => t.trim()).filter((t) => t !== '');
}

/**
 * A create body as the engine's request, refused as Heat refuses a new stack: no name, the
 * project at its `max_stacks_per_tenant`, or the name taken.
 */
export async function createRequest(
  deps: ApiDeps,
  projectId: string,
  body: CreateBody,
): Promise<CreateRequest> {
  const name = await checkNewStack(deps, projectId, body.stack_name);
  return {
    name,
    projectId,
    template: await templateInput(body as TemplateFields, deps.engine.deps.settings.limits),
    timeoutMins: timeoutOf(body.timeout_mins) ?? null,
    disableRollback: body.disable_rollback ?? true,
    tags: tagList(body.tags) ?? [],
    observe: observeOf(body) ?? null,
  };
}

/** The name of a new stack (create or adopt), refused as Heat refuses it. */
export async function checkNewStack(
  deps: ApiDeps,
  projectId: string,
  name: string | undefined,
): Promise<string> {
  const { engine } = deps;
  if (!name) throw badRequest('No stack name specified');
  const limit = deps.limits.max_stacks_per_tenant;
  if (limit >= 0) {
    const count = (await engine.deps.store.tx((tx) => tx.stacks.list({ projectId }))).length;
    if (count >= limit) {
      throw badRequest(
        `You have reached the maximum stacks per tenant, ${limit}. Please delete some stacks.`,
        'RequestLimitExceeded',
      );
    }
  }
  const existing = await engine.deps.store.tx((tx) => tx.stacks.findByName(projectId, name));
  if (existing) throw new HttpError(409, 'StackExists', `The Stack (${name}) already exists.`);
  return name;
}

/**
 * An update body as the engine's request. `patch` (PATCH, or Heat's `existing`): the stored
 * template unless a new one is sent, the stored environment with the request's on top, and
 * `clear_parameters` back to their defaults.
 */
export async function updateRequest(
  engine: Engine,
  stack: StackRecord,
  body: UpdateBody,
  patch: boolean,
): Promise<UpdateRequest> {
  const timeoutMins = timeoutOf(body.timeout_mins);
  const req: UpdateRequest = {
    ...(body.disable_rollback !== undefined ? { disableRollback: body.disable_rollback } : {}),
    ...(timeoutMins !== undefined ? { timeoutMins } : {}),
    ...(body.tags !== undefined ? { tags: tagList(body.tags)! } : {}),
    ...(body.converge !== undefined ? { converge: body.converge } : {}),
  };
  const observe = observeOf(body);
  if (observe !== undefined) req.observe = observe;
  const limits = engine.deps.settings.limits;
  const fields = body as TemplateFields;
  if (!patch) return { ...req, template: await templateInput(fields, limits) };
  const stored = await storedInput(engine.deps, stack);
  // heatclient sends `"template": null` for --existing without a template.
  const base =
    body.template !== undefined && body.template !== null ? await templateInput(fields, limits) : stored;
  const kept = { ...stored.environment.parameters };
  for (const cleared of body.clear_parameters ?? []) delete kept[cleared];
  const given = requestEnvironment(fields, base.files, limits);
  const environment = mergeEnvironments([{ ...stored.environment, parameters: kept }, given]);
  return { ...req, template: { ...base, files: { ...stored.files, ...base.files }, environment } };
}
