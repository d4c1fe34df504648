import { combineSets, type SetKind } from '../set-values.js';
import { asSet, isDict, isSetList, uniqueValues } from '../values.js';
import { setInDict } from './dicts.js';
import { type Call, define, type FunctionDef } from './types.js';

/**
 * yaql's sets. A set is a list without duplicates (in first-seen order) marked as a set, so that it
 * compares as a set and isSet() knows it; every set function also accepts plain lists.
 */

function setFunction(kind: SetKind) {
  return (c: Call): unknown[] => combineSets(kind, c.list(0), c.list(1), c.budget);
}

/** set(values...) makes a set; set(dict, ...) is the dict function of the same name. */
function set(c: Call): unknown {
  if (isDict(c.value(0)) || c.mappings.length > 0) return setInDict(c);
  const values = c.has(0) ? [c.value(0), ...c.rest] : [];
  c.budget.spend(values.length);
  return asSet(uniqueValues(values, c.budget));
}

export const SET_FUNCTIONS: readonly FunctionDef[] = [
  define('set', ['dict?', '...args'], set, 'mappings'),
  define('toSet', ['collection'], (c) => asSet(uniqueValues(c.list(0), c.budget))),
  define('isSet', ['value'], (c) => isSetList(c.value(0))),
  define('union', ['left', 'right'], setFunction('union')),
  define('intersect', ['left', 'right'], setFunction('intersect')),
  define('difference', ['left', 'right'], setFunction('difference')),
  define('symmetricDifference', ['left', 'right'], setFunction('symmetricDifference')),
  define('add', ['set', '...values'], (c) => combineSets('union', c.list(0), c.rest, c.budget)),
  define('remove', ['set', '...values'], (c) => combineSets('difference', c.list(0), c.rest, c.budget)),
];
