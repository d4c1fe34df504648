import { getOwn, setOwn, typeName } from '../../util/json.js';
import { describeNode, fail, isMap, literalList, resolveArg, showValue } from './args.js';
import { pyInt } from './python.js';
import { checkParamsNode, joinOneList, resolveReplace } from './strings.js';
import { FnCall, type FunctionDef, isUnknown, type Node, UNKNOWN, type Value } from './types.js';
import { parseJsonText, TooDeepError } from '../depth.js';

// CloudFormation-style functions, available in HOT 2013-05-23 (Fn::Select until 2015-04-30).

const SELECT_USAGE = '[<index>, <list or map>]';

/**
 * Fn::Select: an item of a list (by integer index) or of a map (by key). A missing item, a null
 * collection or an empty string gives '' (Heat's stand-in for "not available yet"); a string
 * collection is parsed as JSON.
 */
export const fnSelect: FunctionDef = {
  name: 'Fn::Select',
  description: 'A function for selecting an item from a list or map.',
  check(call) {
    literalList(call, 2, 2, SELECT_USAGE);
  },
  resolve(call, ctx) {
    const [indexNode, collectionNode] = literalList(call, 2, 2, SELECT_USAGE) as [Node, Node];
    const index = resolveArg(ctx, indexNode);
    let collection = resolveArg(ctx, collectionNode);
    if (isUnknown(collection)) return UNKNOWN;
    if (collection === '') return '';
    if (typeof collection === 'string') {
      try {
        collection = parseJsonText(collection) as Value;
      } catch (err) {
        if (err instanceof TooDeepError) return fail(call, `the collection is a JSON string ${err.message}`);
        return fail(call, `the collection is a string but not valid JSON: ${(err as Error).message}`);
      }
    }
    if (isMap(collection)) {
      if (isUnknown(index)) return UNKNOWN;
      if (typeof index !== 'string')
        return fail(call, `the index into a map must be a string, got ${typeName(index)}`);
      const item = getOwn(collection, index);
      return item === undefined ? '' : item;
    }
    if (Array.isArray(collection)) {
      if (isUnknown(index)) return UNKNOWN;
      const position = pyInt(index);
      if (position === undefined) {
        return fail(call, `the index into a list must be an integer, got ${showValue(index)}`);
      }
      // Python indexing: negative positions count from the end.
      if (position >= collection.length || position < -collection.length) return '';
      return collection[position < 0 ? collection.length + position : position] as Value;
    }
    if (collection === null) return '';
    return fail(call, `can only select from a list or a map, got ${typeName(collection)}`);
  },
};

export const fnJoin: FunctionDef = {
  name: 'Fn::Join',
  description: 'A function for joining strings.',
  ...joinOneList,
};

const SPLIT_USAGE = '[<delimiter>, <string>]';

/** Fn::Split's delimiter is used as written: Heat does not resolve it. */
function splitArgs(call: FnCall): [string, Node] {
  const [delimiter, text] = literalList(call, 2, 2, SPLIT_USAGE) as [Node, Node];
  if (typeof delimiter !== 'string')
    fail(call, `the delimiter must be a literal string, got ${describeNode(delimiter)}`);
  if (delimiter === '') fail(call, 'the delimiter must not be empty');
  return [delimiter, text];
}

export const fnSplit: FunctionDef = {
  name: 'Fn::Split',
  description: 'A function for splitting strings.',
  check(call) {
    splitArgs(call);
  },
  resolve(call, ctx) {
    const [delimiter, textNode] = splitArgs(call);
    const text = resolveArg(ctx, textNode);
    if (isUnknown(text)) return UNKNOWN;
    if (typeof text !== 'string') return fail(call, `can only split a string, got ${typeName(text)}`);
    return text.split(delimiter);
  },
};

const REPLACE_USAGE = '[{"$var1": "foo", "%var2%": "bar"}, "$var1 is %var2%"]';

function replaceArgs(call: FnCall): [Node, Node] {
  const [params, template] = literalList(call, 2, 2, REPLACE_USAGE) as [Node, Node];
  checkParamsNode(call, params);
  return [params, template];
}

/** Fn::Replace: str_replace (as before 2015-10-15) with arguments [params, template]. */
export const fnReplace: FunctionDef = {
  name: 'Fn::Replace',
  description: 'A function for performing string substitutions.',
  check(call) {
    replaceArgs(call);
  },
  resolve(call, ctx) {
    const [params, template] = replaceArgs(call);
    return resolveReplace(call, ctx, template, params, { json: false, strict: false, allowEmpty: true });
  },
};

/** Fn::Base64 returns its string unchanged: Heat accepts user data as plain text. */
export const fnBase64: FunctionDef = {
  name: 'Fn::Base64',
  description: 'A placeholder function for converting to base64.',
  check(call) {
    const arg = call.args;
    if (!(arg instanceof FnCall) && typeof arg !== 'string')
      fail(call, `the argument must be a string, got ${typeName(arg)}`);
  },
  resolve(call, ctx) {
    const value = resolveArg(ctx, call.args);
    if (isUnknown(value) || typeof value === 'string') return value;
    return fail(call, `the argument must be a string, got ${typeName(value)}`);
  },
};

