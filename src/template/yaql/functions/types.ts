import type { Budget } from '../budget.js';
import { fault } from '../budget.js';
import type { Scope } from '../scope.js';
import { Sequence } from '../sequence.js';
import { type Dict, isDict, isInteger, typeName } from '../values.js';

/** A lambda argument: the argument expression, evaluated per call with `$1`, `$2`... bound to args. */
export type Lambda = (...args: unknown[]) => unknown;

/** Calls a function by name with values (for call()): positional arguments and named ones. */
export type Invoke = (name: string, args: readonly unknown[], named: ReadonlyMap<string, unknown>) => unknown;

/** A `key => value` argument passed unevaluated, for functions such as switch() that decide what to evaluate. */
export interface MappingArg {
  key: () => unknown;
  value: () => unknown;
}

export interface Param {
  name: string;
  lambda: boolean;
  optional: boolean;
  /** Receives a lazy Sequence as it is (the function streams it) instead of a list read from it. */
  lazy: boolean;
}

export interface FunctionDef {
  name: string;
  params: readonly Param[];
  /** Extra positional arguments after `params` (e.g. concat(a, b, c...)). */
  rest: Param | null;
  /**
   * How `name => value` arguments are taken: 'params' binds them to parameters by name; 'mappings'
   * passes them unevaluated, keys included (dict, switch); 'bindings' evaluates them into a map by
   * name (let, format).
   */
  named: 'params' | 'mappings' | 'bindings';
  fn: (call: Call) => unknown;
}

/**
 * Declares a function. A parameter is written "name", "name?" when optional, "name:lambda" for a
 * lambda, "name:lazy" for a collection the function streams (see sequence.ts), and "...name" (or
 * "...name:lambda") for the rest of the positional arguments.
 */
export function define(
  name: string,
  signature: readonly string[],
  fn: (call: Call) => unknown,
  named: FunctionDef['named'] = 'params',
): FunctionDef {
  const params: Param[] = [];
  let rest: Param | null = null;
  for (const spec of signature) {
    const match = /^(\.\.\.)?(\w+)(\?)?(?::(lambda|lazy))?$/.exec(spec);
    if (!match) throw new Error(`bad parameter spec ${spec}`);
    const param = {
      name: match[2]!,
      optional: match[3] !== undefined,
      lambda: match[4] === 'lambda',
      lazy: match[4] === 'lazy',
    };
    if (match[1]) rest = param;
    else params.push(param);
  }
  return { name, params, rest, named, fn };
}

/** One invocation of a library function: its bound arguments and typed accessors for them. */
export class Call {
  constructor(
    readonly def: FunctionDef,
    readonly budget: Budget,
    readonly scope: Scope,
    /** By parameter index; undefined where an optional parameter was not given. */
    private readonly args: readonly unknown[],
    readonly rest: readonly unknown[],
    readonly mappings: readonly MappingArg[],
    readonly bindings: ReadonlyMap<string, unknown>,
    readonly invoke: Invoke,
  ) {}

  has(i: number): boolean {
    return this.args[i] !== undefined;
  }

  value(i: number): unknown {
    return this.args[i] ?? null;
  }

  /** The argument, or `fallback` when it was not given. */
  valueOr(i: number, fallback: unknown): unknown {
    return this.args[i] === undefined ? fallback : this.args[i];
  }

  /** A list argument; charges a step per item, since nearly every caller walks the whole list. */
  list(i: number): unknown[] {
    const value = this.value(i);
    if (!Array.isArray(value)) this.wrongType(i, 'a list', value);
    this.budget.spend(value.length);
    return value;
  }

  dict(i: number): Dict {
    const value = this.value(i);
    if (!isDict(value)) this.wrongType(i, 'a dict', value);
    return value;
  }

  string(i: number): string {
    const value = this.value(i);
    if (typeof value !== 'string') this.wrongType(i, 'a string', value);
    return value;
  }

  /** An optional string argument, where null also means "not given". */
  optString(i: number): string | null {
    return this.value(i) === null ? null : this.string(i);
  }

  number(i: number): number {
    const value = this.value(i);
    if (typeof value !== 'number') this.wrongType(i, 'a number', value);
    return value;
  }

  int(i: number): number {
    const value = this.value(i);
    if (!isInteger(value)) this.wrongType(i, 'an integer', value);
    return value;
  }

  intOr(i: number, fallback: number): number {
    return this.has(i) ? this.int(i) : fallback;
  }

  /**
   * A collection parameter declared lazy: a Sequence as it is, or a list (charged a step per item
   * like list()).
   */
  iterable(i: number): Iterable<unknown> {
    const value = this.value(i);
    if (value instanceof Sequence) return value;
    return this.list(i);
  }

  isSequence(i: number): boolean {
    return this.value(i) instanceof Sequence;
  }

  lambda(i: number): Lambda {
    return this.args[i] as Lambda;
  }

  optLambda(i: number): Lambda | undefined {
    return this.args[i] as Lambda | undefined;
  }

  fail(message: string): never {
    return fault(`${this.def.name}(): ${message}`);
  }

  wrongType(i: number, expected: string, value: unknown): never {
    const param = this.def.params[i]?.name ?? this.def.rest?.name ?? 'argument';
    return this.fail(`${param} must be ${expected}, not ${article(typeName(value))}`);
  }
}

function article(type: string): string {
  return type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
