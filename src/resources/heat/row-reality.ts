import type { PluginContext, RealityState } from '../contract.js';

/**
 * The live state of a type whose whole reality is its resource row (None, Value, RandomString,
 * the software configs): present with the properties it was last converged to, once created.
 */
export async function rowReality(ctx: PluginContext): Promise<RealityState> {
  if (ctx.physicalId === null) return { state: 'gone' };
  return { state: 'present', properties: { ...(ctx.storedProperties ?? {}) } };
}