const MEMBER_LIST_USAGE = '["Name", "Value", [".member.0.Name=key", ".member.0.Value=door"]]';
/** AWS query-style member entries: `.member.<n>.<field>` (Python's `.` stops at a newline). */
const MEMBER_ENTRY = /^\.member\.([0-9]+)\.([^\n]*)/;

function memberListArgs(call: FnCall): [string, string, Node] {
  const [keyName, valueName, list] = literalList(call, 3, 3, MEMBER_LIST_USAGE) as [Node, Node, Node];
  if (typeof keyName !== 'string') fail(call, `the key name must be a string, got ${describeNode(keyName)}`);
  if (typeof valueName !== 'string')
    fail(call, `the value name must be a string, got ${describeNode(valueName)}`);
  return [keyName, valueName, list];
}

/**
 * Fn::MemberListToMap: turns `.member.<n>.<keyName>=k` / `.member.<n>.<valueName>=v` entries into
 * `{k: v}`, grouping entries by member number as Heat's AWS parameter parsing does.
 */
export const fnMemberListToMap: FunctionDef = {
  name: 'Fn::MemberListToMap',
  description: 'A function to convert lists with enumerated keys and values to mapping.',
  check(call) {
    memberListArgs(call);
  },
  resolve(call, ctx) {
    const [keyName, valueName, listNode] = memberListArgs(call);
    const list = resolveArg(ctx, listNode);
    if (isUnknown(list)) return UNKNOWN;
    // Heat iterates whatever it is given: a map's keys, a string's characters.
    let entries: Value[];
    if (Array.isArray(list)) entries = list;
    else if (isMap(list)) entries = Object.keys(list);
    else if (typeof list === 'string') entries = [...list];
    else return fail(call, `the member list must be a list, got ${typeName(list)}`);

    const fields = new Map<string, string>();
    let unknown = false;
    for (const entry of entries) {
      if (isUnknown(entry)) {
        unknown = true;
        continue;
      }
      if (typeof entry !== 'string')
        return fail(call, `member list items must be strings, got ${typeName(entry)}`);
      const equals = entry.indexOf('=');
      if (equals < 0) return fail(call, `member list item ${JSON.stringify(entry)} has no "="`);
      fields.set(entry.slice(0, equals), entry.slice(equals + 1));
    }
    if (unknown) return UNKNOWN;

    const members = new Map<number, Map<string, string>>();
    for (const [name, value] of fields) {
      const match = MEMBER_ENTRY.exec(name);
      if (!match) continue;
      const index = Number(match[1]);
      let member = members.get(index);
      if (!member) members.set(index, (member = new Map()));
      member.set(match[2]!, value);
    }
    const result: { [key: string]: Value } = {};
    for (const index of [...members.keys()].sort((a, b) => a - b)) {
      const member = members.get(index)!;
      const key = member.get(keyName);
      const value = member.get(valueName);
      if (key !== undefined && value !== undefined) setOwn(result, key, value);
    }
    return result;
  },
};

export const fnGetAZs: FunctionDef = {
  name: 'Fn::GetAZs',
  description: 'A function for retrieving the availability zones.',
  resolve(_call, ctx) {
    return ctx.availabilityZones?.() ?? UNKNOWN;
  },
};

/** Ref: a parameter's value, or else a resource's reference id. */
export const fnRef: FunctionDef = {
  name: 'Ref',
  description: 'A function for resolving parameters or resource references.',
  check(call) {
    const arg = call.args;
    if (!(arg instanceof FnCall) && typeof arg !== 'string') {
      fail(call, `the argument must be a parameter or resource name, got ${typeName(arg)}`);
    }
  },
  resolve(call, ctx) {
    const name = resolveArg(ctx, call.args);
    if (isUnknown(name)) return UNKNOWN;
    if (typeof name !== 'string')
      return fail(call, `the argument must be a parameter or resource name, got ${typeName(name)}`);
    // Heat refuses templates where a parameter and a resource share a name, so the order is moot.
    return ctx.isParameter(name) ? ctx.param(name, call.path) : ctx.resourceRef(name, call.path);
  },
  // Without a context a parameter cannot be told from a resource; the graph builder skips parameters.
  referencedResource(call) {
    return typeof call.args === 'string' ? call.args : undefined;
  },
};

const FACADE_SECTIONS = {
  Metadata: 'metadata',
  DeletionPolicy: 'deletion_policy',
  UpdatePolicy: 'update_policy',
} as const;

function facadeSection(call: FnCall): (typeof FACADE_SECTIONS)[keyof typeof FACADE_SECTIONS] {
  const arg = call.args;
  const section = typeof arg === 'string' ? getOwn(FACADE_SECTIONS, arg) : undefined;
  return section ?? fail(call, `the argument must be one of ${Object.keys(FACADE_SECTIONS).join(', ')}`);
}

export const fnResourceFacade: FunctionDef = {
  name: 'Fn::ResourceFacade',
  description: 'A function for retrieving data in a parent provider template.',
  check(call) {
    facadeSection(call);
  },
  resolve(call, ctx) {
    return ctx.facade(facadeSection(call), call.path);
  },
};
