import type { PropertyChange } from '../../engine/operations/plan-diff.js';
import type { PlanAction, UpdatePlan } from '../../engine/operations/update-plan.js';
import { MASK } from '../../template/parameters/index.js';
import type { Json } from '../../util/json.js';
import { render } from '../output.js';

/**
 * What `hearth stack plan` prints, as Terraform's plan reads: per changing resource a symbol and
 * its action (with why a replacement is needed), its changed properties `path: old → new`, then
 * a summary line. `-f json|yaml` prints the plan as data.
 */

const HEADS: Record<PlanAction, string> = {
  create: '+ create',
  update: '~ update in place',
  replace: '-/+ replace',
  delete: '- delete',
};

export const AFTER_APPLY = '(known after apply)';

export function planText(plan: UpdatePlan): string {
  const lines: string[] = [];
  for (const r of plan.resources) {
    const reason = r.reason ? ` (${r.reason})` : '';
    lines.push(`${HEADS[r.action]} ${r.resource_name} (${r.resource_type})${reason}`);
    for (const c of r.changes) lines.push(`    ${changeText(c)}`);
  }
  if (plan.resources.length === 0) lines.push('No changes.');
  lines.push(summaryLine(plan));
  return `${lines.join('\n')}\n`;
}

export function summaryLine(plan: UpdatePlan): string {
  const { create, update, replace, delete: del } = plan.summary;
  return `Plan: ${create} to create, ${update} to update, ${replace} to replace, ${del} to delete.`;
}

export function changeText(c: PropertyChange): string {
  const after = c.known_after_apply ? AFTER_APPLY : valueText(c.new);
  return `${c.path}: ${valueText(c.old)} → ${after}`;
}

/** A value compact on one line: strings quoted (as JSON), the mask as it is. */
function valueText(value: Json): string {
  return value === MASK ? MASK : JSON.stringify(value);
}

/** The plan in the chosen format (`table` and `value` print the text). */
export function renderPlan(plan: UpdatePlan, format: string): string {
  if (format === 'table' || format === 'value') return planText(plan);
  if (format !== 'json' && format !== 'yaml') {
    throw new Error(`unknown output format "${format}"; expected table, json, yaml or value`);
  }
  return render(plan, format, () => planText(plan));
}
