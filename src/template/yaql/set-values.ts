import type { Budget } from './budget.js';
import { asSet, hashKey, isSetList, uniqueValues } from './values.js';

/** Set algebra on yaql sets (lists marked by asSet), for the set functions and operators. */

export type SetKind = 'union' | 'intersect' | 'difference' | 'symmetricDifference';

export function combineSets(
  kind: SetKind,
  left: readonly unknown[],
  right: readonly unknown[],
  budget: Budget,
): unknown[] {
  budget.spend(left.length + right.length);
  const keys = (items: readonly unknown[]) => new Set(items.map((item) => hashKey(item, budget)));
  const inRight = keys(right);
  const notIn = (set: Set<string>) => (item: unknown) => !set.has(hashKey(item, budget));
  switch (kind) {
    case 'union':
      return asSet(uniqueValues([...left, ...right], budget));
    case 'intersect':
      return asSet(
        uniqueValues(
          left.filter((item) => inRight.has(hashKey(item, budget))),
          budget,
        ),
      );
    case 'difference':
      return asSet(uniqueValues(left.filter(notIn(inRight)), budget));
    default:
      return asSet(
        uniqueValues([...left.filter(notIn(inRight)), ...right.filter(notIn(keys(left)))], budget),
      );
  }
}

/**
 * Operators on two sets, as yaql defines them: `+` union, `-` difference, `<` `<=` `>` `>=` subset
 * tests. Undefined when the operands are not both sets.
 */
export function setOperator(op: string, left: unknown, right: unknown, budget: Budget): unknown {
  if (!isSetList(left) || !isSetList(right)) return undefined;
  if (op === '+') return combineSets('union', left, right, budget);
  if (op === '-') return combineSets('difference', left, right, budget);
  const subset = (a: readonly unknown[], b: readonly unknown[]) =>
    combineSets('difference', a, b, budget).length === 0;
  switch (op) {
    case '<':
      return subset(left, right) && left.length < right.length;
    case '<=':
      return subset(left, right);
    case '>':
      return subset(right, left) && left.length > right.length;
    case '>=':
      return subset(right, left);
    default:
      return undefined;
  }
}
