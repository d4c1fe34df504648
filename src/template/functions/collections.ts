import { getOwn, isPlainObject, pyJsonDumps, setOwn, typeName } from '../../util/json.js';
import { describeNode, fail, isMap, literalList, resolveArg, showValue } from './args.js';
import { pyTruthy } from './python.js';
import {
  FnCall,
  type FunctionDef,
  isUnknown,
  type Node,
  UNKNOWN,
  type Unknown,
  type Value,
} from './types.js';

type ValueMap = { [key: string]: Value };

/**
 * Python's `==` on resolved data, which Heat's `in` tests use: `true == 1`, key order ignored.
 * Undefined when an unknown part decides the answer.
 */
export function pyEquals(a: Value, b: Value): boolean | undefined {
  if (isUnknown(a) || isUnknown(b)) return undefined;
  const numeric = (v: Value) => typeof v === 'number' || typeof v === 'boolean';
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return allEqual(a.map((item, i) => [item, b[i] as Value]));
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length || !keys.every((key) => Object.hasOwn(b, key))) return false;
    return allEqual(keys.map((key) => [a[key] as Value, b[key] as Value]));
  }
  return a === b;
}

function allEqual(pairs: [Value, Value][]): boolean | undefined {
  let result: boolean | undefined = true;
  for (const [x, y] of pairs) {
    const equal = pyEquals(x, y);
    if (equal === false) return false;
    if (equal === undefined) result = undefined;
  }
  return result;
}

/** Python's `value in list`; undefined when unknown parts leave it open. */
export function pyContains(list: readonly Value[], value: Value): boolean | undefined {
  let result: boolean | undefined = false;
  for (const item of list) {
    const equal = pyEquals(item, value);
    if (equal === true) return true;
    if (equal === undefined) result = undefined;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// map_merge, map_replace
// ---------------------------------------------------------------------------------------------

const MERGE_USAGE = '[{key1: value1}, {key2: value2}, ...]';

export const mapMerge: FunctionDef = {
  name: 'map_merge',
  description: 'Merges a list of maps; values in later maps override earlier ones.',
  check(call) {
    if (call.args instanceof FnCall) return;
    const items = literalList(call, 0, Number.POSITIVE_INFINITY, MERGE_USAGE);
    for (const item of items) {
      if (!(item instanceof FnCall) && item !== null && !isPlainObject(item)) {
        fail(call, `items to merge must be maps, got ${describeNode(item)}`);
      }
    }
  },
  resolve(call, ctx) {
    const items = resolveArg(ctx, call.args);
    if (isUnknown(items)) return UNKNOWN;
    if (!Array.isArray(items)) return fail(call, `arguments must be a list of maps ${MERGE_USAGE}`);
    const merged: ValueMap = {};
    let unknown = false;
    for (const item of items) {
      if (isUnknown(item)) unknown = true;
      else if (isMap(item)) for (const key of Object.keys(item)) setOwn(merged, key, item[key] as Value);
      else if (item !== null)
        fail(call, `items to merge must be maps, got ${typeName(item)} ${showValue(item)}`);
    }
    return unknown ? UNKNOWN : merged;
  },
};

const MAP_REPLACE_USAGE = '[{key1: value1}, {keys: {key1: new_key1}, values: {value1: new_value1}}]';

/** A null item counts as an empty map, as in Heat. */
function mapOrEmpty(call: FnCall, value: Value | undefined, what: string): ValueMap | Unknown {
  if (value === undefined || value === null) return {};
  if (isUnknown(value) || isMap(value)) return value;
  return fail(call, `${what} must be a map, got ${typeName(value)}; the form is ${MAP_REPLACE_USAGE}`);
}

/** A replacement key as the output map will hold it (a number key is written as JSON writes it). */
function replacementKey(call: FnCall, key: Value): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'number' || typeof key === 'boolean') return pyJsonDumps(key);
  return fail(call, `key replacements must be strings, got ${typeName(key)}`);
}

