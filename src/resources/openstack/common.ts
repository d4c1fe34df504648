import { clientExceptionName, isNotFound, OpenStackError } from '../../openstack/index.js';
import type { Value } from '../../template/functions/types.js';
import type { JsonObject } from '../../util/json.js';
import {
  type ActionResult,
  type PluginContext,
  type PollResult,
  type RealityState,
  ResourceFailure,
  ResourceInError,
  type ResourcePlugin,
} from '../contract.js';

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

/**
 * An OpenStack error as a resource failure: a conflict or a server error may pass on a retry.
 * Shown as Heat shows a client's exception: the class the Python client raises for the status,
 * then the cloud's own message; what Hearth was doing follows in parentheses.
 */
export function failure(action: string, error: unknown): Error {
  if (error instanceof ResourceFailure) return error;
  if (error instanceof OpenStackError) {
    const message = `${error.detail} (${action}; ${error.call})`;
    const options = { heatClass: clientExceptionName(error.status), cause: error };
    return error.status === 409 || (error.status ?? 500) >= 500
      ? new ResourceInError(message, options)
      : new ResourceFailure(message, options);
  }
  return error as Error;
}

/**
 * `failure`, and a clear failure when the cloud's catalog has no endpoint of `serviceType`
 * (`service` names the API, e.g. "object storage (Swift)"), which the session reports as a plain
 * error: a cloud without the service fails the resource rather than the engine.
 */
export function serviceFailure(action: string, error: unknown, serviceType: string, service: string): Error {
  if (!(error instanceof OpenStackError) && error instanceof Error) {
    if (error.message.startsWith(`no ${serviceType} endpoint`)) {
      return new ResourceFailure(`The cloud offers no ${service}: ${error.message} (${action})`);
    }
  }
  return failure(action, error);
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
  /**
   * The template sets the object's description (a security group): the marker ends in a tag, and
   * the object's tags are not a template property.
   */
  markerInTag?: boolean;
}

/** The object of the collection a create with this context made (marked), if there is one. */
async function findMarked(ctx: PluginContext, collection: NeutronCollection): Promise<string | undefined> {
  const marker = createMarker(ctx);
  const filters = collection.markerInTag
    ? [{ tags: marker }, { description: marker }]
    : [{ description: marker }];
  for (const query of filters) {
    const found = await ctx
      .openstack()
      .request<Record<string, { id: string }[]>>('network', 'GET', collection.path, undefined, { query });
    // Neutron lists `security-groups` under `security_groups`: the plural of the member key.
    const id = found.body[`${collection.key}s`]?.[0]?.id;
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * Creates a Neutron object marked with the create marker (in its description), or finds the one a
 * crashed run of the same create made; then sets its tags. Returns its id. With `markerInTag`, the
 * marker is moved from the description to a tag before the description becomes the template's, so
 * a crash at any step leaves the object findable by one or the other.
 */
export async function createNeutronObject(
  ctx: PluginContext,
  collection: NeutronCollection,
  body: () => Promise<JsonObject>,
  tags: readonly string[],
): Promise<string> {
  const cloud = ctx.openstack();
  const marker = createMarker(ctx);
  const post = async (fields: JsonObject) => {
    const made = await cloud.request<Record<string, { id: string }>>('network', 'POST', collection.path, {
      [collection.key]: { ...fields, description: marker },
    });
    return made.body[collection.key]!.id;
  };
  try {
    let id = await findMarked(ctx, collection);
    if (collection.markerInTag) {
      const fields = await body();
      id ??= await post(fields);
      await setNeutronTags(ctx, collection, id, [...tags, marker]);
      await cloud.request('network', 'PUT', `${collection.path}/${id}`, {
        [collection.key]: { description: fields.description ?? '' },
      });
      return id;
    }
    id ??= await post(await body());
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
  // No id recorded: a create that crashed after its POST may still have made the object, which
  // only its marker finds (otherwise deleting the stack would leak it).
  let id: string | null | undefined = ctx.physicalId;
  if (!id) {
    try {
      id = await findMarked(ctx, collection);
    } catch (error) {
      throw failure(`finding ${collection.what} to delete`, error);
    }
    if (!id) return { done: true };
  }
  return deleteOrRetry(
    () => ctx.openstack().request('network', 'DELETE', `${collection.path}/${id}`),
    collection.what,
    attempt,
  );
}

/** An action's result from the first try of something polled (a delete): done, or what to poll with. */
export function pollingAction(result: PollResult): ActionResult {
  return result.done ? {} : { progress: result.progress!, pollAfterMs: result.pollAfterMs! };
}

/** delete and checkDeleteComplete of a type whose physical resource is one Neutron object. */
export function neutronDeletion(
  collection: NeutronCollection,
): Required<Pick<ResourcePlugin, 'delete' | 'checkDeleteComplete'>> {
  return {
    delete: async (ctx) => pollingAction(await deleteNeutronObject(ctx, collection)),
    checkDeleteComplete: (ctx, progress) =>
      deleteNeutronObject(ctx, collection, (progress as { attempt: number }).attempt),
  };
}

/** A Neutron object as its API shows it: `GET /routers/<id>` gives its `router`. */
export async function showNeutronObject<T extends JsonObject = JsonObject>(
  ctx: PluginContext,
  collection: NeutronCollection,
  id: string = ctx.physicalId!,
): Promise<T & { id: string }> {
  const r = await ctx
    .openstack()
    .request<Record<string, T & { id: string }>>('network', 'GET', `${collection.path}/${id}`);
  return r.body[collection.key]!;
}

/** getReality from `read`: the live properties, or gone when it finds nothing (undefined, or a 404). */
export async function realityOf(
  read: () => Promise<Record<string, Value> | undefined>,
): Promise<RealityState> {
  try {
    const properties = await read();
    return properties === undefined ? { state: 'gone' } : { state: 'present', properties };
  } catch (error) {
    if (isNotFound(error)) return { state: 'gone' };
    throw error;
  }
}

export const FLOATING_IPS: NeutronCollection = {
  path: '/floatingips',
  key: 'floatingip',
  what: 'the floating IP',
};

/** How long an association waits for a router to join the port's subnet to the external network. */
const UNREACHABLE_RETRY_MS = 2000;
const UNREACHABLE_ATTEMPTS = 90;

/**
 * Associates a floating IP with a port (PUT port_id, fixed_ip_address). Neutron refuses with 404
 * "External network ... is not reachable from subnet ..." until a router with a gateway on the
 * floating network has an interface on the port's subnet. The implicit dependencies order that
 * within a stack (neutron/implicit.ts); a router made elsewhere, or a moment late, is waited for a
 * while instead of failing at once. `attempt` comes from an earlier try's progress.
 */
export async function associateFloatingIp(
  ctx: PluginContext,
  floatingIpId: string,
  portId: string,
  fixedIp: string | null,
  attempt = 1,
): Promise<PollResult> {
  try {
    await ctx.openstack().request('network', 'PUT', `${FLOATING_IPS.path}/${floatingIpId}`, {
      floatingip: { port_id: portId, ...(fixedIp ? { fixed_ip_address: fixedIp } : {}) },
    });
    return { done: true };
  } catch (error) {
    const unreachable =
      error instanceof OpenStackError && error.status === 404 && /not reachable/i.test(error.detail);
    if (unreachable && attempt < UNREACHABLE_ATTEMPTS) {
      return { done: false, progress: { attempt: attempt + 1 }, pollAfterMs: UNREACHABLE_RETRY_MS };
    }
    throw failure('associating the floating IP', error);
  }
}
