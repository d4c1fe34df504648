import { type Budget, fault } from './budget.js';
import { regexMatches } from './functions/regex.js';
import {
  compare,
  type Dict,
  dictEntries,
  dictGet,
  equal,
  isDict,
  isInteger,
  lazy,
  truthy,
  typeName,
} from './values.js';
import { setOperator } from './set-values.js';
import { DateTime, TimeSpan, timeOperator, timeProperty } from './time.js';

/** Applies a binary operator other than `and`, `or` and `->` (which evaluate lazily). */
export function applyBinary(op: string, left: unknown, right: unknown, budget: Budget): unknown {
  if (op === '+' || op === '-' || op === '*' || op === '/') {
    const timeResult = timeOperator(op, left, right);
    if (timeResult !== undefined) return timeResult;
  }
  const setResult = setOperator(op, left, right, budget);
  if (setResult !== undefined) return setResult;
  switch (op) {
    case '=':
      return equal(left, right, budget);
    case '!=':
      return !equal(left, right, budget);
    case '<':
      return compare(left, right) < 0;
    case '>':
      return compare(left, right) > 0;
    case '<=':
      return compare(left, right) <= 0;
    case '>=':
      return compare(left, right) >= 0;
    case 'in':
      return contains(right, left, budget);
    case '=~':
      return regexMatches(left, right, budget, '"=~"');
    case '!~':
      return !regexMatches(left, right, budget, '"!~"');
    case '+':
      return add(left, right, budget);
    case '*':
      return multiply(left, right, budget);
    default:
      return arithmetic(op, left, right);
  }
}

export function applyUnary(op: string, operand: unknown): unknown {
  if (op === 'not') return !truthy(operand);
  if (operand instanceof TimeSpan) return op === '-' ? new TimeSpan(-operand.micros) : operand;
  if (typeof operand !== 'number') return fault(`unary "${op}" needs a number, not ${typeName(operand)}`);
  return op === '-' ? -operand : operand;
}

/** `value in collection`: membership in a list, or a substring of a string. */
function contains(collection: unknown, value: unknown, budget: Budget): boolean {
  if (Array.isArray(collection)) return collection.some((item) => equal(item, value, budget));
  if (typeof collection === 'string' && typeof value === 'string') return collection.includes(value);
  return fault(
    `"in" needs a list (or a string in a string), not ${typeName(value)} in ${typeName(collection)}`,
  );
}

/** `+` adds numbers and joins strings, lists and dicts (the right dict's values win). */
function add(left: unknown, right: unknown, budget: Budget): unknown {
  if (typeof left === 'number' && typeof right === 'number') return left + right;
  if (typeof left === 'string' && typeof right === 'string') {
    budget.spendChars(left.length + right.length);
    return left + right;
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    budget.spend(left.length + right.length);
    return [...left, ...right];
  }
  if (isDict(left) && isDict(right)) return mergeDicts(left, right, budget);
  return fault(`cannot add ${typeName(left)} and ${typeName(right)}`);
}

export function mergeDicts(left: Dict, right: Dict, budget: Budget): Map<unknown, unknown> {
  const entries = [...dictEntries(left), ...dictEntries(right)];
  budget.spend(entries.length);
  return new Map(entries);
}

/** `*` multiplies numbers and repeats a string or a list an integer number of times. */
function multiply(left: unknown, right: unknown, budget: Budget): unknown {
  if (typeof left === 'number' && typeof right === 'number') return left * right;
  const [items, times] = isInteger(left) ? [right, left] : [left, right];
  if (isInteger(times) && (typeof items === 'string' || Array.isArray(items))) {
    const count = Math.max(0, times);
    if (typeof items === 'string') {
      budget.spendChars(items.length * count);
      return items.repeat(count);
    }
    budget.spend(items.length * count);
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) out.push(...items);
    return out;
  }
  return fault(`cannot multiply ${typeName(left)} by ${typeName(right)}`);
}

/** `-`, `/` and `mod` on numbers, with Python's integer division and sign of modulo. */
function arithmetic(op: string, left: unknown, right: unknown): number {
  if (typeof left !== 'number' || typeof right !== 'number') {
    return fault(`"${op}" needs numbers, not ${typeName(left)} and ${typeName(right)}`);
  }
  if (op === '-') return left - right;
  if (right === 0) return fault(op === '/' ? 'division by zero' : 'modulo by zero');
  if (op === '/') {
    const quotient = left / right;
    return Number.isInteger(left) && Number.isInteger(right) ? Math.floor(quotient) : quotient;
  }
  const remainder = left % right;
  return remainder !== 0 && remainder < 0 !== right < 0 ? remainder + right : remainder;
}

/** `object.name`: a dict's value (an error if missing, as in yaql), or that of every item of a list. */
export function getAttribute(object: unknown, name: string, budget: Budget): unknown {
  budget.spend();
  if (isDict(object)) {
    const value = dictGet(object, name);
    return value === undefined ? fault(`key "${name}" not found`) : value;
  }
  if (Array.isArray(object)) return lazy(object.map((item) => getAttribute(item, name, budget)));
  if (object instanceof DateTime || object instanceof TimeSpan) return timeProperty(object, name);
  return fault(`cannot read key "${name}" of ${typeName(object)}`);
}

/** `object[index]` on a list (negative counts from the end) or `dict[key]`, `dict[key, default]`. */
export function getIndex(object: unknown, args: readonly unknown[], hasDefault: boolean): unknown {
  const key = args[0];
  if (isDict(object)) {
    const value = dictGet(object, key);
    if (value !== undefined) return value;
    return hasDefault ? args[1] : fault(`key ${JSON.stringify(key) ?? String(key)} not found`);
  }
  if (hasDefault) return fault(`an index with a default needs a dict, not ${typeName(object)}`);
  if (Array.isArray(object)) {
    if (!isInteger(key)) return fault(`a list index must be an integer, not ${typeName(key)}`);
    const at = key < 0 ? object.length + key : key;
    if (at < 0 || at >= object.length)
      return fault(`list index ${key} out of range (length ${object.length})`);
    return object[at];
  }
  return fault(`cannot index ${typeName(object)}`);
}
