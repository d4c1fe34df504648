import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fnBase64,
  fnGetAZs,
  fnJoin,
  fnMemberListToMap,
  fnRef,
  fnReplace,
  fnResourceFacade,
  fnSelect,
  fnSplit,
} from '../../../src/template/functions/cfn.js';
import { FnCall } from '../../../src/template/functions/types.js';
import type { Json } from '../../../src/util/json.js';
import { assertFunctionError, assertUnknown, evaluate, parse, UNKNOWN } from './harness.js';

const FNS = {
  'Fn::Select': fnSelect,
  'Fn::Join': fnJoin,
  'Fn::Split': fnSplit,
  'Fn::Replace': fnReplace,
  'Fn::Base64': fnBase64,
  'Fn::MemberListToMap': fnMemberListToMap,
  'Fn::GetAZs': fnGetAZs,
  Ref: fnRef,
  'Fn::ResourceFacade': fnResourceFacade,
};
const unknownParam = { params: { p: UNKNOWN } };
// Shell-style placeholders, spelled out so they are not mistaken for template literals.
const SHELL_VAR2 = '$' + '{var2}';
const SHELL_VAR3 = '$' + '{var3}';

describe('Fn::Select', () => {
  test('from a list, by string or integer index', () => {
    assert.equal(evaluate({ 'Fn::Select': ['1', ['foo', 'bar']] }, FNS), 'bar');
    assert.equal(evaluate({ 'Fn::Select': [1, ['foo', 'bar']] }, FNS), 'bar');
    assert.equal(evaluate({ 'Fn::Select': ['0', ['foo', 'bar']] }, FNS), 'foo');
    assert.equal(evaluate({ 'Fn::Select': [-1, ['foo', 'bar']] }, FNS), 'bar');
  });

  test('out of range, missing keys and null collections give ""', () => {
    assert.equal(evaluate({ 'Fn::Select': ['2', ['foo', 'bar']] }, FNS), '');
    assert.equal(evaluate({ 'Fn::Select': [-3, ['foo', 'bar']] }, FNS), '');
    assert.equal(evaluate({ 'Fn::Select': ['green', { red: 'robin', re: 'foo' }] }, FNS), '');
    assert.equal(evaluate({ 'Fn::Select': ['red', null] }, FNS), '');
    assert.equal(evaluate({ 'Fn::Select': ['constructor', {}] }, FNS), '');
  });

  test('from a map', () => {
    assert.equal(evaluate({ 'Fn::Select': ['red', { red: 'robin', re: 'foo' }] }, FNS), 'robin');
    assert.equal(evaluate({ 'Fn::Select': ['2', { '1': 'bar', '2': 'foo' }] }, FNS), 'foo');
    assert.equal(evaluate({ 'Fn::Select': ['n', { n: null }] }, FNS), null);
  });

  test('from serialized JSON; the empty string selects ""', () => {
    assert.equal(evaluate({ 'Fn::Select': ['re', JSON.stringify({ red: 'robin', re: 'foo' })] }, FNS), 'foo');
    assert.equal(evaluate({ 'Fn::Select': ['0', JSON.stringify(['foo', 'fee', 'fum'])] }, FNS), 'foo');
    for (const index of ['0', '1', 'one']) assert.equal(evaluate({ 'Fn::Select': [index, ''] }, FNS), '');
  });

  test('errors', () => {
    assertFunctionError(
      () => evaluate({ 'Fn::Select': ['one', ['foo', 'bar']] }, FNS),
      /Fn::Select: the index into a list must be an integer/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::Select': [1, { red: 'robin' }] }, FNS),
      /index into a map must be a string, got number/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::Select': [['f'], { f: 'food' }] }, FNS),
      /index into a map must be a string, got list/,
    );
    assertFunctionError(() => evaluate({ 'Fn::Select': ['not', 'no json'] }, FNS), /not valid JSON/);
    assertFunctionError(
      () => evaluate({ 'Fn::Select': ['0', '"just a string"'] }, FNS),
      /can only select from a list or a map, got string/,
    );
    assertFunctionError(() => evaluate({ 'Fn::Select': ['0', 5] }, FNS), /got number/);
    assertFunctionError(() => parse({ 'Fn::Select': [] }, FNS), /expected 2 arguments/);
    assertFunctionError(() => parse({ 'Fn::Select': ['4'] }, FNS), /expected 2 arguments/);
    assertFunctionError(
      () => parse({ 'Fn::Select': ['foo', { foo: 'bar' }, ''] }, FNS),
      /expected 2 arguments/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ 'Fn::Select': [0, { get_param: 'p' }] }, FNS, unknownParam));
    assertUnknown(evaluate({ 'Fn::Select': [{ get_param: 'p' }, ['a']] }, FNS, unknownParam));
    assertUnknown(evaluate({ 'Fn::Select': [0, [{ get_param: 'p' }]] }, FNS, unknownParam));
    assert.equal(evaluate({ 'Fn::Select': [{ get_param: 'p' }, null] }, FNS, unknownParam), '');
  });
});

