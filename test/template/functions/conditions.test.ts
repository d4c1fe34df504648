import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConditionEvaluator } from '../../../src/template/conditions.js';
import { TemplateError } from '../../../src/template/errors.js';
import { andFn, equals, ifFn, ifNullable, notFn, orFn } from '../../../src/template/functions/conditions.js';
import { parseNode } from '../../../src/template/functions/parse.js';
import { getParam } from '../../../src/template/functions/references.js';
import { resolveNode } from '../../../src/template/functions/resolve.js';
import {
  FnCall,
  isUnknown,
  type Node,
  OMITTED,
  type ResolveContext,
  type Unknown,
  type Value,
} from '../../../src/template/functions/types.js';
import type { DefineOptions } from '../../../src/template/stack-definition.js';
import { findVersion } from '../../../src/template/versions.js';
import type { Json } from '../../../src/util/json.js';
import { definer, errorOf, recorder } from '../support.js';
import {
  assertFunctionError,
  assertUnknown,
  type FakeStack,
  fakeContext,
  functionTable,
  parse,
  REFERENCES,
  UNKNOWN,
} from './harness.js';

const CONDITION_FNS = { get_param: getParam, equals, not: notFn, and: andFn, or: orFn };
const OLD_IF = { ...CONDITION_FNS, if: ifFn };
const NEW_IF = { ...CONDITION_FNS, if: ifNullable };

const params = { a: 'a', one: 1, u: UNKNOWN, list: [1, { k: 'v' }] };

/**
 * A fake stack whose conditions are evaluated for real: `defs` is the conditions section (raw),
 * `f`, `t` and `u` are always there (false, true and unknown).
 */
function withConditions(defs: Record<string, Json> = {}, stack: FakeStack = { params }) {
  const table = functionTable({ ...REFERENCES, ...NEW_IF });
  const all: Record<string, Json> = { t: true, f: false, u: { get_param: 'u' }, ...defs };
  const definitions = new Map<string, Node>(
    Object.entries(all).map(([name, raw]) => [name, parseNode(raw, ['conditions', name], table)]),
  );
  const base = fakeContext(stack);
  const ctx: ResolveContext = {
    ...base,
    resolve: (node) => resolveNode(node, ctx),
    condition: (node, path) => evaluator.evaluate(node, path),
  };
  const evaluator: ConditionEvaluator = new ConditionEvaluator(definitions, () => ctx);
  return { ctx, evaluator };
}

/** Resolves raw template data in value scope against a stack with real conditions. */
function run(raw: Json, defs: Record<string, Json> = {}, fns = NEW_IF, stack?: FakeStack): Value {
  const { ctx } = withConditions(defs, stack);
  return ctx.resolve(parse(raw, fns));
}

/** The value of an inline condition expression (or a condition name / boolean). */
function cond(raw: Json, defs: Record<string, Json> = {}): boolean | Unknown {
  const { evaluator } = withConditions(defs);
  const node = parseNode(raw, ['conditions', 'x'], functionTable({ ...REFERENCES, ...CONDITION_FNS }));
  return evaluator.evaluate(node, ['conditions', 'x']);
}

const define = definer('file:///t/t.yaml');

/** The properties resource `r` was validated with. */
function propertiesOf(text: string, options: DefineOptions = {}): Value {
  const seen: Value[] = [];
  define(text, { ...options, types: recorder(seen) });
  assert.equal(seen.length, 1);
  return seen[0]!;
}

