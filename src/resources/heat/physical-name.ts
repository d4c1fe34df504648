import { hash } from 'node:crypto';
import type { PluginContext } from '../contract.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Twelve lower-case base32 characters (60 bits) derived from `seed`, shaped like Heat's short_id.
 * Derived, not random, so that a retried create computes the same name.
 */
export function shortId(seed: string): string {
  const bytes = hash('sha256', seed, 'buffer');
  // The first 60 bits, five at a time: two 30-bit halves keep the arithmetic in small integers.
  const high = (bytes[0]! << 22) | (bytes[1]! << 14) | (bytes[2]! << 6) | (bytes[3]! >> 2);
  const low =
    ((bytes[3]! & 3) << 28) | (bytes[4]! << 20) | (bytes[5]! << 12) | (bytes[6]! << 4) | (bytes[7]! >> 4);
  let out = '';
  for (let i = 5; i >= 0; i--) out += BASE32[(high >>> (i * 5)) & 31];
  for (let i = 5; i >= 0; i--) out += BASE32[(low >>> (i * 5)) & 31];
  return out;
}

/**
 * Heat's physical_resource_name: `<stack name>-<resource name>-<short id>`, the stack name without
 * trailing `*`. The short id comes from the idempotency key, so every retry of a create names the
 * object the same way. A `limit` reduces a longer name as Heat does (see reducedName).
 */
export function physicalResourceName(ctx: PluginContext, limit?: number): string {
  const name = `${ctx.stackName.replace(/\*+$/, '')}-${ctx.resourceName}-${shortId(ctx.idempotencyKey)}`;
  return limit === undefined ? name : reducedName(name, limit);
}

/**
 * Heat's reduce_physical_resource_name: a name over `limit` (e.g. a server's 53, a host name)
 * keeps its first two characters, a hyphen, and as much of its end (the short id) as fits.
 */
export function reducedName(name: string, limit: number): string {
  if (name.length <= limit) return name;
  if (limit < 4) throw new Error('limit cannot be less than 4');
  return `${name.slice(0, 2)}-${name.slice(name.length - (limit - 3))}`;
}

/** A version-4-shaped UUID derived from `seed` (OS::Heat::None's physical id), stable across retries. */
export function uuidFrom(seed: string): string {
  const hex = hash('sha256', `uuid:${seed}`, 'hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