describe('Fn::Join', () => {
  test('joins like the original list_join', () => {
    assert.equal(evaluate({ 'Fn::Join': [' ', ['foo', 'bar']] }, FNS), 'foo bar');
    assert.equal(
      evaluate({ 'Fn::Join': ['', ['#!/bin/bash\n', { Ref: 'p' }]] }, FNS, { params: { p: 'x' } }),
      '#!/bin/bash\nx',
    );
  });

  test('errors', () => {
    assertFunctionError(
      () => evaluate({ 'Fn::Join': [' ', 'foo'] }, FNS),
      /Fn::Join: can only join a list, got string/,
    );
    assertFunctionError(() => evaluate({ 'Fn::Join': [' ', { foo: 'bar' }] }, FNS), /got map/);
    for (const args of [[], [' '], [' ', { foo: 'bar' }, ''], 'o', 'oh', { foo: 'bar' }] as Json[]) {
      assertFunctionError(
        () => parse({ 'Fn::Join': args }, FNS),
        /Fn::Join: (expected 2 arguments|arguments must be a list)/,
      );
    }
  });
});

describe('Fn::Split', () => {
  test('splits by a literal delimiter', () => {
    assert.deepEqual(evaluate({ 'Fn::Split': [';', 'foo; bar; achoo'] }, FNS), ['foo', ' bar', ' achoo']);
    assert.deepEqual(evaluate({ 'Fn::Split': [';', 'foo, bar, achoo'] }, FNS), ['foo, bar, achoo']);
    assert.deepEqual(evaluate({ 'Fn::Split': [',', { Ref: 'list' }] }, FNS, { params: { list: 'a,b' } }), [
      'a',
      'b',
    ]);
  });

  test('errors', () => {
    assertFunctionError(() => parse({ 'Fn::Split': ['foo, bar, achoo'] }, FNS), /expected 2 arguments/);
    assertFunctionError(() => parse({ 'Fn::Split': 'foo, bar, achoo' }, FNS), /arguments must be a list/);
    assertFunctionError(
      () => parse({ 'Fn::Split': [{ Ref: 'd' }, 'a'] }, FNS),
      /delimiter must be a literal string, got a "Ref" call/,
    );
    assertFunctionError(() => parse({ 'Fn::Split': ['', 'a'] }, FNS), /must not be empty/);
    assertFunctionError(
      () => evaluate({ 'Fn::Split': [',', ['a']] }, FNS),
      /can only split a string, got list/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ 'Fn::Split': [',', { get_param: 'p' }] }, FNS, unknownParam));
  });
});

