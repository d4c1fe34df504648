import { typeName } from '../../util/json.js';
import { argList, fail, resolveString } from './args.js';
import {
  type FnCall,
  type FunctionDef,
  isUnknown,
  type Node,
  type ResolveContext,
  UNKNOWN,
  type Value,
} from './types.js';

/** Follows a path of keys and indexes into a value; a step that does not exist yields `missing`. */
export function selectPath(value: Value, path: Value[], missing: Value, stringIndexes = true): Value {
  let current = value;
  for (const step of path) {
    if (isUnknown(current) || isUnknown(step)) return UNKNOWN;
    if (Array.isArray(current) || typeof current === 'string') {
      // Python sequences (lists and strings) take an integer; get_param also converts a numeric string.
      const index = typeof step === 'number' ? step : stringIndexes ? pyInt(step) : Number.NaN;
      if (!Number.isInteger(index)) return missing;
      const at = index < 0 ? current.length + index : index;
      if (at < 0 || at >= current.length) return missing;
      current = current[at]!;
    } else if (current !== null && typeof current === 'object') {
      // Keys of a map are strings: an integer step finds nothing, as a Python dict lookup would.
      if (typeof step !== 'string' || !Object.hasOwn(current, step)) return missing;
      current = (current as Record<string, Value>)[step]!;
    } else {
      return missing;
    }
  }
  return current;
}

/** Python's int() of a string path step (`' 2'`, `'1_0'`); NaN for anything else (`'0x1'`, `'1.0'`). */
function pyInt(step: Value): number {
  if (typeof step !== 'string' || !/^\s*[-+]?\d+(?:_\d+)*\s*$/.test(step)) return Number.NaN;
  return Number(step.trim().replaceAll('_', ''));
}

/** `get_param: name` or `get_param: [name, key, index, ...]`; a missing path step yields '' as in Heat. */
export const getParam: FunctionDef = {
  name: 'get_param',
  description: 'A function for resolving parameter references.',
  check(call) {
    const args = call.args;
    if (Array.isArray(args)) {
      if (args.length === 0) fail(call, 'expected a parameter name');
    } else if (typeof args !== 'string' && !(args !== null && typeof args === 'object')) {
      fail(call, `argument must be a parameter name or a list [name, path...], got ${typeName(args)}`);
    }
  },
  resolve(call, ctx) {
    const args = Array.isArray(call.args) ? call.args : [call.args];
    const name = resolveString(call, ctx, args[0] as Node, 'the parameter name');
    if (name === undefined) return UNKNOWN;
    const value = ctx.param(name, call.path);
    if (args.length === 1) return value;
    return selectPath(
      value,
      args.slice(1).map((n) => ctx.resolve(n)),
      '',
    );
  },
};

function literalName(call: FnCall, node: Node | undefined, what: string): string {
  if (typeof node !== 'string' || node === '') fail(call, `${what} must be a resource name (a string)`);
  return node;
}

/** `get_resource: name`: the reference id of another resource. */
export const getResource: FunctionDef = {
  name: 'get_resource',
  description: 'A function for resolving resource references.',
  check(call) {
    literalName(call, call.args, 'the argument');
  },
  referencedResource: (call) => call.args as string,
  resolve(call, ctx) {
    return ctx.resourceRef(call.args as string, call.path);
  },
};

export function makeGetAttr(variant: 'select' | 'path' | 'all'): FunctionDef {
  const minArgs = variant === 'all' ? 1 : 2;
  return {
    name: 'get_attr',
    description: 'A function for resolving resource attributes.',
    check(call) {
      const args = argList(call, minArgs, Number.POSITIVE_INFINITY);
      literalName(call, args[0], 'the first argument');
    },
    referencedResource: (call) => (call.args as Node[])[0] as string,
    resolve(call, ctx) {
      const [resource, attrNode, ...pathNodes] = call.args as Node[];
      const name = resource as string;
      if (attrNode === undefined) return ctx.resourceAttr(name, undefined, call.path);
      const attr = ctx.resolve(attrNode);
      if (isUnknown(attr)) return UNKNOWN;
      if (typeof attr !== 'string') fail(call, `the attribute name must be a string, got ${typeName(attr)}`);
      const path = pathNodes.map((n) => ctx.resolve(n));
      // A group's `[group, resource.<i>, attr, ...]` reads member i's attribute `attr` (Heat hands
      // the path to the resource; groups cache it as `resource.<i>.<attr>`).
      const first = path[0];
      if (variant !== 'select' && typeof first === 'string' && /^resource\.[^.]+$/.test(attr)) {
        return selectPath(ctx.resourceAttr(name, `${attr}.${first}`, call.path), path.slice(1), null, false);
      }
      return selectPath(ctx.resourceAttr(name, attr, call.path), path, null, false);
    },
  };
}

/** 2013-05-23: `[resource, attribute, path...]`, the path selected from the attribute value. */
export const getAttrThenSelect = makeGetAttr('select');
/** 2014-10-16 to 2015-04-30: the same form, the path handed to the resource. */
export const getAttr = makeGetAttr('path');
/** 2015-10-15 and later: `[resource]` alone yields every attribute as a map. */
export const getAttrAll = makeGetAttr('all');

/** The attribute a get_attr call reads (undefined: all attributes), when it is a literal. */
export function attributeOf(call: FnCall): string | undefined {
  const attr = (call.args as Node[])[1];
  return typeof attr === 'string' ? attr : undefined;
}

/** `get_file: path`: the content of a file the client sent in the files map. */
export const getFile: FunctionDef = {
  name: 'get_file',
  description: 'A function for including a file inline.',
  resolve(call, ctx) {
    const name = resolveString(call, ctx, call.args, 'the argument');
    if (name === undefined) return UNKNOWN;
    return ctx.file(name, call.path);
  },
};

const FACADE_SECTIONS = ['metadata', 'deletion_policy', 'update_policy'] as const;

/** `resource_facade: metadata|deletion_policy|update_policy`: the parent resource's section, in a nested template. */
export const resourceFacade: FunctionDef = {
  name: 'resource_facade',
  description: 'A function for retrieving data in a parent provider template.',
  check(call) {
    if (!FACADE_SECTIONS.includes(call.args as (typeof FACADE_SECTIONS)[number])) {
      fail(call, `argument must be one of ${FACADE_SECTIONS.join(', ')}`);
    }
  },
  resolve(call, ctx: ResolveContext) {
    return ctx.facade(call.args as (typeof FACADE_SECTIONS)[number], call.path);
  },
};
