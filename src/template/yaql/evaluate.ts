import type { Arg, Node } from './ast.js';
import { type Budget, Fault } from './budget.js';
import { YaqlError } from './errors.js';
import { FUNCTIONS } from './functions/index.js';
import { userFunction } from './functions/system.js';
import {
  Call,
  type FunctionDef,
  type Invoke,
  type Lambda,
  type MappingArg,
  type Param,
} from './functions/types.js';
import { applyBinary, applyUnary, getAttribute, getIndex } from './operators.js';
import { NamedArgs, Scope } from './scope.js';
import { materialize } from './sequence.js';
import { truthy, typeName } from './values.js';

/** Evaluates a parsed expression with `$` bound to `data`. */
export function evaluateNode(node: Node, data: unknown, budget: Budget): unknown {
  const scope = new Scope(null, new Map([['1', data]]));
  return new Evaluator(budget).eval(node, scope);
}

class Evaluator {
  constructor(private readonly budget: Budget) {}

  eval(node: Node, scope: Scope): unknown {
    this.budget.at = node.pos;
    this.budget.spend();
    try {
      return this.evalKind(node, scope);
    } catch (error) {
      // A helper's complaint is about the operation this node applies: point at it.
      if (error instanceof Fault) throw new YaqlError(error.message, node.pos);
      throw error;
    }
  }

  private evalKind(node: Node, scope: Scope): unknown {
    switch (node.kind) {
      case 'const':
        return node.value;
      case 'keyword':
        return node.name;
      case 'var':
        return scope.get(node.name);
      case 'list':
        return node.items.map((item) => this.value(item, scope));
      case 'map':
        return new Map(node.entries.map((e) => [this.scalarKey(e.key, scope), this.value(e.value, scope)]));
      case 'attr': {
        const object = this.value(node.object, scope);
        if (object === null && node.nullSafe) return null;
        return getAttribute(object, node.name, this.budget);
      }
      case 'index':
        return this.index(node, scope);
      case 'call':
        return this.call(node, scope);
      case 'unary':
        return applyUnary(node.op, this.value(node.operand, scope));
      case 'binary':
        return this.binary(node, scope);
    }
  }

  /** A node's value with a lazy Sequence read into a list: what everything but streaming functions needs. */
  private value(node: Node, scope: Scope): unknown {
    return materialize(this.eval(node, scope));
  }

  private binary(node: Node & { kind: 'binary' }, scope: Scope): unknown {
    const left = this.eval(node.left, scope);
    switch (node.op) {
      case 'and':
        return truthy(left) ? this.eval(node.right, scope) : left;
      case 'or':
        return truthy(left) ? left : this.eval(node.right, scope);
      case '->':
        if (!(left instanceof Scope)) {
          throw new YaqlError(`"->" needs let(...) on its left, not ${typeName(left)}`, node.pos);
        }
        return this.eval(node.right, left);
      default: {
        const right = this.value(node.right, scope);
        this.budget.at = node.pos;
        return applyBinary(node.op, materialize(left), right, this.budget);
      }
    }
  }

  private index(node: Node & { kind: 'index' }, scope: Scope): unknown {
    const object = this.value(node.object, scope);
    const values: unknown[] = [];
    let hasDefault = false;
    for (const arg of node.args) {
      if (arg.name !== null) {
        if (arg.name.kind !== 'keyword' || arg.name.name !== 'default' || values.length !== 1) {
          throw new YaqlError('an index takes only a key and "default => value"', arg.pos);
        }
        hasDefault = true;
      } else if (values.length >= 2) {
        throw new YaqlError('an index takes at most a key and a default', arg.pos);
      } else {
        hasDefault = values.length === 1;
      }
      values.push(this.value(arg.value, scope));
    }
    return getIndex(object, values, hasDefault);
  }

  private scalarKey(node: Node, scope: Scope): unknown {
    const key = this.eval(node, scope);
    if (key !== null && typeof key === 'object') {
      throw new YaqlError(
        `a dict key must be a string, number, boolean or null, not ${typeName(key)}`,
        node.pos,
      );
    }
    return key;
  }

  private call(node: Node & { kind: 'call' }, scope: Scope): unknown {
    const user = userFunction(scope, node.name);
    const def = FUNCTIONS.get(node.name);
    if (user === undefined && def === undefined) {
      throw new YaqlError(`unknown function "${node.name}"`, node.pos);
    }
    let receiver: unknown[] = [];
    if (node.receiver !== null) {
      const value = this.eval(node.receiver, scope);
      if (value === null && node.nullSafe) return null;
      receiver = [value];
    }
    if (user !== undefined) return this.callUser(user, node, receiver, scope);
    const call = this.bind(def!, node, receiver, scope);
    this.budget.at = node.pos;
    return def!.fn(call);
  }

  /** A function made by def(): positional arguments are $1, $2...; named ones are $name. */
  private callUser(fn: Lambda, node: Node & { kind: 'call' }, receiver: unknown[], scope: Scope): unknown {
    const args = [...receiver.map(materialize)];
    const named = new Map<string, unknown>();
    for (const arg of node.args) {
      if (arg.omitted) throw new YaqlError(`${node.name}(): an argument cannot be skipped`, arg.pos);
      if (arg.name === null) {
        args.push(this.value(arg.value, scope));
      } else if (arg.name.kind !== 'keyword') {
        throw new YaqlError(`${node.name}(): an argument name must be a plain name`, arg.name.pos);
      } else {
        named.set(arg.name.name, this.value(arg.value, scope));
      }
    }
    this.budget.at = node.pos;
    return named.size > 0 ? fn(...args, new NamedArgs(named)) : fn(...args);
  }