describe('Fn::Replace', () => {
  test('substitutes params: strings, numbers, null', () => {
    assert.equal(
      evaluate({ 'Fn::Replace': [{ $var1: 'foo', '%var2%': 'bar' }, '$var1 is %var2%'] }, FNS),
      'foo is bar',
    );
    assert.equal(
      evaluate({ 'Fn::Replace': [{ $var1: 1, '%var2%': 2 }, '$var1 is not %var2%'] }, FNS),
      '1 is not 2',
    );
    assert.equal(
      evaluate({ 'Fn::Replace': [{ $var1: 1.3, '%var2%': 2.5 }, '$var1 is not %var2%'] }, FNS),
      '1.3 is not 2.5',
    );
    assert.equal(
      evaluate({ 'Fn::Replace': [{ $var1: null, [SHELL_VAR2]: null }, `"$var1" is "${SHELL_VAR2}"`] }, FNS),
      '"" is ""',
    );
    assert.equal(
      evaluate({ 'Fn::Replace': [{ $var1: 'foo', var2: 'bar' }, `"$var1" is "${SHELL_VAR3}"`] }, FNS),
      `"foo" is "${SHELL_VAR3}"`,
    );
  });

  test('params from Ref', () => {
    const raw: Json = {
      'Fn::Replace': [{ $var1: { Ref: 'foo' }, '%var2%': { Ref: 'blarg' } }, '$var1 is %var2%'],
    };
    assert.equal(evaluate(raw, FNS, { params: { foo: 'wibble', blarg: 'quux' } }), 'wibble is quux');
  });

  test('errors', () => {
    assertFunctionError(
      () => evaluate({ 'Fn::Replace': [{ $var1: 'foo', '%var2%': ['bar'] }, '$var1 is %var2%'] }, FNS),
      /is a list/,
    );
    assertFunctionError(
      () => parse({ 'Fn::Replace': [['var1', 'foo', 'var2', 'bar'], `$var1 is ${SHELL_VAR2}`] }, FNS),
      /"params" must be a map/,
    );
    assertFunctionError(() => parse({ 'Fn::Replace': {} }, FNS), /arguments must be a list/);
    assertFunctionError(
      () => parse({ 'Fn::Replace': [['var1', 'foo', 'var2', 'bar']] }, FNS),
      /expected 2 arguments/,
    );
    assertFunctionError(
      () => parse({ 'Fn::Replace': [['var2', 'bar'], null] }, FNS),
      /"params" must be a map/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::Replace': [{ var1: 'foo' }, [`$var1 is ${SHELL_VAR2}`]] }, FNS),
      /"template" must be a string, got list/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ 'Fn::Replace': [{ a: { get_param: 'p' } }, 'a'] }, FNS, unknownParam));
  });
});

describe('Fn::Base64', () => {
  test('returns the string unchanged', () => {
    assert.equal(evaluate({ 'Fn::Base64': 'foobar' }, FNS), 'foobar');
    assert.equal(evaluate({ 'Fn::Base64': { 'Fn::Join': ['', ['a', 'b']] } }, FNS), 'ab');
  });

  test('errors and unknowns', () => {
    assertFunctionError(
      () => parse({ 'Fn::Base64': ['foobar'] }, FNS),
      /Fn::Base64: the argument must be a string, got list/,
    );
    assertFunctionError(() => parse({ 'Fn::Base64': { foo: 'bar' } }, FNS), /got map/);
    assertFunctionError(
      () => evaluate({ 'Fn::Base64': { Ref: 'n' } }, FNS, { params: { n: 5 } }),
      /got number/,
    );
    assertUnknown(evaluate({ 'Fn::Base64': { get_param: 'p' } }, FNS, unknownParam));
  });
});

describe('Fn::MemberListToMap', () => {
  test('converts member entries', () => {
    const raw: Json = {
      'Fn::MemberListToMap': [
        'Name',
        'Value',
        ['.member.0.Name=metric', '.member.0.Value=cpu', '.member.1.Name=size', '.member.1.Value=56'],
      ],
    };
    assert.deepEqual(evaluate(raw, FNS), { metric: 'cpu', size: '56' });
    const sparse: Json = {
      'Fn::MemberListToMap': [
        'Key',
        'Value',
        ['.member.2.Key=metric', '.member.2.Value=cpu', '.member.5.Key=size', '.member.5.Value=56'],
      ],
    };
    assert.deepEqual(evaluate(sparse, FNS), { metric: 'cpu', size: '56' });
  });

  test('members group by number, values may contain "=", incomplete members and other entries are skipped', () => {
    const raw: Json = {
      'Fn::MemberListToMap': [
        'Name',
        'Value',
        [
          '.member.10.Value=b=c',
          '.member.2.Name=x',
          'Other=1',
          '.member.010.Name=a',
          '.member.3.Value=orphan',
          '.member.2.Value=y',
        ],
      ],
    };
    assert.deepEqual(evaluate(raw, FNS), { x: 'y', a: 'b=c' });
  });

  test('errors', () => {
    assertFunctionError(
      () => parse({ 'Fn::MemberListToMap': ['Key', ['.member.2.Key=metric']] }, FNS),
      /Fn::MemberListToMap: expected 3 arguments/,
    );
    assertFunctionError(
      () => parse({ 'Fn::MemberListToMap': ['Key', '.member.2.Key=metric'] }, FNS),
      /expected 3 arguments/,
    );
    assertFunctionError(
      () => parse({ 'Fn::MemberListToMap': ['Name', ['Value'], []] }, FNS),
      /value name must be a string, got list/,
    );
    assertFunctionError(
      () => parse({ 'Fn::MemberListToMap': [{ Ref: 'k' }, 'Value', []] }, FNS),
      /key name must be a string/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::MemberListToMap': ['Name', 'Value', 5] }, FNS),
      /member list must be a list, got number/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::MemberListToMap': ['Name', 'Value', [1]] }, FNS),
      /items must be strings/,
    );
    assertFunctionError(
      () => evaluate({ 'Fn::MemberListToMap': ['Name', 'Value', ['no-equals']] }, FNS),
      /has no "="/,
    );
  });

  test('unknowns', () => {
    assertUnknown(
      evaluate({ 'Fn::MemberListToMap': ['Name', 'Value', { get_param: 'p' }] }, FNS, unknownParam),
    );
    assertUnknown(
      evaluate({ 'Fn::MemberListToMap': ['Name', 'Value', [{ get_param: 'p' }]] }, FNS, unknownParam),
    );
  });
});

