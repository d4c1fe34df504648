import { isNotFound, OpenStackError } from '../../openstack/index.js';
import type { Value } from '../../template/functions/types.js';
import type { JsonObject } from '../../util/json.js';
import { type PluginContext, type PollResult, ResourceFailure, ResourceInError } from '../contract.js';

/**
 * What the OpenStack types share: the idempotency marker a retried create looks for, deletes that
 * treat "gone" as done and "in use" as "try again shortly", and errors turned into failures.
 */

/**
 * The marker a create leaves on the object (in a field the type does not expose), so that a create
 * run again after a crash finds what the first run made instead of making a second.
 */
export function createMarker(ctx: PluginContext): string {
  return `hearth:${ctx.idempotencyKey}`;
}

/** An OpenStack error as a resource failure: a conflict or a server error may pass on a retry. */
export function failure(action: string, error: unknown): Error {
  if (error instanceof ResourceFailure) return error;
  if (error instanceof OpenStackError) {
    const message = `${action}: ${error.message}`;
    return error.status === 409 || (error.status ?? 500) >= 500
      ? new ResourceInError(message)
      : new ResourceFailure(message);
  }
  return error as Error;
}

/** The fields of `properties` the API takes as they are, the unset (null) ones left out. */
export function present(properties: Record<string, Value>, names: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const name of names) {
    const value = properties[name];
    if (value !== null && value !== undefined) out[name] = value as JsonObject[string];
  }
  return out;
}

/** How long a delete refused because the object is still in use is tried again for. */
const IN_USE_RETRY_MS = 2000;
const IN_USE_ATTEMPTS = 60;

/**
 * Deletes through `remove`: gone already is done; a conflict (still in use, e.g. a network whose
 * ports another engine is deleting) is polled again for a while rather than failed at once.
 * `busy` are the statuses that mean "in use" (Cinder answers 400 for an attached volume).
 */
export async function deleteOrRetry(
  remove: () => Promise<unknown>,
  what: string,
  attempt = 1,
  busy: readonly number[] = [409],
): Promise<PollResult> {
  try {
    await remove();
    return { done: true };
  } catch (error) {
    if (isNotFound(error)) return { done: true };
    if (error instanceof OpenStackError && busy.includes(error.status ?? 0) && attempt < IN_USE_ATTEMPTS) {
      return { done: false, progress: { attempt: attempt + 1 }, pollAfterMs: IN_USE_RETRY_MS };
    }
    throw failure(`deleting ${what}`, error);
  }
}

/** A Neutron collection the types below create in: `networks` with objects under `network`. */
export interface NeutronCollection {
  path: string;
  key: string;
  /** For messages: "the network". */
  what: string;
}

/**
 * Creates a Neutron object marked with the create marker (in its description), or finds the one a
 * crashed run of the same create made; then sets its tags. Returns its id.
 */
export async function createNeutronObject(
  ctx: PluginContext,
  collection: NeutronCollection,
  body: () => Promise<JsonObject>,
  tags: readonly string[],
): Promise<string> {
  const cloud = ctx.openstack();
  const marker = createMarker(ctx);
  try {
    const found = await cloud.request<Record<string, { id: string }[]>>(
      'network',
      'GET',
      collection.path,
      undefined,
      {
        query: { description: marker },
      },
    );
    let id = found.body[collection.path.slice(1)]?.[0]?.id;
    if (id === undefined) {
      const made = await cloud.request<Record<string, { id: string }>>('network', 'POST', collection.path, {
        [collection.key]: { ...(await body()), description: marker },
      });
      id = made.body[collection.key]!.id;
    }
    if (tags.length > 0) await setNeutronTags(ctx, collection, id, tags);
    return id;
  } catch (error) {
    throw failure(`creating ${collection.what}`, error);
  }
}

export async function setNeutronTags(
  ctx: PluginContext,
  collection: NeutronCollection,
  id: string,
  tags: readonly string[],
): Promise<void> {
  await ctx.openstack().request('network', 'PUT', `${collection.path}/${id}/tags`, { tags });
}

/** Deletes the resource's Neutron object; see deleteOrRetry. `attempt` is from the progress of an earlier try. */
export async function deleteNeutronObject(
  ctx: PluginContext,
  collection: NeutronCollection,
  attempt = 1,
): Promise<PollResult> {
  if (!ctx.physicalId) return { done: true };
  return deleteOrRetry(
    () => ctx.openstack().request('network', 'DELETE', `${collection.path}/${ctx.physicalId}`),
    collection.what,
    attempt,
  );
}
