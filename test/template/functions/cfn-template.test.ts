import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fnAnd,
  fnEquals,
  fnGetAtt,
  fnIf,
  fnNot,
  fnOr,
  fnParamRef,
  makeFindInMap,
} from '../../../src/template/functions/cfn-template.js';
import type { Node, ResolveContext } from '../../../src/template/functions/types.js';
import type { Json } from '../../../src/util/json.js';
import { assertFunctionError, assertUnknown, evaluate, fakeContext, parse, UNKNOWN } from './harness.js';

// The functions only CloudFormation-format templates have (heat/engine/cfn/functions.py).

const MAPPINGS = new Map<string, Json>([['Sizes', { dev: { len: 10, tags: ['a'] }, prod: { len: 20 } }]]);
const FNS = {
  'Fn::GetAtt': fnGetAtt,
  'Fn::FindInMap': makeFindInMap(MAPPINGS),
  Ref: fnParamRef,
  'Fn::Equals': fnEquals,
  'Fn::Not': fnNot,
  'Fn::And': fnAnd,
  'Fn::Or': fnOr,
  'Fn::If': fnIf,
};

/** A context whose condition names T and F are true and false, and any other unknown. */
function conditionContext(): ResolveContext {
  const ctx = fakeContext({ params: { env: 'dev', u: UNKNOWN } });
  ctx.condition = (node: Node) => {
    if (typeof node === 'boolean') return node;
    if (node === 'T' || node === 'F') return node === 'T';
    if (node !== null && typeof node === 'object') {
      const value = ctx.resolve(node);
      return typeof value === 'boolean' ? value : UNKNOWN;
    }
    return UNKNOWN;
  };
  return ctx;
}

const evalCondition = (raw: Json) => {
  const ctx = conditionContext();
  return ctx.resolve(parse(raw, FNS));
};

describe('Fn::GetAtt', () => {
  test('reads an attribute; takes exactly [resource, attribute]', () => {
    assert.equal(
      evaluate({ 'Fn::GetAtt': ['web', 'ip'] }, FNS, { attributes: { web: { ip: '10.0.0.1' } } }),
      '10.0.0.1',
    );
    assertUnknown(evaluate({ 'Fn::GetAtt': ['web', 'ip'] }, FNS, { attributes: { web: { ip: UNKNOWN } } }));
    for (const args of [['web'], ['web', 'ip', 0], 'web'] as Json[]) {
      assertFunctionError(
        () => parse({ 'Fn::GetAtt': args }, FNS),
        /Fn::GetAtt: Arguments to "Fn::GetAtt" must be of the form \[resource_name, attribute\]/,
      );
    }
    assert.equal(fnGetAtt.referencedResource!(parse({ 'Fn::GetAtt': ['web', 'ip'] }, FNS) as never), 'web');
  });
});

describe('Fn::FindInMap', () => {
  test('finds a value by map, key and second key, any of which may be a function', () => {
    assert.equal(evaluate({ 'Fn::FindInMap': ['Sizes', 'prod', 'len'] }, FNS), 20);
    assert.deepEqual(
      evaluate({ 'Fn::FindInMap': ['Sizes', { get_param: 'env' }, 'tags'] }, FNS, { params: { env: 'dev' } }),
      ['a'],
    );
    assertUnknown(
      evaluate({ 'Fn::FindInMap': ['Sizes', { get_param: 'env' }, 'len'] }, FNS, {
        params: { env: UNKNOWN },
      }),
    );
  });

  test('a missing map or key, or the wrong arguments, is an error', () => {
    assertFunctionError(
      () => evaluate({ 'Fn::FindInMap': ['Nope', 'a', 'b'] }, FNS),
      /the mapping "Nope" is not in the Mappings section/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::FindInMap': ['Sizes', 'test', 'len'] }, FNS),
      /the mapping "Sizes" has no key "test"/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::FindInMap': ['Sizes', 'dev', 'cpu'] }, FNS),
      /has no key "dev.cpu"/,
    );
    assertFunctionError(
      () => parse({ 'Fn::FindInMap': ['Sizes', 'dev'] }, FNS),
      /\[map_name, top_level_key, second_level_key\]/,
    );
  });
});

describe('Ref in conditions (parameters only)', () => {
  test('a parameter’s value; anything else is Heat’s InvalidTemplateReference', () => {
    assert.equal(evaluate({ Ref: 'env' }, FNS, { params: { env: 'dev' } }), 'dev');
    assertFunctionError(
      () => evaluate({ Ref: 'web' }, FNS, { resources: { web: 'id' } }),
      /Ref: The specified reference "web" \(in unknown\) is incorrect\./,
    );
  });
});

describe('condition functions', () => {
  test('Fn::Equals compares values (unknown when either side is)', () => {
    assert.equal(evalCondition({ 'Fn::Equals': [{ Ref: 'env' }, 'dev'] }), true);
    assert.equal(
      evalCondition({
        'Fn::Equals': [
          [1, { a: 2 }],
          [1, { a: 2 }],
        ],
      }),
      true,
    );
    assert.equal(evalCondition({ 'Fn::Equals': ['a', 'b'] }), false);
    assertUnknown(evalCondition({ 'Fn::Equals': [{ Ref: 'u' }, 'b'] }));
  });

  test('Fn::Not takes a one-item list', () => {
    assert.equal(evalCondition({ 'Fn::Not': ['T'] }), false);
    assert.equal(evalCondition({ 'Fn::Not': [{ 'Fn::Equals': [1, 2] }] }), true);
    assertUnknown(evalCondition({ 'Fn::Not': ['X'] }));
    for (const args of ['T', ['T', 'F'], []] as Json[]) {
      assertFunctionError(
        () => parse({ 'Fn::Not': args }, FNS),
        /Arguments to "Fn::Not" must be of the form: \[condition\]/,
      );
    }
  });

  test('Fn::And and Fn::Or: three-valued, at least two conditions', () => {
    assert.equal(evalCondition({ 'Fn::And': ['T', 'T'] }), true);
    assert.equal(evalCondition({ 'Fn::And': ['X', 'F'] }), false);
    assertUnknown(evalCondition({ 'Fn::And': ['X', 'T'] }));
    assert.equal(evalCondition({ 'Fn::Or': ['F', 'T'] }), true);
    assert.equal(evalCondition({ 'Fn::Or': ['F', 'F'] }), false);
    assertUnknown(evalCondition({ 'Fn::Or': ['X', 'F'] }));
    assertFunctionError(() => parse({ 'Fn::Or': ['T'] }, FNS), /Fn::Or: needs at least 2 conditions/);
  });

  test('Fn::If picks a branch by a condition', () => {
    assert.equal(evalCondition({ 'Fn::If': ['T', 'yes', 'no'] }), 'yes');
    assert.equal(evalCondition({ 'Fn::If': ['F', 'yes', { Ref: 'env' }] }), 'dev');
    assertUnknown(evalCondition({ 'Fn::If': ['X', 'yes', 'no'] }));
    assert.throws(
      () => parse({ 'Fn::If': ['T', 'yes'] }, FNS),
      /Fn::If: arguments must be of the form \[condition, value_if_true, value_if_false\]/,
    );
  });
});
