import type { ResourceRecord, StackRecord } from '../../../store/contract.js';
import { TemplateError } from '../../../template/errors.js';
import { report } from '../record.js';
import { childStackOf, startChildVisit } from '../../context/child-stack.js';
import type { NodeScope } from '../../context/node-work.js';
import { desiredOf } from '../../core/plan.js';
import { beginTraversal } from '../../core/traversal.js';
import { retryLater } from '../../context/node-work.js';

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

  const started = await startChildVisit(scope, row, child, 'check', (tx, now) =>
    beginTraversal(tx, { stack: child, action: 'CHECK', templateId, desired, now }).then(() => undefined),
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