export const mapReplace: FunctionDef = {
  name: 'map_replace',
  description: 'Renames keys and replaces values of a map, by exact match.',
  check(call) {
    if (call.args instanceof FnCall) return;
    const items = literalList(call, 2, 2, MAP_REPLACE_USAGE);
    for (const item of items) {
      if (!(item instanceof FnCall) && item !== null && !isPlainObject(item)) {
        fail(call, `arguments must be a list of two maps ${MAP_REPLACE_USAGE}, got ${describeNode(item)}`);
      }
    }
    if (isPlainObject(items[1])) checkReplacementKeys(call, Object.keys(items[1]));
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, call.args);
    if (isUnknown(args)) return UNKNOWN;
    if (!Array.isArray(args) || args.length !== 2) {
      return fail(call, `arguments must be a list of two maps ${MAP_REPLACE_USAGE}`);
    }
    const input = mapOrEmpty(call, args[0], 'the first argument');
    const replacements = mapOrEmpty(call, args[1], 'the second argument');
    if (isUnknown(replacements)) return UNKNOWN;
    checkReplacementKeys(call, Object.keys(replacements));
    const keyMap = mapOrEmpty(call, getOwn(replacements, 'keys'), '"keys"');
    const valueMap = mapOrEmpty(call, getOwn(replacements, 'values'), '"values"');
    if (isUnknown(input) || isUnknown(keyMap) || isUnknown(valueMap)) return UNKNOWN;

    const output: ValueMap = {};
    for (const key of Object.keys(input)) {
      const value = input[key] as Value;
      const renamed = getOwn(keyMap, key);
      let newKey = key;
      if (renamed !== undefined && renamed !== null) {
        if (isUnknown(renamed)) return UNKNOWN;
        newKey = replacementKey(call, renamed);
        if (newKey !== key && Object.hasOwn(input, newKey)) {
          fail(call, `key replacement "${newKey}" collides with a key in the input map`);
        } else if (Object.hasOwn(output, newKey)) {
          fail(call, `key replacement "${newKey}" collides with a key in the output map`);
        }
      }
      // Only strings can match: the values map's keys are strings, and lists or maps are never
      // replaced (Heat cannot look them up).
      const replaced = typeof value === 'string' ? getOwn(valueMap, value) : undefined;
      setOwn(output, newKey, replaced === undefined ? value : replaced);
    }
    return output;
  },
};

