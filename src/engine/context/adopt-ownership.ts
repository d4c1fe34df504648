import type { ResourcePlugin } from '../../resources/contract.js';
import type { ResourceRecord } from '../../store/contract.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import { invalidAdoptData } from './adopt-document.js';
import type { EngineDeps } from '../core/deps.js';
import { errorMessage } from '../core/failure-text.js';
import { type NodeScope, pluginContext } from './node-work.js';

/*
 * An adopted id (`stack adopt`, `external_id`) must be the adopter's own: otherwise a project
 * could name another project's object, and its stack's delete would destroy it. Two proofs:
 * - no other live stack manages the id (the store; Hearth's own types have no other owner), and
 * - a cloud object is readable with the stack's own credentials before its id is recorded on the
 *   row (the cloud enforces its tenancy; a type with its own `adopt` hook, like the fake cloud of
 *   OS::Heat::TestResource, answers for itself).
 */

interface AdoptedId {
  id: string;
  /** Where the document names it, e.g. `resources.group.resources.0.resource_id`. */
  path: string;
}

/** Every resource_id of a document's entries, nested stacks' entries too. */
function adoptedIds(resources: Readonly<Record<string, Json>>, path = 'resources'): AdoptedId[] {
  const out: AdoptedId[] = [];
  for (const [name, entry] of Object.entries(resources)) {
    if (!isPlainObject(entry)) continue;
    const at = `${path}.${name}`;
    if (typeof entry.resource_id === 'string' && entry.resource_id !== '') {
      out.push({ id: entry.resource_id, path: `${at}.resource_id` });
    }
    if (isPlainObject(entry.resources))
      out.push(...adoptedIds(entry.resources as JsonObject, `${at}.resources`));
  }
  return out;
}

/**
 * Refuses an adopt whose document names an id that a live stack manages (throws Heat's
 * "Invalid adopt data"): another project's is not named, a same-project one is, so its owner
 * knows to abandon it first.
 */
export async function checkAdoptedIds(
  deps: EngineDeps,
  projectId: string,
  resources: Readonly<Record<string, Json>>,
): Promise<void> {
  const ids = adoptedIds(resources);
  if (ids.length === 0) return;
  const managers = await deps.store.tx((tx) => tx.resources.managersOf(ids.map((i) => i.id)));
  if (managers.length === 0) return;
  const byId = new Map(managers.map((m) => [m.physicalId, m]));
  const taken = ids.find((i) => byId.has(i.id))!;
  const manager = byId.get(taken.id)!;
  throw invalidAdoptData(
    manager.projectId === projectId
      ? `"${taken.path}" (${taken.id}) is a resource of stack "${manager.stackName}": abandon that stack first`
      : `"${taken.path}" (${taken.id}) cannot be adopted by this project`,
  );
}

/** Whether another project's live stack manages `id` (an external_id must not name it). */
export async function managedByAnotherProject(
  deps: EngineDeps,
  projectId: string,
  id: string,
): Promise<boolean> {
  const managers = await deps.store.tx((tx) => tx.resources.managersOf([id]));
  return managers.some((m) => m.projectId !== projectId);
}

/**
 * Why the object a row is about to adopt is not the stack's to take (it cannot be read with the
 * stack's own credentials), or undefined when it is, or when the type answers for itself.
 */
export async function unreadableAdoptee(
  scope: NodeScope,
  plugin: ResourcePlugin,
  row: ResourceRecord,
  physicalId: string,
  data: JsonObject,
): Promise<string | undefined> {
  if (plugin.adopt || plugin.observes === false) return undefined;
  const missing = `Resource ${physicalId} (${row.type}) can not be found with this stack's credentials`;
  try {
    const reality = await plugin.getReality(pluginContext(scope, row, { physicalId, data }));
    return reality.state === 'gone' ? missing : undefined;
  } catch (err) {
    return `${missing}: ${errorMessage(err)}`;
  }
}
