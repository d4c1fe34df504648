import type { StackUserKeyTarget } from '../../auth/stack-user-keys.js';
import { currentRow } from '../../engine/core/rows.js';
import type { Engine } from '../../engine/engine.js';
import type { ResourceRecord, StackRecord, Tx } from '../../store/contract.js';

/**
 * What an AWS::IAM::AccessKey's keypair (hiak_, auth/stack-user-keys.ts) gives access to: reading
 * the resources of its stack its user's policies allow (Heat's User.access_allowed: every
 * OS::Heat::AccessPolicy the user names must list the resource; no policy, every resource).
 * Checked on the rows at each request, so deleting the key or its user, replacing either, making
 * the key Inactive or suspending the user revokes it at once.
 */
export interface StackUserAccess {
  stack: StackRecord;
  /** Whether the key may read the resource of that name. */
  allows(resourceName: string): boolean;
}

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The user row the key still belongs to: named in its data, holding the nonce it recorded. */
async function userOf(tx: Tx, stackId: string, key: ResourceRecord): Promise<ResourceRecord | undefined> {
  const { user, user_nonce: nonce } = key.data;
  if (typeof user !== 'string' || typeof nonce !== 'string') return undefined;
  const row = (await tx.resources.findByName(stackId, user)).find((r) => r.data.user_nonce === nonce);
  // Heat disables a suspended user's Keystone account.
  return row && !(row.action === 'SUSPEND' && row.status !== 'FAILED') ? row : undefined;
}

/** The access a key still has; undefined: revoked (or never valid). */
export async function stackUserAccessOf(
  engine: Engine,
  target: StackUserKeyTarget,
): Promise<StackUserAccess | undefined> {
  return engine.deps.store.read(async (tx) => {
    const stack = await tx.stacks.get(target.stackId);
    if (!stack || stack.deletedAt || stack.projectId !== target.projectId) return undefined;
    const rows = await tx.resources.findByName(stack.id, target.resourceName);
    const key = rows.find((r) => r.data.key_nonce === target.nonce);
    if (!key || key.data.active !== true) return undefined;
    const user = await userOf(tx, stack.id, key);
    if (!user) return undefined;
    const policies: (readonly string[] | undefined)[] = [];
    for (const name of stringsOf(user.data.policies)) {
      const policy = currentRow(await tx.resources.findByName(stack.id, name));
      // A policy not (or no longer) there allows nothing, as Heat's user fails its check.
      policies.push(policy ? stringsOf(policy.data.allowed_resources) : undefined);
    }
    return {
      stack,
      allows: (resourceName) => policies.every((allowed) => allowed?.includes(resourceName) === true),
    };
  });
}