  /** call(name, args, kwargs): calls a library or def() function with values instead of expressions. */
  private invoke(
    name: string,
    args: readonly unknown[],
    named: ReadonlyMap<string, unknown>,
    scope: Scope,
    pos: number,
  ): unknown {
    const user = userFunction(scope, name);
    if (user !== undefined) return named.size > 0 ? user(...args, new NamedArgs(named)) : user(...args);
    const def = FUNCTIONS.get(name);
    if (def === undefined) throw new YaqlError(`unknown function "${name}"`, pos);
    const node: Node & { kind: 'call' } = {
      kind: 'call',
      pos,
      name,
      receiver: null,
      nullSafe: false,
      args: [],
    };
    const call = this.bind(def, node, [...args], scope, named);
    this.budget.at = pos;
    return def.fn(call);
  }

  /** Matches the receiver and arguments to the function's parameters. */
  private bind(
    def: FunctionDef,
    node: Node & { kind: 'call' },
    receiver: unknown[],
    scope: Scope,
    namedValues: ReadonlyMap<string, unknown> = new Map(),
  ): Call {
    const fail = (message: string, pos: number): never => {
      throw new YaqlError(`${def.name}(): ${message}`, pos);
    };
    const args: unknown[] = new Array(def.params.length).fill(undefined);
    const rest: unknown[] = [];
    const mappings: MappingArg[] = [];
    const bindings = new Map<string, unknown>();
    const positional: { value?: unknown; node?: Node; pos: number; omitted?: boolean }[] = [
      ...receiver.map((value) => ({ value, pos: node.pos })),
      ...node.args
        .filter((a) => a.name === null)
        .map((a) => ({ node: a.value, pos: a.pos, omitted: a.omitted })),
    ];
    for (const [i, arg] of positional.entries()) {
      const param = def.params[i] ?? def.rest;
      if (!param) return fail(`takes at most ${def.params.length} argument(s)`, arg.pos);
      if (arg.omitted) {
        // A skipped argument stays "not given"; only declared parameters can be skipped.
        if (i >= def.params.length) return fail('only a declared parameter can be skipped', arg.pos);
        continue;
      }
      const value = this.argument(param, arg, scope);
      if (i < def.params.length) args[i] = value;
      else rest.push(value);
    }
    for (const arg of node.args.filter((a) => a.name !== null) as (Arg & { name: Node })[]) {
      if (def.named === 'mappings') {
        const { name, value } = arg;
        mappings.push({ key: () => this.value(name, scope), value: () => this.value(value, scope) });
        continue;
      }
      if (arg.name.kind !== 'keyword') fail('an argument name must be a plain name', arg.name.pos);
      const name = (arg.name as Node & { kind: 'keyword' }).name;
      if (def.named === 'bindings') {
        // let() keeps a bound Sequence lazy, as yaql binds the iterator itself.
        bindings.set(name, def.rest?.lazy ? this.eval(arg.value, scope) : this.value(arg.value, scope));
        continue;
      }
      const index = def.params.findIndex((p) => p.name === name);
      if (index < 0) fail(`has no parameter named "${name}"`, arg.name.pos);
      if (args[index] !== undefined) fail(`parameter "${name}" is given twice`, arg.name.pos);
      args[index] = this.argument(def.params[index]!, { node: arg.value }, scope);
    }
    for (const [name, value] of namedValues) {
      if (def.named === 'mappings') {
        mappings.push({ key: () => name, value: () => materialize(value) });
      } else if (def.named === 'bindings') {
        bindings.set(name, def.rest?.lazy ? value : materialize(value));
      } else {
        const index = def.params.findIndex((p) => p.name === name);
        if (index < 0) fail(`has no parameter named "${name}"`, node.pos);
        if (args[index] !== undefined) fail(`parameter "${name}" is given twice`, node.pos);
        args[index] = this.argument(def.params[index]!, { value }, scope);
      }
    }
    for (const [i, param] of def.params.entries()) {
      if (args[i] === undefined && !param.optional) fail(`missing argument "${param.name}"`, node.pos);
    }
    const invoke: Invoke = (name, values, named) => this.invoke(name, values, named, scope, node.pos);
    return new Call(def, this.budget, scope, args, rest, mappings, bindings, invoke);
  }

  /**
   * An argument's value, or for a lambda parameter a function evaluating it. Only parameters
   * declared lazy receive a Sequence as it is; lambda results are always read whole.
   */
  private argument(param: Param, arg: { value?: unknown; node?: Node }, scope: Scope): unknown {
    const { node } = arg;
    if (node === undefined) {
      const value = param.lazy ? arg.value : materialize(arg.value);
      return param.lambda ? () => value : value;
    }
    if (!param.lambda) return param.lazy ? this.eval(node, scope) : this.value(node, scope);
    const lambda: Lambda = (...args) => this.value(node, scope.withArgs(args));
    // def() evaluates its body in the scope it makes, so that the function can call itself.
    return Object.assign(lambda, {
      inScope:
        (inner: Scope): Lambda =>
        (...args) =>
          this.value(node, inner.withArgs(args)),
    });
  }
}
