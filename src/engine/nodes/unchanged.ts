import { isNestedPlugin } from '../../resources/nested-type.js';
import type { ResourcePlugin } from '../../resources/contract.js';
import type { ResourceState } from '../../store/contract.js';
import { isTemplateError } from '../../template/errors.js';
import { diffProperties } from '../../template/properties/index.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import type { EngineDeps } from '../core/deps.js';
import { isExternal, sameExternal } from './external.js';
import type { NodeOutput } from '../core/nodes.js';
import { rowOutput } from '../context/outputs.js';
import { REPLACE_PREP_KEY } from './replace-hooks.js';
import type { DesiredResource } from '../core/plan.js';
import { resolveProperties } from '../context/resolver.js';
import type { BeginOptions, DiffScope } from '../core/traversal.js';

/**
 * The resources an update traversal can leave alone, with what each reports to the others.
 *
 * A resource is unchanged when its row is settled (COMPLETE, healthy, unlocked, not replaced, of
 * the same type), it requires the same rows as before, everything it requires is unchanged, and
 * its properties, resolved against those rows' cached outputs, equal the stored ones. Such a
 * resource gets no graph node: its output goes straight into the sync points of the nodes that
 * need it, so an update that changes one resource of 100,000 runs a handful of nodes.
 *
 * Template resources and nested-stack types always get a node: their child's template can change
 * while their properties do not (the child's own traversal then skips what did not change there).
 */
export function unchangedResources(
  deps: EngineDeps,
  definition: StackDefinition,
  desired: readonly DesiredResource[],
  chosen: ReadonlyMap<string, ResourceState>,
  stackId: string,
  /** Names a heal must converge (they drifted), and so everything that requires them. */
  drifted: ReadonlySet<string> = new Set(),
  /** An update planned from a diff (update-diff.ts): which resources to compare, and which are unchanged already. */
  scope?: DiffScope,
): Map<string, NodeOutput> {
  const unchanged = new Map<string, NodeOutput>();
  for (const name of scope?.given ?? []) {
    const row = chosen.get(name);
    if (row) unchanged.set(name, rowOutput(deps, row, stackId));
  }
  for (const want of dependencyOrder(scope?.only ?? desired)) {
    if (drifted.has(want.name)) continue;
    const row = chosen.get(want.name);
    if (!row || !settled(row, want.type)) continue;
    const resource = definition.resources.get(want.name);
    if (!resource || resource.implementation.kind !== 'plugin') continue;
    const plugin = deps.plugins.plugin(want.type);
    if (!plugin || nodeAtEveryUpdate(plugin)) continue;
    // An external resource is left alone while it names the same object (its properties are ignored).
    if (isExternal(row, resource)) {
      if (sameExternal(definition, resource, row)) unchanged.set(want.name, rowOutput(deps, row, stackId));
      continue;
    }

    const inputs = new Map<string, NodeOutput>();
    const required = new Set<number>();
    let depsUnchanged = true;
    for (const name of want.requires) {
      const output = unchanged.get(name);
      if (!output) {
        depsUnchanged = false;
        break;
      }
      inputs.set(name, output);
      required.add(output.rowId);
    }
    if (!depsUnchanged || !sameIds(row.requires, required)) continue;

    try {
      const properties = resolveProperties(definition, resource, plugin, inputs);
      if (diffProperties(plugin.properties, row.properties ?? {}, properties).changed.length > 0) continue;
    } catch (err) {
      // The node reports the error when it runs.
      if (isTemplateError(err)) continue;
      throw err;
    }
    unchanged.set(want.name, rowOutput(deps, row, stackId));
  }
  return unchanged;
}

/**
 * A plugin type whose resources get a node at every update, whatever their definition: no
 * plugin (the node reports it), a nested stack (its child's template may change), a type
 * replaced on every update (the node decides whether this is one).
 */
export function nodeAtEveryUpdate(plugin: ResourcePlugin | undefined): boolean {
  return !plugin || isNestedPlugin(plugin) || plugin.replacedOnUpdate === true;
}

function settled(row: ResourceState, type: string): boolean {
  return (
    row.status === 'COMPLETE' &&
    row.action !== 'INIT' &&
    row.action !== 'DELETE' &&
    !row.unhealthy &&
    row.engineId === null &&
    row.replacedBy === null &&
    // Readied for a replacement a rollback gave up: its node restores it (replace-hooks.ts).
    !(REPLACE_PREP_KEY in row.data) &&
    row.physicalId !== null &&
    row.type === type
  );
}

function sameIds(stored: readonly number[], wanted: ReadonlySet<number>): boolean {
  const distinct = new Set(stored);
  if (distinct.size !== wanted.size) return false;
  for (const id of distinct) if (!wanted.has(id)) return false;
  return true;
}

/** Desired resources with every resource after those it requires (Kahn; cycles were rejected at validation). */
function dependencyOrder(desired: readonly DesiredResource[]): DesiredResource[] {
  const byName = new Map(desired.map((d) => [d.name, d]));
  const waiting = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const want of desired) {
    let count = 0;
    for (const dep of new Set(want.requires)) {
      if (!byName.has(dep)) continue;
      count++;
      const list = dependents.get(dep);
      if (list) list.push(want.name);
      else dependents.set(dep, [want.name]);
    }
    waiting.set(want.name, count);
  }
  const order: DesiredResource[] = desired.filter((d) => waiting.get(d.name) === 0);
  for (let i = 0; i < order.length; i++) {
    for (const next of dependents.get(order[i]!.name) ?? []) {
      const left = waiting.get(next)! - 1;
      waiting.set(next, left);
      if (left === 0) order.push(byName.get(next)!);
    }
  }
  return order;
}

/** The hook by which a traversal leaves unchanged resources alone (see unchanged.ts). */
export function unchangedFor(
  deps: EngineDeps,
  definition: StackDefinition,
  desired: readonly DesiredResource[],
): BeginOptions['unchanged'] {
  return (chosen, stackId, drifted, scope) =>
    unchangedResources(deps, definition, desired, chosen, stackId, drifted, scope);
}