function checkReplacementKeys(call: FnCall, keys: string[]): void {
  for (const key of keys) {
    if (key !== 'keys' && key !== 'values') {
      fail(call, `unknown key "${key}" in the replacements; the form is ${MAP_REPLACE_USAGE}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// list_concat, list_concat_unique
// ---------------------------------------------------------------------------------------------

const CONCAT_USAGE = '[[<value 1>, <value 2>], [<value 3>, <value 4>]]';

function makeListConcat(name: string, description: string, unique: boolean): FunctionDef {
  return {
    name,
    description,
    check(call) {
      if (call.args instanceof FnCall) return;
      const items = literalList(call, 0, Number.POSITIVE_INFINITY, CONCAT_USAGE);
      for (const item of items) {
        if (!(item instanceof FnCall) && item !== null && !Array.isArray(item)) {
          fail(call, `items to concatenate must be lists, got ${describeNode(item)}`);
        }
      }
    },
    resolve(call, ctx) {
      const lists = resolveArg(ctx, call.args);
      if (isUnknown(lists)) return UNKNOWN;
      if (!Array.isArray(lists)) return fail(call, `arguments must be a list of lists ${CONCAT_USAGE}`);
      let unknown = false;
      const items: Value[] = [];
      for (const list of lists) {
        if (isUnknown(list)) unknown = true;
        else if (Array.isArray(list)) for (const item of list) items.push(item);
        else if (list !== null)
          fail(call, `items to concatenate must be lists, got ${typeName(list)} ${showValue(list)}`);
      }
      if (unknown) return UNKNOWN;
      if (!unique) return items;
      const distinct: Value[] = [];
      for (const item of items) {
        const seen = pyContains(distinct, item);
        if (seen === undefined) return UNKNOWN;
        if (!seen) distinct.push(item);
      }
      return distinct;
    },
  };
}

export const listConcat = makeListConcat('list_concat', 'Concatenates lists; null items are ignored.', false);

export const listConcatUnique = makeListConcat(
  'list_concat_unique',
  'Concatenates lists, keeping only the first occurrence of each item.',
  true,
);

// ---------------------------------------------------------------------------------------------
// repeat
// ---------------------------------------------------------------------------------------------

const REPEAT_USAGE = '{template: <template with %var%>, for_each: {"%var%": [a, b, c]}}';

/** A guard against for_each products that would exhaust memory (Heat has none and would fail too). */
const MAX_REPEAT_ITEMS = 10_000_000;

type RepeatVariant = 'lists' | 'maps' | 'nested';

interface RepeatArgs {
  template: Node;
  forEach: Node;
  permutations: boolean;
}

/** Heat ignores keys other than template, for_each (and permutations from 2017-09-01). */
function repeatArgs(call: FnCall, variant: RepeatVariant): RepeatArgs {
  const args = call.args;
  if (!isPlainObject(args)) return fail(call, `arguments must be a map of the form ${REPEAT_USAGE}`);
  const map = args as { [key: string]: Node };
  const template = getOwn(map, 'template');
  const forEach = getOwn(map, 'for_each');
  if (template === undefined || forEach === undefined) {
    return fail(call, `arguments must have "template" and "for_each", as in ${REPEAT_USAGE}`);
  }
  if (!(forEach instanceof FnCall) && !isPlainObject(forEach)) {
    fail(call, `"for_each" must be a map, got ${describeNode(forEach)}`);
  }
  let permutations = true;
  if (variant === 'nested' && Object.hasOwn(map, 'permutations')) {
    const value = map.permutations;
    if (typeof value !== 'boolean')
      fail(call, `"permutations" must be a boolean, got ${describeNode(value ?? null)}`);
    permutations = value;
  }
  return { template, forEach, permutations };
}

/** Each combination of for_each values: nested loops (first key slowest), or zipped. */
function combinations(lists: Value[][], permutations: boolean): Value[][] {
  if (!permutations) {
    const length = Math.min(...lists.map((list) => list.length));
    return Array.from({ length }, (_, i) => lists.map((list) => list[i] as Value));
  }
  let result: Value[][] = [[]];
  for (const list of lists) {
    const next: Value[][] = [];
    for (const prefix of result) for (const item of list) next.push([...prefix, item]);
    result = next;
  }
  return result;
}

/** Replaces each placeholder in every string (keys too) of the resolved template, in order. */
function substitute(call: FnCall, template: Value, keys: string[], values: Value[]): Value {
  if (typeof template === 'string') {
    let text = template;
    for (let i = 0; i < keys.length; i++) {
      const value = values[i] as Value;
      if (isUnknown(value)) {
        if (text.includes(keys[i]!)) return UNKNOWN;
        continue;
      }
      // Heat's str.replace rejects a non-string replacement even where the key does not occur.
      if (typeof value !== 'string') {
        fail(
          call,
          `for_each values must be strings to substitute into the template, got ${showValue(value)}`,
        );
      }
      text = text.replaceAll(keys[i]!, () => value);
    }
    return text;
  }
  if (Array.isArray(template)) return template.map((item) => substitute(call, item, keys, values));
  if (isMap(template)) {
    const out: ValueMap = {};
    for (const key of Object.keys(template)) {
      const newKey = substitute(call, key, keys, values);
      const newValue = substitute(call, template[key] as Value, keys, values);
      if (isUnknown(newKey)) return UNKNOWN;
      setOwn(out, newKey as string, newValue);
    }
    return out;
  }
  return template;
}

function makeRepeat(variant: RepeatVariant, description: string): FunctionDef {
  return {
    name: 'repeat',
    description,
    check(call) {
      repeatArgs(call, variant);
    },
    resolve(call, ctx) {
      const { template: templateNode, forEach: forEachNode, permutations } = repeatArgs(call, variant);
      const forEach = resolveArg(ctx, forEachNode);
      if (isUnknown(forEach)) return UNKNOWN;
      if (!isMap(forEach)) return fail(call, `"for_each" must be a map, got ${typeName(forEach)}`);
      const keys = Object.keys(forEach);
      if (keys.length === 0) fail(call, '"for_each" must not be empty');
      const allowMaps = variant === 'maps' || (variant === 'nested' && permutations);
      const lists: Value[][] = [];
      const lengths = new Set<number>();
      let unknown = false;
      for (const key of keys) {
        const value = forEach[key] as Value;
        if (value === null)
          lists.push([]); // Heat iterates a null value as an empty list
        else if (isUnknown(value)) unknown = true;
        else if (Array.isArray(value)) {
          lists.push(value);
          lengths.add(value.length);
        } else if (allowMaps && isMap(value)) {
          lists.push(Object.keys(value));
          lengths.add(Object.keys(value).length);
        } else {
          fail(
            call,
            `the values of "for_each" must be lists${allowMaps ? ' or maps' : ''}, got ${typeName(value)} ${showValue(value)}`,
          );
        }
      }
      if (!permutations && lengths.size > 1) {
        fail(call, 'with "permutations: false" the lists in "for_each" must all have the same length');
      }
      if (unknown) return UNKNOWN;
      const count = permutations
        ? lists.reduce((n, list) => n * list.length, 1)
        : Math.min(...lists.map((list) => list.length));
      if (count > MAX_REPEAT_ITEMS) fail(call, `would produce ${count} items, more than ${MAX_REPEAT_ITEMS}`);
      // Heat resolves the template first and substitutes into the result, so placeholders inside
      // function arguments are not substituted before the function runs.
      const template = resolveArg(ctx, templateNode);
      return combinations(lists, permutations).map((values) => substitute(call, template, keys, values));
    },
  };
}

/** repeat from 2015-04-30: for_each values are lists, combined as nested loops. */
export const repeat = makeRepeat(
  'lists',
  'Renders a template once for each combination of for_each list items.',
);

/** repeat from 2016-10-14: a for_each value may be a map, meaning its keys. */
export const repeatWithMap = makeRepeat(
  'maps',
  'Renders a template once for each combination of for_each items (lists, or the keys of maps).',
);

/** repeat from 2017-09-01: `permutations: false` zips equally long lists instead. */
export const repeatNested = makeRepeat(
  'nested',
  'Renders a template for each combination of for_each items, or for each position with permutations: false.',
);

// ---------------------------------------------------------------------------------------------
// filter, contains
// ---------------------------------------------------------------------------------------------

const FILTER_USAGE = '[<values to remove>, <list>]';

export const filter: FunctionDef = {
  name: 'filter',
  description: 'Removes the given values from a list.',
  check(call) {
    literalList(call, 2, 2, FILTER_USAGE);
  },
  resolve(call, ctx) {
    const [valuesNode, listNode] = literalList(call, 2, 2, FILTER_USAGE) as [Node, Node];
    const list = resolveArg(ctx, listNode);
    if (isUnknown(list)) return UNKNOWN;
    if (!pyTruthy(list)) return list; // Heat returns empty or null input unchanged
    if (!Array.isArray(list)) return fail(call, `can only filter a list, got ${typeName(list)}`);
    const values = resolveArg(ctx, valuesNode);
    if (isUnknown(values)) return UNKNOWN;
    if (!pyTruthy(values)) return list;
    if (!Array.isArray(values))
      return fail(call, `the values to remove must be a list, got ${typeName(values)}`);
    const kept: Value[] = [];
    for (const item of list) {
      const remove = pyContains(values, item);
      if (remove === undefined) return UNKNOWN;
      if (!remove) kept.push(item);
    }
    return kept;
  },
};

const CONTAINS_USAGE = '[<value>, [<value 1>, <value 2>, ...]]';

export const contains: FunctionDef = {
  name: 'contains',
  description: 'Whether a value is in a list (or a substring of a string).',
  check(call) {
    literalList(call, 2, 2, CONTAINS_USAGE);
  },
  resolve(call, ctx) {
    const [valueNode, sequenceNode] = literalList(call, 2, 2, CONTAINS_USAGE) as [Node, Node];
    const value = resolveArg(ctx, valueNode);
    const sequence = resolveArg(ctx, sequenceNode);
    if (isUnknown(sequence)) return UNKNOWN;
    if (typeof sequence === 'string') {
      if (isUnknown(value)) return UNKNOWN;
      if (typeof value !== 'string')
        return fail(call, `can only look for a string in a string, got ${typeName(value)}`);
      return sequence.includes(value);
    }
    if (!Array.isArray(sequence))
      return fail(call, `the second argument must be a list, got ${typeName(sequence)}`);
    return pyContains(sequence, value) ?? UNKNOWN;
  },
};
