// A stand-in stack for testing intrinsic functions on their own: parameters, resources and
// attributes come from plain maps, and the function table is built from the definitions a test
// names, so these tests depend neither on versions.ts nor on the catalogue.
import assert from 'node:assert/strict';
import { type DocPath, TemplateError } from '../../../src/template/errors.js';
import { fail } from '../../../src/template/functions/args.js';
import { type FunctionTable, parseNode } from '../../../src/template/functions/parse.js';
import { resolveNode } from '../../../src/template/functions/resolve.js';
import {
  type FunctionDef,
  isUnknown,
  type Node,
  OMITTED,
  type ResolveContext,
  UNKNOWN,
  type Value,
} from '../../../src/template/functions/types.js';
import { getOwn, type Json } from '../../../src/util/json.js';

export { UNKNOWN };

export interface FakeStack {
  /** Declared parameters and their values (UNKNOWN for a value not known yet). */
  params?: Record<string, Value>;
  /** Resources and their reference ids (UNKNOWN before they exist). */
  resources?: Record<string, Value>;
  /** Resource attributes by resource, then attribute name. */
  attributes?: Record<string, Record<string, Value>>;
  facade?: Partial<Record<'metadata' | 'deletion_policy' | 'update_policy', Value>>;
  /** Omit to leave Fn::GetAZs without a cloud to ask. */
  availabilityZones?: Value;
}

export function fakeContext(stack: FakeStack = {}): ResolveContext {
  const params = stack.params ?? {};
  const resources = stack.resources ?? {};
  const attributes = stack.attributes ?? {};
  const missing = (what: string, name: string, path: DocPath): never => {
    throw new TemplateError('reference', `${what} "${name}" does not exist`, path);
  };
  // Null is a value here, so lookups test for presence rather than using `??`.
  const lookup = <T>(map: Record<string, T>, name: string, what: string, path: DocPath): T =>
    Object.hasOwn(map, name) ? (map[name] as T) : missing(what, name, path);
  const ctx: ResolveContext = {
    resolve: (node) => resolveNode(node, ctx),
    param: (name, path) => lookup(params, name, 'parameter', path),
    isParameter: (name) => Object.hasOwn(params, name),
    resourceRef: (name, path) => lookup(resources, name, 'resource', path),
    resourceAttr(name, attr, path) {
      const attrs = lookup(attributes, name, 'resource', path);
      if (attr === undefined) return attrs;
      return lookup(attrs, attr, 'attribute', path);
    },
    file: (name, path) => missing('file', name, path),
    condition: () => UNKNOWN,
    facade: (section) => stack.facade?.[section] ?? null,
    yaql: () => UNKNOWN,
  };
  if (Object.hasOwn(stack, 'availabilityZones'))
    ctx.availabilityZones = () => stack.availabilityZones as Value;
  return ctx;
}

/** Minimal reference functions, so tests can feed known and unknown values into the functions under test. */
export const REFERENCES: Record<string, FunctionDef> = {
  get_param: {
    name: 'get_param',
    description: 'test double',
    resolve: (call, ctx) => ctx.param(call.args as string, call.path),
  },
  get_resource: {
    name: 'get_resource',
    description: 'test double',
    resolve: (call, ctx) => ctx.resourceRef(call.args as string, call.path),
    referencedResource: (call) => call.args as string,
  },
  get_attr: {
    name: 'get_attr',
    description: 'test double',
    resolve(call, ctx) {
      const [name, attr] = call.args as [string, string];
      return ctx.resourceAttr(name, attr, call.path);
    },
  },
  /** What a 2021-04-16 `if` without a false branch yields when its condition is false. */
  omit: { name: 'omit', description: 'test double', resolve: () => OMITTED },
  /** Fails if ever resolved: proves an argument is not evaluated. */
  explode: {
    name: 'explode',
    description: 'test double',
    resolve: (call) => fail(call, 'must not be resolved'),
  },
};

export function functionTable(functions: Record<string, FunctionDef>): FunctionTable {
  return { lookup: (name) => getOwn(functions, name), unavailable: () => undefined };
}

/** Parses raw template data with the given functions (plus the reference doubles). */
export function parse(
  raw: Json,
  functions: Record<string, FunctionDef>,
  path: DocPath = ['outputs', 'x', 'value'],
): Node {
  return parseNode(raw, path, functionTable({ ...REFERENCES, ...functions }));
}

/** Parses and resolves raw template data against a fake stack. */
export function evaluate(raw: Json, functions: Record<string, FunctionDef>, stack: FakeStack = {}): Value {
  return fakeContext(stack).resolve(parse(raw, functions));
}

/** Asserts that `run` throws a function error whose message matches `pattern`. */
export function assertFunctionError(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof TemplateError, `expected a TemplateError, got ${String(err)}`);
    assert.equal(err.kind, 'function', err.message);
    assert.match(err.message, pattern);
    return true;
  });
}

export function assertUnknown(value: Value): void {
  assert.ok(isUnknown(value), `expected UNKNOWN, got ${JSON.stringify(value)}`);
}