describe('equals', () => {
  test('compares deeply, ignoring key order', () => {
    assert.equal(
      cond({
        equals: [
          { a: [1, { b: 2 }], c: null },
          { c: null, a: [1, { b: 2 }] },
        ],
      }),
      true,
    );
    assert.equal(
      cond({
        equals: [
          [1, 2],
          [2, 1],
        ],
      }),
      false,
    );
    assert.equal(cond({ equals: [{ a: 1 }, { a: 1, b: 2 }] }), false);
    assert.equal(cond({ equals: ['1', 1] }), false);
    assert.equal(cond({ equals: [null, null] }), true);
    assert.equal(cond({ equals: [0, false] }), false);
    assert.equal(cond({ equals: ['', null] }), false);
  });

  test('compares resolved values', () => {
    assert.equal(cond({ equals: [{ get_param: 'a' }, 'a'] }), true);
    assert.equal(cond({ equals: [{ get_param: ['list', 1] }, { k: 'v' }] }), true);
    assert.equal(cond({ equals: [{ get_param: 'one' }, '1'] }), false);
  });

  test('an unknown operand, or an unknown part of one, makes it unknown', () => {
    assertUnknown(cond({ equals: [{ get_param: 'u' }, 'a'] }) as Value);
    assertUnknown(cond({ equals: ['a', { get_param: 'u' }] }) as Value);
    assertUnknown(
      cond({
        equals: [
          [1, { get_param: 'u' }],
          [2, 3],
        ],
      }) as Value,
    );
    assertUnknown(cond({ equals: [{ k: { get_param: 'u' } }, {}] }) as Value);
  });

  test('needs a list of exactly two values', () => {
    assertFunctionError(
      () => parse({ equals: 'a' }, CONDITION_FNS),
      /^outputs\.x\.value: equals: arguments must be a list, got string$/,
    );
    assertFunctionError(() => parse({ equals: [1] }, CONDITION_FNS), /equals: expected 2 arguments, got 1$/);
    assertFunctionError(
      () => parse({ equals: [1, 2, 3] }, CONDITION_FNS),
      /equals: expected 2 arguments, got 3$/,
    );
    assertFunctionError(
      () => parse({ equals: { a: 1 } }, CONDITION_FNS),
      /arguments must be a list, got map$/,
    );
  });
});

describe('not, and, or', () => {
  test('operands may be condition names, booleans or inline functions', () => {
    assert.equal(cond({ not: 't' }), false);
    assert.equal(cond({ not: false }), true);
    assert.equal(cond({ not: { equals: [1, 2] } }), true);
    assert.equal(cond({ and: ['t', true, { equals: [1, 1] }] }), true);
    assert.equal(cond({ and: ['t', true, { not: 't' }] }), false);
    assert.equal(cond({ or: ['f', false, { equals: [1, 1] }] }), true);
    assert.equal(cond({ or: ['f', false, { not: 't' }] }), false);
    assert.equal(cond({ or: [{ and: ['t', 't'] }, 'f'] }), true);
    assert.equal(cond({ and: ['yes', 'f'] }, { yes: { equals: [{ get_param: 'a' }, 'a'] } }), false);
  });

  test('not of unknown is unknown', () => {
    assertUnknown(cond({ not: 'u' }) as Value);
    assertUnknown(cond({ not: { equals: [{ get_param: 'u' }, 1] } }) as Value);
  });

  test('and: one false settles it even when another is unknown', () => {
    assert.equal(cond({ and: ['u', 'f'] }), false);
    assert.equal(cond({ and: ['f', 'u'] }), false);
    assert.equal(cond({ and: ['t', 'u', false] }), false);
    assertUnknown(cond({ and: ['t', 'u'] }) as Value);
    assertUnknown(cond({ and: ['u', 'u'] }) as Value);
    assert.equal(cond({ and: ['t', 't'] }), true);
  });

  test('or: one true settles it even when another is unknown', () => {
    assert.equal(cond({ or: ['u', 't'] }), true);
    assert.equal(cond({ or: ['t', 'u'] }), true);
    assert.equal(cond({ or: ['f', 'u', true] }), true);
    assertUnknown(cond({ or: ['f', 'u'] }) as Value);
    assertUnknown(cond({ or: ['u', 'u'] }) as Value);
    assert.equal(cond({ or: ['f', 'f'] }), false);
  });

  test('and/or need a list of at least 2 conditions', () => {
    for (const name of ['and', 'or']) {
      assertFunctionError(
        () => parse({ [name]: 't' }, CONDITION_FNS),
        new RegExp(`^outputs\\.x\\.value: ${name}: arguments must be a list of conditions$`),
      );
      assertFunctionError(
        () => parse({ [name]: { a: 1 } }, CONDITION_FNS),
        /arguments must be a list of conditions$/,
      );
      assertFunctionError(
        () => parse({ [name]: [] }, CONDITION_FNS),
        new RegExp(`${name}: needs at least 2 conditions$`),
      );
      assertFunctionError(() => parse({ [name]: ['t'] }, CONDITION_FNS), /needs at least 2 conditions$/);
    }
  });

  test('each operand must be a name, a boolean or a condition function', () => {
    const shape = /: each operand must be a condition name, a boolean or a condition function$/;
    for (const bad of [1, null, ['t']] as Json[]) {
      assertFunctionError(() => parse({ and: ['t', bad] }, CONDITION_FNS), shape);
      assertFunctionError(() => parse({ or: [bad, 't'] }, CONDITION_FNS), shape);
      assertFunctionError(() => parse({ not: bad }, CONDITION_FNS), shape);
    }
  });

  test('an operand map that is not a function is an error when evaluated', () => {
    const err = errorOf(() => cond({ and: ['t', { a: 1, b: 2 }] }));
    assert.equal(err.kind, 'schema');
    assert.match(err.message, /a condition must be a condition name, a boolean or a condition function$/);
  });

  test('an undefined condition name is a reference error', () => {
    const err = errorOf(() => cond({ and: ['t', 'nope'] }));
    assert.equal(err.kind, 'reference');
    assert.match(err.message, /condition "nope" is not defined in the conditions section$/);
    // Like Python's all()/any(), evaluation stops at the first decisive operand.
    assert.equal(cond({ or: ['t', 'nope'] }), true);
    assert.equal(cond({ and: ['f', 'nope'] }), false);
  });

  test('a condition function yielding a non-boolean is a function error', () => {
    const err = errorOf(() => cond({ not: { get_param: 'a' } }));
    assert.equal(err.kind, 'function');
    assert.match(err.message, /a condition must evaluate to true or false, got "a"$/);
  });

  test('a condition that refers to itself is a cycle', () => {
    const err = errorOf(() => cond('x1', { x1: { not: 'x2' }, x2: { and: ['t', 'x1'] } }));
    assert.equal(err.kind, 'cycle');
    assert.match(err.message, /condition "x1" refers to itself: x1 -> x2 -> x1$/);
  });
});

