import type { HeatClient } from '../../client/heat-client.js';
import type { HeatEvent, StackId } from '../../client/types.js';
import { HOOK_TYPES, type Hook } from '../../template/environment/index.js';
import type { PendingHook } from '../backend.js';
import { linkedStack } from './remote-views.js';

/*
 * Hooks over the API, as the openstack client finds them: Heat tells a pause and its clearing
 * only by events (`<OP> paused until Hook <hook> is cleared`, `Hook <hook> is cleared`), so a
 * resource waits at the hook of its latest pause not cleared since its stack's operation started.
 */

const PAUSED = /^[A-Z]+ paused until Hook (\S+) is cleared$/;
const CLEARED = /^Hook (\S+) is cleared$/;

function asHook(name: string | undefined): Hook | undefined {
  return (HOOK_TYPES as readonly string[]).includes(name ?? '') ? (name as Hook) : undefined;
}

/** The hook each resource of one stack waits at, from the stack's events. */
async function waitingIn(client: HeatClient, stack: StackId): Promise<Map<string, Hook>> {
  const events: HeatEvent[] = await client.listEvents(stack, { sort_dir: 'asc' });
  // Only the current operation counts: from the stack's own latest IN_PROGRESS event on.
  let from = 0;
  events.forEach((e, i) => {
    if (e.resource_name === stack.name && e.resource_status.endsWith('_IN_PROGRESS')) from = i;
  });
  const waiting = new Map<string, Hook>();
  for (const e of events.slice(from)) {
    const paused = asHook(PAUSED.exec(e.resource_status_reason)?.[1]);
    if (paused) waiting.set(e.resource_name, paused);
    else if (asHook(CLEARED.exec(e.resource_status_reason)?.[1]) === waiting.get(e.resource_name)) {
      waiting.delete(e.resource_name);
    }
  }
  return waiting;
}

/** Resources waiting at a hook in the stack and its nested stacks, named by their path. */
export async function remotePendingHooks(
  client: HeatClient,
  stack: StackId,
  prefix = '',
): Promise<PendingHook[]> {
  const waiting = await waitingIn(client, stack);
  const out: PendingHook[] = [];
  for (const resource of await client.listResources(stack)) {
    const hook = waiting.get(resource.resource_name);
    if (hook) out.push({ path: `${prefix}${resource.resource_name}`, hook, stackName: stack.name });
    const nested = linkedStack(resource.links, 'nested');
    if (nested)
      out.push(...(await remotePendingHooks(client, nested, `${prefix}${resource.resource_name}/`)));
  }
  return out;
}

/** Clears hooks of the resource at `path` (`unset_hook` signals); none given, the one it waits at. */
export async function remoteClearHooks(
  client: HeatClient,
  top: StackId,
  path: string,
  hooks: Hook[],
): Promise<void> {
  const parts = path.split('/');
  let stack = top;
  for (const part of parts.slice(0, -1)) {
    // Heat links a resource implemented by a stack to it (`rel: nested`).
    const nested = linkedStack((await client.showResource(stack, part)).links, 'nested');
    if (!nested) throw new Error(`resource "${part}" of stack "${stack.name}" is not a nested stack`);
    stack = nested;
  }
  const name = parts.at(-1)!;
  const pending = (await waitingIn(client, stack)).get(name);
  const clear = hooks.length > 0 ? hooks : pending ? [pending] : [];
  if (clear.length === 0) throw new Error(`resource "${path}" is not waiting at a hook`);
  for (const unset of clear) await client.signalResource(stack, name, { unset_hook: unset });
}