describe('Fn::GetAZs', () => {
  test('the cloud availability zones, or unknown without a cloud', () => {
    assert.deepEqual(evaluate({ 'Fn::GetAZs': '' }, FNS, { availabilityZones: ['nova1'] }), ['nova1']);
    assertUnknown(evaluate({ 'Fn::GetAZs': 'region' }, FNS));
  });

  test('the argument is not evaluated', () => {
    assert.deepEqual(evaluate({ 'Fn::GetAZs': { explode: null } }, FNS, { availabilityZones: ['nova'] }), [
      'nova',
    ]);
  });
});

describe('Ref', () => {
  test('a parameter value or a resource reference', () => {
    const stack = { params: { size: 'm1.small' }, resources: { server: 'id-123' } };
    assert.equal(evaluate({ Ref: 'size' }, FNS, stack), 'm1.small');
    assert.equal(evaluate({ Ref: 'server' }, FNS, stack), 'id-123');
    assertUnknown(evaluate({ Ref: 'server' }, FNS, { resources: { server: UNKNOWN } }));
    assert.throws(() => evaluate({ Ref: 'missing' }, FNS, stack), /resource "missing" does not exist/);
  });

  test('the name may be computed', () => {
    assert.equal(
      evaluate({ Ref: { get_param: 'which' } }, FNS, { params: { which: 'size', size: 'big' } }),
      'big',
    );
    assertUnknown(evaluate({ Ref: { get_param: 'p' } }, FNS, unknownParam));
  });

  test('referencedResource gives the literal name', () => {
    const call = parse({ Ref: 'server' }, FNS);
    assert.ok(call instanceof FnCall);
    assert.equal(fnRef.referencedResource?.(call), 'server');
    const computed = parse({ Ref: { get_param: 'x' } }, FNS) as FnCall;
    assert.equal(fnRef.referencedResource?.(computed), undefined);
  });

  test('errors', () => {
    assertFunctionError(
      () => parse({ Ref: ['a'] }, FNS),
      /Ref: the argument must be a parameter or resource name, got list/,
    );
    assertFunctionError(() => evaluate({ Ref: { get_param: 'n' } }, FNS, { params: { n: 5 } }), /got number/);
  });
});

describe('Fn::ResourceFacade', () => {
  test('each section of the parent resource', () => {
    const facade = {
      metadata: { foo: 'bar' },
      deletion_policy: 'Retain',
      update_policy: { AutoScaling: {} },
    };
    assert.deepEqual(evaluate({ 'Fn::ResourceFacade': 'Metadata' }, FNS, { facade }), { foo: 'bar' });
    assert.equal(evaluate({ 'Fn::ResourceFacade': 'DeletionPolicy' }, FNS, { facade }), 'Retain');
    assert.deepEqual(evaluate({ 'Fn::ResourceFacade': 'UpdatePolicy' }, FNS, { facade }), {
      AutoScaling: {},
    });
  });

  test('only the CFN section names', () => {
    for (const args of ['metadata', 'Foo', 'constructor', ['Metadata'], { get_param: 'p' }] as Json[]) {
      assertFunctionError(
        () => parse({ 'Fn::ResourceFacade': args }, FNS),
        /must be one of Metadata, DeletionPolicy, UpdatePolicy/,
      );
    }
  });
});