describe('if', () => {
  test('picks the branch the condition selects; the other is not evaluated', () => {
    assert.equal(run({ if: ['t', 'yes', { explode: null }] }, {}, OLD_IF), 'yes');
    assert.equal(run({ if: ['f', { explode: null }, 'no'] }, {}, OLD_IF), 'no');
    assert.equal(run({ if: [true, 1, 2] }, {}, OLD_IF), 1);
    assert.deepEqual(run({ if: [{ equals: [{ get_param: 'a' }, 'a'] }, { get_param: 'list' }, null] }), [
      1,
      { k: 'v' },
    ]);
  });

  test('an unknown condition is unknown, without evaluating either branch', () => {
    assertUnknown(run({ if: ['u', { explode: null }, { explode: null }] }, {}, OLD_IF));
  });

  test('before 2021-04-16 it needs exactly 3 arguments', () => {
    const form =
      /^outputs\.x\.value: if: arguments must be of the form \[condition, value_if_true, value_if_false\]$/;
    for (const args of [['t', 1], ['t', 1, 2, 3], 't', { t: 1 }, []] as Json[]) {
      assertFunctionError(() => parse({ if: args }, OLD_IF), form);
    }
  });

  test('from 2021-04-16 it takes 2 or 3 arguments', () => {
    const form =
      /^outputs\.x\.value: if: arguments must be of the form \[condition, value_if_true\] or \[condition, value_if_true, value_if_false\]$/;
    for (const args of [['t'], ['t', 1, 2, 3], 't', null]) {
      assertFunctionError(() => parse({ if: args as Json }, NEW_IF), form);
    }
    assert.equal(run({ if: ['t', 1] }), 1);
    assert.equal(run({ if: ['f', 1, 2] }), 2);
    assert.equal(run({ if: ['f', 1] }), OMITTED);
  });

  test('a false condition without else drops the enclosing map key or list item', () => {
    assert.deepEqual(run({ a: { if: ['f', 1] }, b: { if: ['t', 2] }, c: 3 }), { b: 2, c: 3 });
    assert.deepEqual(run([1, { if: ['f', 2] }, 3, { if: ['t', 4] }]), [1, 3, 4]);
    assert.deepEqual(run({ l: [{ if: ['f', 1] }] }), { l: [] });
  });

  test('the first argument is parsed as a condition', () => {
    const version = findVersion('2016-10-14')!;
    const call = parseNode({ if: [{ equals: [1, 1] }, 'a', 'b'] }, ['x'], version.functions);
    assert.ok(call instanceof FnCall);
    const [condition, whenTrue] = call.args as Node[];
    assert.ok(condition instanceof FnCall);
    assert.equal(condition.name, 'equals');
    assert.deepEqual(condition.path, ['x', 'if', 0]);
    assert.equal(whenTrue, 'a');
    // In value scope, equals is not a function: the same map is plain data.
    const plain = parseNode({ equals: [1, 1] }, ['x'], version.functions);
    assert.ok(!(plain instanceof FnCall));
    assert.deepEqual(plain, { equals: [1, 1] });
  });

  test('value functions cannot stand in the condition argument', () => {
    const version = findVersion('2018-08-31')!;
    assert.throws(
      () => parseNode({ if: [{ get_resource: 'r' }, 'a', 'b'] }, ['x'], version.functions),
      (err: unknown) =>
        err instanceof TemplateError &&
        err.kind === 'version' &&
        err.message ===
          'x.if[0]: function "get_resource" cannot be used in a condition in heat_template_version 2018-08-31',
    );
  });

  test('liveBranches: the chosen branch when the condition is known, all when not', () => {
    for (const [fns, args] of [
      [OLD_IF, ['c', 'yes', 'no']],
      [NEW_IF, ['c', 'yes', 'no']],
    ] as const) {
      const call = parse({ if: args as unknown as Json }, fns);
      assert.ok(call instanceof FnCall && call.def.liveBranches);
      assert.deepEqual(
        call.def.liveBranches(call, () => true),
        ['yes'],
      );
      assert.deepEqual(
        call.def.liveBranches(call, () => false),
        ['no'],
      );
      assert.deepEqual(
        call.def.liveBranches(call, () => undefined),
        ['yes', 'no'],
      );
    }
    const short = parse({ if: ['c', 'yes'] }, NEW_IF) as FnCall;
    assert.deepEqual(
      short.def.liveBranches!(short, () => false),
      [],
    );
    assert.deepEqual(
      short.def.liveBranches!(short, () => undefined),
      ['yes'],
    );
    // The evaluator is asked about the condition node itself.
    const asked: Node[] = [];
    const inline = parse({ if: [{ equals: [1, 2] }, 'a', 'b'] }, NEW_IF) as FnCall;
    inline.def.liveBranches!(inline, (node) => {
      asked.push(node);
      return undefined;
    });
    assert.equal(asked.length, 1);
    assert.ok(asked[0] instanceof FnCall && asked[0].name === 'equals');
  });
});

