import { truthy } from '../values.js';
import { type Call, define, type FunctionDef, type Lambda } from './types.js';

/** yaql's branching helpers beyond switch() and coalesce(), and assert() and unpack(). */

function cases(c: Call): Lambda[] {
  return c.rest as Lambda[];
}

/** selectCase(conditions...): the index of the first true one, or the number of conditions. */
function selectCase(c: Call): number {
  const all = cases(c);
  const index = all.findIndex((condition) => truthy(condition()));
  return index < 0 ? all.length : index;
}

/** selectAllCases(conditions...): the indexes of all true ones. */
function selectAllCases(c: Call): number[] {
  const out: number[] = [];
  for (const [i, condition] of cases(c).entries()) if (truthy(condition())) out.push(i);
  return out;
}

/** switchCase(case, values...): the value at index `case`, else the last one (null if none). */
function switchCase(c: Call): unknown {
  const index = c.int(0);
  const all = cases(c);
  if (all.length === 0) return null;
  return (index >= 0 && index < all.length ? all[index]! : all[all.length - 1]!)();
}

/** assert(value, condition, message?): the value when the condition holds for it, else an error. */
function assert(c: Call): unknown {
  const value = c.value(0);
  if (!truthy(c.lambda(1)(value))) {
    return c.fail(c.has(2) ? String(c.string(2)) : 'Assertion failed');
  }
  return value;
}

/** unpack(list, names...) -> expr: binds the items to $name (or to $1, $2... without names). */
function unpack(c: Call): unknown {
  const items = c.list(0);
  const names = c.rest;
  if (names.length > 0 && names.length !== items.length) {
    return c.fail(`cannot unpack ${items.length} elements into ${names.length}`);
  }
  const vars = new Map<string, unknown>();
  for (const [i, item] of items.entries()) {
    const name = names.length > 0 ? names[i] : String(i + 1);
    if (typeof name !== 'string') return c.fail('names must be strings');
    vars.set(name, item);
  }
  return c.scope.child(vars);
}

export const BRANCHING_FUNCTIONS: readonly FunctionDef[] = [
  define('selectCase', ['...conditions:lambda'], selectCase),
  define('selectAllCases', ['...conditions:lambda'], selectAllCases),
  define('examine', ['...conditions:lambda'], (c) => cases(c).map((condition) => truthy(condition()))),
  define('switchCase', ['case', '...values:lambda'], switchCase),
  define('assert', ['value', 'condition:lambda', 'message?'], assert),
  define('unpack', ['sequence', '...names'], unpack),
];
