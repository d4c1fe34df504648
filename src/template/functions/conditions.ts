import { jsonEqual } from '../../util/json.js';
import { TemplateError } from '../errors.js';
import { argList, fail } from './args.js';
import {
  containsUnknown,
  type FnCall,
  type FunctionDef,
  type Node,
  OMITTED,
  UNKNOWN,
  type Unknown,
} from './types.js';

/** `equals: [a, b]`: deep equality of two values. */
export const equals: FunctionDef = {
  name: 'equals',
  description: 'A function for comparing whether two values are equal.',
  check: (call) => void argList(call, 2),
  resolve(call, ctx) {
    const [a, b] = (call.args as Node[]).map((n) => ctx.resolve(n));
    if (containsUnknown(a!) || containsUnknown(b!)) return UNKNOWN;
    return jsonEqual(a, b);
  },
};

/** A condition operand: a condition name, a boolean, or an inline condition function. */
export function checkOperand(call: FnCall, node: Node): void {
  if (
    typeof node !== 'string' &&
    typeof node !== 'boolean' &&
    !(node !== null && typeof node === 'object' && !Array.isArray(node))
  ) {
    fail(call, 'each operand must be a condition name, a boolean or a condition function');
  }
}

/** `and`/`or` (or CFN's `Fn::And`/`Fn::Or`, named by `name`): `decisive` is what `or` stops at. */
export function makeBoolean(
  operator: 'and' | 'or',
  description: string,
  name: string = operator,
): FunctionDef {
  // Three-valued: a decisive operand settles the result even when others are unknown.
  const decisive = operator === 'or';
  return {
    name,
    description,
    check(call) {
      if (!Array.isArray(call.args)) fail(call, 'arguments must be a list of conditions');
      if (call.args.length < 2) fail(call, 'needs at least 2 conditions');
      for (const operand of call.args) checkOperand(call, operand);
    },
    resolve(call, ctx) {
      let unknown = false;
      for (const operand of call.args as Node[]) {
        const value = ctx.condition(operand, call.path);
        if (value === UNKNOWN) unknown = true;
        else if (value === decisive) return decisive;
      }
      return unknown ? UNKNOWN : !decisive;
    },
  };
}

export const andFn = makeBoolean('and', 'A function that acts as an AND operator on conditions.');
export const orFn = makeBoolean('or', 'A function that acts as an OR operator on conditions.');

export const notFn: FunctionDef = {
  name: 'not',
  description: 'A function that acts as a NOT operator on a condition.',
  check: (call) => checkOperand(call, call.args),
  resolve(call, ctx) {
    const value = ctx.condition(call.args, call.path);
    return value === UNKNOWN ? UNKNOWN : !(value as boolean | Unknown);
  },
};

/** `if` (or CFN's `Fn::If`, named by `name`); `nullable`: the false branch may be omitted. */
export function makeIf(nullable: boolean, name = 'if'): FunctionDef {
  return {
    name,
    description: 'A function to return corresponding value based on condition evaluation.',
    parseArgs(raw, path, parse) {
      if (!Array.isArray(raw) || raw.length < (nullable ? 2 : 3) || raw.length > 3) {
        const form = nullable
          ? '[condition, value_if_true] or [condition, value_if_true, value_if_false]'
          : '[condition, value_if_true, value_if_false]';
        throw new TemplateError(
          'function',
          `${name}: arguments must be of the form ${form}`,
          path.slice(0, -1),
        );
      }
      return [
        parse.condition(raw[0], [...path, 0]),
        ...raw.slice(1).map((item, i) => parse.value(item, [...path, i + 1])),
      ];
    },
    resolve(call, ctx) {
      const [condition, whenTrue, whenFalse] = call.args as Node[];
      const value = ctx.condition(condition!, call.path);
      if (value === UNKNOWN) return UNKNOWN;
      if (value) return ctx.resolve(whenTrue!);
      return whenFalse === undefined ? OMITTED : ctx.resolve(whenFalse);
    },
    liveBranches(call, evalCondition) {
      const [condition, ...branches] = call.args as Node[];
      const value = evalCondition(condition!);
      if (value === undefined) return branches;
      const chosen = value ? branches[0] : branches[1];
      return chosen === undefined ? [] : [chosen];
    },
  };
}

export const ifFn = makeIf(false);
/** 2021-04-16: the false branch may be omitted; a false condition then drops the enclosing item. */
export const ifNullable = makeIf(true);