describe('conditions through a template', () => {
  const header = `heat_template_version: 2021-04-16
parameters:
  env: {type: string, default: prod}
  free: {type: string}
conditions:
  is_prod: {equals: [{get_param: env}, prod]}
  is_dev: {not: is_prod}
  unsure: {equals: [{get_param: free}, x]}
`;

  test('condition values, three-valued', () => {
    const stack = define(`${header}  both: {and: [is_prod, unsure]}
  either: {or: [is_prod, unsure]}
  dev_and_unsure: {and: [is_dev, unsure]}
  dev_or_unsure: {or: [is_dev, unsure]}
`);
    assert.equal(stack.conditions.get('is_prod'), true);
    assert.equal(stack.conditions.get('is_dev'), false);
    assert.ok(isUnknown(stack.conditions.get('unsure')));
    assert.ok(isUnknown(stack.conditions.get('both')));
    assert.equal(stack.conditions.get('either'), true);
    assert.equal(stack.conditions.get('dev_and_unsure'), false);
    assert.ok(isUnknown(stack.conditions.get('dev_or_unsure')));
  });

  test('an inline {equals: [...]} works inside if', () => {
    const props = propertiesOf(`${header}resources:
  r:
    type: Test::Thing
    properties:
      a: {if: [{equals: [{get_param: env}, prod]}, big, small]}
      b: {if: [{and: [is_dev, {not: false}]}, first, second]}
      c: {if: [is_prod, {get_param: env}]}
`);
    assert.deepEqual(props, { a: 'big', b: 'second', c: 'prod' });
  });

  test('2021-04-16: a false condition with no else drops the map key and the list item', () => {
    const props = propertiesOf(`${header}resources:
  r:
    type: Test::Thing
    properties:
      dropped: {if: [is_dev, 1]}
      kept: {if: [is_prod, 2]}
      list: [a, {if: [is_dev, b]}, c, {if: [is_prod, d]}]
      nested: {inner: {if: [is_dev, x]}}
`);
    assert.deepEqual(props, { kept: 2, list: ['a', 'c', 'd'], nested: {} });
  });

  test('2021-04-16: an unknown condition leaves the value unknown', () => {
    const props = propertiesOf(`${header}resources:
  r:
    type: Test::Thing
    properties:
      x: {if: [unsure, 1]}
`) as Record<string, Value>;
    assertUnknown(props.x!);
  });

  test('before 2021-04-16, if with 2 arguments is positioned at the call', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2018-08-31
resources:
  r:
    type: Test::Thing
    properties:
      x: {if: [true, 1]}
`),
    );
    assert.equal(err.kind, 'function');
    assert.equal(
      err.message,
      'file:///t/t.yaml:6:7: resources.r.properties.x: if: arguments must be of the form [condition, value_if_true, value_if_false]',
    );
  });

  test('a resource named only in a dead branch is not a dependency; unknown keeps both', () => {
    const stack = define(`${header}resources:
  a: {type: Test::Thing}
  b: {type: Test::Thing}
  known:
    type: Test::Thing
    properties: {x: {if: [is_prod, {get_resource: a}, {get_resource: b}]}}
  unknown:
    type: Test::Thing
    properties: {x: {if: [unsure, {get_resource: a}, {get_resource: b}]}}
`);
    assert.deepEqual(stack.resources.get('known')!.requires, ['a']);
    assert.deepEqual([...stack.resources.get('unknown')!.requires].sort(), ['a', 'b']);
  });

  test('a resource whose condition is false is dropped; referring to it is an error', () => {
    const stack = define(`${header}resources:
  dev_only: {type: Test::Thing, condition: is_dev}
  maybe: {type: Test::Thing, condition: unsure}
`);
    assert.deepEqual([...stack.resources.keys()], ['maybe']);
    const err = errorOf(() =>
      define(`${header}resources:
  dev_only: {type: Test::Thing, condition: is_dev}
outputs:
  o: {value: {get_resource: dev_only}}
`),
    );
    assert.equal(err.kind, 'reference');
    assert.equal(
      err.message,
      'file:///t/t.yaml:12:7: outputs.o.value: resource "dev_only" is referenced here but its condition is false',
    );
  });

  test('a condition is resolved only where it is used, as in Heat', () => {
    const text = `heat_template_version: 2016-10-14
conditions:
  unused: {equals: [{get_param: undeclared}, x]}
  also_unused: {not: unused}
`;
    const stack = define(text);
    assert.equal(stack.conditions.has('unused'), false);
    assert.equal(stack.conditions.has('also_unused'), false);
    for (const use of [
      'resources:\n  r: {type: Test::Thing, condition: also_unused}\n',
      'outputs:\n  o: {value: {if: [unused, a, b]}}\n',
    ]) {
      const err = errorOf(() => define(text + use));
      assert.equal(err.kind, 'reference');
      assert.match(
        err.message,
        /^file:\/\/\/t\/t\.yaml:3:21: conditions\.unused\.equals\[0\]: the parameter "undeclared" is not defined/,
      );
    }
    // A definition of the wrong kind is refused at once (Heat's Conditions.validate).
    const wrong = errorOf(() => define('heat_template_version: 2016-10-14\nconditions:\n  c: [1]\n'));
    assert.equal(wrong.kind, 'schema');
  });

  test('get_param yielding a boolean is a condition; a string is not', () => {
    const ok = define(`heat_template_version: 2016-10-14
parameters:
  flag: {type: boolean, default: true}
conditions:
  c: {get_param: flag}
`);
    assert.equal(ok.conditions.get('c'), true);
    const err = errorOf(() =>
      define(`heat_template_version: 2016-10-14
parameters:
  s: {type: string, default: 'yes'}
conditions:
  c: {get_param: s}
outputs:
  o: {value: 1, condition: c}
`),
    );
    assert.equal(err.kind, 'function');
    assert.equal(
      err.message,
      'file:///t/t.yaml:5:3: conditions.c: a condition must evaluate to true or false, got "yes"',
    );
  });

  test('argument errors in the conditions section are positioned', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2016-10-14
conditions:
  c:
    and: [true]
`),
    );
    assert.equal(err.kind, 'function');
    assert.equal(err.message, 'file:///t/t.yaml:3:3: conditions.c: and: needs at least 2 conditions');
  });
});
