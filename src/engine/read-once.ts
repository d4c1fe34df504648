import type { Cloud } from '../openstack/index.js';
import type { PluginContext } from '../resources/contract.js';

/**
 * A plugin context whose cloud answers each identical GET once: the engine reads every attribute
 * of a resource in a row after an action (outputsOf), and each OpenStack type's `attribute` reads
 * its object anew, so a network cost 7 identical GETs. Only for such a short burst of reads: a
 * context never outlives the step that made it, and nothing but GETs is shared.
 */
export function readOnceContext(ctx: PluginContext): PluginContext {
  let cloud: Cloud | undefined;
  return {
    ...ctx,
    openstack: () => (cloud ??= readOnceCloud(ctx.openstack())),
  };
}

function readOnceCloud(cloud: Cloud): Cloud {
  const answers = new Map<string, Promise<unknown>>();
  const wrapped: Cloud = Object.create(cloud) as Cloud;
  wrapped.request = <T>(...args: Parameters<Cloud['request']>) => {
    const [service, method, path, body, options] = args;
    if (method !== 'GET' || body !== undefined) return cloud.request<T>(...args);
    const key = JSON.stringify([service, path, options ?? null]);
    let answer = answers.get(key);
    if (!answer) {
      answer = cloud.request<T>(...args);
      answers.set(key, answer);
      // A failed read is not remembered: the next one tries again.
      answer.catch(() => answers.delete(key));
    }
    return answer as ReturnType<typeof cloud.request<T>>;
  };
  return wrapped;
}
