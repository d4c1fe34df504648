import type { ResourceRecord, StackRecord } from '../store/contract.js';
import { TemplateError } from '../template/errors.js';
import type { JsonObject } from '../util/json.js';
import { report } from './check-node.js';
import {
  childStackOf,
  DIGEST_KEY,
  guarded,
  NESTED_SAFETY_MS,
  type NestedProgress,
  park,
  type ParkedPayload,
  Retry,
} from './child-stack.js';
import { resourceEvent } from './events.js';
import type { NodeScope } from './node-work.js';
import { desiredOf } from './operations.js';
import { beginTraversal } from './traversal.js';
import { retryLater } from './update-node.js';

/**
 * The CHECK node of a template resource: its check is a CHECK traversal of its child stack. The
 * node locks the row, starts the child's check and parks on the child's end event, in one
 * transaction; woken, it records CHECK_COMPLETE, or CHECK_FAILED with the child's reason (which
 * names the child's failed resources), and reports to its dependents. The parent never polls.
 */
export async function runNestedCheck(scope: NodeScope, row: ResourceRecord): Promise<void> {
  const { deps } = scope;
  const childId = childStackOf(row)!;
  const child = await deps.store.tx((tx) => tx.stacks.get(childId));
  if (!child || child.deletedAt || child.action === 'DELETE') {
    return report(scope, row, { error: `the nested stack ${childId} is gone`, reason: '' }, [row.name]);
  }
  if (child.status === 'IN_PROGRESS') {
    const error = `the nested stack ${child.name} is ${child.action}_IN_PROGRESS`;
    return report(scope, row, { error, reason: '' }, [row.name]);
  }
  const templateId = child.templateId;
  const record = templateId ? await deps.store.tx((tx) => tx.templates.get(templateId)) : undefined;
  if (!templateId || !record) {
    const error = `the nested stack ${child.name} has no template to check against`;
    return report(scope, row, { error, reason: '' }, [row.name]);
  }
  let desired;
  try {
    const identity = { stackId: child.id, stackName: child.name, projectId: child.projectId };
    desired = desiredOf(scope.cache.get(record, identity));
  } catch (err) {
    if (err instanceof TemplateError)
      return report(scope, row, { error: err.message, reason: '' }, [row.name]);
    throw err;
  }

  const now = deps.clock.now();
  const progress: NestedProgress = {
    child: child.id,
    op: 'check',
    properties: row.properties ?? {},
    digest: typeof row.data[DIGEST_KEY] === 'string' ? row.data[DIGEST_KEY] : '',
    type: row.type,
  };
  const payload: ParkedPayload = { phase: 'nested', op: 'check', row: row.id, child: child.id };
  const started = await guarded(
    deps.store.tx(async (tx) => {
      const locked = await tx.resources.update(row.id, row.atomicKey, row.engineId, {
        engineId: scope.holder,
        action: 'CHECK',
        status: 'IN_PROGRESS',
        reason: 'state changed',
        progress: progress as unknown as JsonObject,
        updatedAt: new Date(now).toISOString(),
      });
      if (!locked) return false;
      await tx.events.append([resourceEvent(locked, 'CHECK', 'IN_PROGRESS', 'state changed', now)]);
      // Parked before the child's traversal starts, so its end event cannot come first.
      if (!(await park(tx, scope, payload, now + NESTED_SAFETY_MS))) throw new Retry();
      await beginTraversal(tx, { stack: child, action: 'CHECK', templateId, desired, now });
      return true;
    }),
  );
  if (!started) return retryLater(scope);
}

/** The parked check node, woken by its child's end: records the child's verdict. */
export async function resumeNestedCheck(
  scope: NodeScope,
  row: ResourceRecord,
  child: StackRecord | undefined,
  repark: () => Promise<void>,
): Promise<void> {
  if (child && child.status === 'IN_PROGRESS' && child.action === 'CHECK') return repark();
  if (child && child.action === 'CHECK' && child.status === 'COMPLETE') {
    return report(scope, row, { error: null, reason: 'state changed' }, []);
  }
  // Failed, or changed by another operation meanwhile (which superseded the check).
  const error = child
    ? child.action === 'CHECK'
      ? child.reason
      : `the nested stack's check was superseded by its ${child.action}`
    : 'the nested stack is gone';
  return report(scope, row, { error, reason: '' }, [row.name]);
}
