import { getOwn, type Json, typeName } from '../../util/json.js';
import { checkOperand, equals, makeBoolean, makeIf } from './conditions.js';
import { fail, resolveArg } from './args.js';
import { makeGetAttr } from './references.js';
import { FnCall, type FunctionDef, isUnknown, type Node, UNKNOWN, type Value } from './types.js';

// Functions only CloudFormation-format templates have (AWSTemplateFormatVersion 2010-09-09,
// HeatTemplateFormatVersion 2012-12-12); those HOT 2013-05-23 shares are in cfn.ts.

const getAttrThenSelect = makeGetAttr('select');

/** Fn::GetAtt: exactly `[resource, attribute]`. */
export const fnGetAtt: FunctionDef = {
  ...getAttrThenSelect,
  name: 'Fn::GetAtt',
  description: 'A function for resolving resource attributes.',
  check(call) {
    const args = call.args;
    if (!Array.isArray(args) || args.length !== 2) {
      fail(call, 'Arguments to "Fn::GetAtt" must be of the form [resource_name, attribute]');
    }
    if (typeof args[0] !== 'string' || args[0] === '') fail(call, 'the resource name must be a string');
  },
};

/** The `Mappings` section: map name -> top-level key -> second-level key -> value. */
export type Mappings = ReadonlyMap<string, Json>;

/**
 * Fn::FindInMap over one template's mappings: `[map, key, value]`, each of which may be a
 * function (a `Ref` to a parameter or to `AWS::Region`, usually).
 */
export function makeFindInMap(mappings: Mappings): FunctionDef {
  return {
    name: 'Fn::FindInMap',
    description: 'A function for resolving keys in the template mappings.',
    check(call) {
      if (!Array.isArray(call.args) || call.args.length !== 3) {
        fail(call, 'arguments must be of the form [map_name, top_level_key, second_level_key]');
      }
    },
    resolve(call, ctx) {
      const [mapNode, keyNode, valueNode] = call.args as Node[];
      const names = [resolveArg(ctx, mapNode!), resolveArg(ctx, keyNode!), resolveArg(ctx, valueNode!)];
      if (names.some(isUnknown)) return UNKNOWN;
      const [mapName, key, value] = names;
      for (const name of names) {
        if (typeof name !== 'string' && typeof name !== 'number') {
          return fail(call, `map names and keys must be strings, got ${typeName(name as Value)}`);
        }
      }
      const mapping = mappings.get(String(mapName));
      if (mapping === undefined) return fail(call, `the mapping "${mapName}" is not in the Mappings section`);
      const entry = lookup(mapping, String(key));
      if (entry === undefined) return fail(call, `the mapping "${mapName}" has no key "${key}"`);
      const found = lookup(entry, String(value));
      if (found === undefined) return fail(call, `the mapping "${mapName}" has no key "${key}.${value}"`);
      return found as Value;
    },
  };
}

function lookup(map: Json, key: string): Json | undefined {
  return map !== null && typeof map === 'object' && !Array.isArray(map) ? getOwn(map, key) : undefined;
}

/** Fn::FindInMap as listed by the template versions API; templates get their own (makeFindInMap). */
export const fnFindInMap = makeFindInMap(new Map());

/** Ref in the Conditions section: parameters only (Heat's ParamRef). */
export const fnParamRef: FunctionDef = {
  name: 'Ref',
  description: 'A function for resolving parameter references.',
  check(call) {
    if (!(call.args instanceof FnCall) && typeof call.args !== 'string') {
      fail(call, `the argument must be a parameter name, got ${typeName(call.args)}`);
    }
  },
  resolve(call, ctx) {
    const name = resolveArg(ctx, call.args);
    if (isUnknown(name)) return UNKNOWN;
    if (typeof name !== 'string' || !ctx.isParameter(name)) {
      return fail(call, `The specified reference "${String(name)}" (in unknown) is incorrect.`);
    }
    return ctx.param(name, call.path);
  },
};

export const fnEquals: FunctionDef = {
  ...equals,
  name: 'Fn::Equals',
  description: 'A function for comparing whether two values are equal.',
};

export const fnAnd = makeBoolean('and', 'A function that acts as an AND operator on conditions.', 'Fn::And');
export const fnOr = makeBoolean('or', 'A function that acts as an OR operator on conditions.', 'Fn::Or');

/** Fn::Not takes its condition in a one-item list. */
export const fnNot: FunctionDef = {
  name: 'Fn::Not',
  description: 'A function that acts as a NOT operator on a condition.',
  check(call) {
    if (!Array.isArray(call.args) || call.args.length !== 1) {
      fail(call, 'Arguments to "Fn::Not" must be of the form: [condition]');
    }
    checkOperand(call, call.args[0]!);
  },
  resolve(call, ctx) {
    const value = ctx.condition((call.args as Node[])[0]!, call.path);
    return isUnknown(value) ? UNKNOWN : !value;
  },
};

export const fnIf = makeIf(false, 'Fn::If');
