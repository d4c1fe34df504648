import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compareCodePoints,
  pyInt,
  pyJsonDumpsSorted,
  pyNumber,
  pyRepr,
} from '../../../src/template/functions/python.js';
import {
  digest,
  listJoin,
  listJoinMulti,
  strReplace,
  strReplaceJson,
  strReplaceStrict,
  strReplaceVstrict,
  strSplit,
} from '../../../src/template/functions/strings.js';
import type { Json } from '../../../src/util/json.js';
import { assertFunctionError, assertUnknown, evaluate, parse, UNKNOWN } from './harness.js';

const OLD = { list_join: listJoin, str_replace: strReplace };
const NEW = {
  list_join: listJoinMulti,
  str_replace: strReplaceJson,
  str_replace_strict: strReplaceStrict,
  str_replace_vstrict: strReplaceVstrict,
  str_split: strSplit,
  digest,
};
const unknownParam = { params: { p: UNKNOWN } };

describe('Python compatibility helpers', () => {
  test('pyNumber formats as Python str() does', () => {
    assert.equal(pyNumber(1), '1');
    assert.equal(pyNumber(-42), '-42');
    assert.equal(pyNumber(0.1), '0.1');
    assert.equal(pyNumber(123.456), '123.456');
    assert.equal(pyNumber(1.5e-5), '1.5e-05');
    assert.equal(pyNumber(-2.5e-7), '-2.5e-07');
    assert.equal(pyNumber(1e16), '1e+16');
    assert.equal(pyNumber(1.5e20), '1.5e+20');
  });

  test('pyRepr', () => {
    assert.equal(pyRepr(null), 'None');
    assert.equal(pyRepr([true, 'a', { k: "it's" }]), `[True, 'a', {'k': "it's"}]`);
    assert.equal(pyRepr('a\nb\\'), "'a\\nb\\\\'");
  });

  test('pyInt accepts what Python int() accepts', () => {
    assert.equal(pyInt('1'), 1);
    assert.equal(pyInt(' -3 '), -3);
    assert.equal(pyInt('+1_0'), 10);
    assert.equal(pyInt(2.9), 2);
    assert.equal(pyInt(true), 1);
    assert.equal(pyInt('1.5'), undefined);
    assert.equal(pyInt(''), undefined);
    assert.equal(pyInt(null), undefined);
    assert.equal(pyInt([1]), undefined);
  });

  test('pyJsonDumpsSorted sorts keys by code point, integer-like keys included', () => {
    const value = { b: [1, { z: null, a: true }], '10': 'x', '9': 1.5, é: 'ü' };
    assert.equal(
      pyJsonDumpsSorted(value),
      '{"10": "x", "9": 1.5, "b": [1, {"a": true, "z": null}], "\\u00e9": "\\u00fc"}',
    );
  });

  test('compareCodePoints orders astral characters after the BMP, as Python does', () => {
    assert.ok(compareCodePoints('\u{1F600}', '\uFFFF') > 0);
    assert.ok(compareCodePoints('a', 'ab') < 0);
    assert.equal(compareCodePoints('x\u{1F600}', 'x\u{1F600}'), 0);
  });
});

describe('list_join (before 2015-10-15)', () => {
  test('hot_spec example', () => {
    assert.equal(evaluate({ list_join: [', ', ['one', 'two', 'and three']] }, OLD), 'one, two, and three');
  });

  test('empty and null lists join to the empty string; null items are empty', () => {
    assert.equal(evaluate({ list_join: [',', []] }, OLD), '');
    assert.equal(evaluate({ list_join: [',', null] }, OLD), '');
    assert.equal(evaluate({ list_join: [',', ['a', null, 'b']] }, OLD), 'a,,b');
  });

  test('items must be strings', () => {
    assertFunctionError(
      () => evaluate({ list_join: [',', [{ foo: 'json' }]] }, OLD),
      /list_join: items to join must be strings/,
    );
    assertFunctionError(() => evaluate({ list_join: [',', [1]] }, OLD), /must be strings, got number 1/);
  });

  test('the list must be a list and the delimiter a string', () => {
    assertFunctionError(() => evaluate({ list_join: [',', 'abc'] }, OLD), /can only join a list, got string/);
    assertFunctionError(() => evaluate({ list_join: [',', { a: 'b' }] }, OLD), /got map/);
    assertFunctionError(
      () => evaluate({ list_join: [1, ['a']] }, OLD),
      /delimiter must be a string, got number/,
    );
  });

  test('argument shape is checked when parsed', () => {
    assertFunctionError(() => parse({ list_join: 'bad' }, OLD), /list_join: arguments must be a list/);
    assertFunctionError(() => parse({ list_join: 5 }, OLD), /arguments must be a list/);
    assertFunctionError(() => parse({ list_join: [','] }, OLD), /expected 2 arguments/);
    assertFunctionError(() => parse({ list_join: [',', ['a'], ['b']] }, OLD), /expected 2 arguments/);
    assertFunctionError(() => parse({ list_join: { get_param: 'p' } }, OLD), /got a "get_param" call/);
  });

  test('the error names the path', () => {
    assertFunctionError(() => evaluate({ list_join: [1, []] }, OLD), /^outputs\.x\.value: list_join: /);
  });

  test('unknown inputs make the result unknown', () => {
    assertUnknown(evaluate({ list_join: [',', { get_param: 'p' }] }, OLD, unknownParam));
    assertUnknown(evaluate({ list_join: [{ get_param: 'p' }, ['a']] }, OLD, unknownParam));
    assertUnknown(evaluate({ list_join: [',', ['a', { get_param: 'p' }]] }, OLD, unknownParam));
  });

  test('known errors are still reported next to unknowns', () => {
    assertFunctionError(
      () => evaluate({ list_join: [{ get_param: 'p' }, 'x'] }, OLD, unknownParam),
      /can only join a list/,
    );
    assertFunctionError(
      () => evaluate({ list_join: [',', [{ get_param: 'p' }, 3]] }, OLD, unknownParam),
      /must be strings/,
    );
  });
});

describe('list_join (2015-10-15 and later)', () => {
  test('hot_spec example with several lists', () => {
    assert.equal(
      evaluate({ list_join: [', ', ['one', 'two'], ['three', 'four']] }, NEW),
      'one, two, three, four',
    );
  });

  test('lists and maps are joined as sorted JSON', () => {
    assert.equal(
      evaluate({ list_join: [',', [{ foo: 'json' }, { foo2: 'json2' }]] }, NEW),
      '{"foo": "json"},{"foo2": "json2"}',
    );
    assert.equal(
      evaluate({ list_join: [' ', [['a', 1], { b: 2, a: [true, null] }]] }, NEW),
      '["a", 1] {"a": [true, null], "b": 2}',
    );
  });

  test('null lists and null items', () => {
    assert.equal(evaluate({ list_join: [',', ['a'], null, ['b', null]] }, NEW), 'a,b,');
    assert.equal(evaluate({ list_join: [',', []] }, NEW), '');
  });

  test('numbers and booleans are not joined (as in Heat)', () => {
    assertFunctionError(
      () => evaluate({ list_join: [',', [1]] }, NEW),
      /must be strings, lists or maps, got number 1/,
    );
    assertFunctionError(() => evaluate({ list_join: [',', [true]] }, NEW), /got boolean true/);
  });

  test('each list must be a list', () => {
    assertFunctionError(
      () => evaluate({ list_join: [',', 'bad', ['foo']] }, NEW),
      /can only join lists, got string/,
    );
  });

  test('argument shape', () => {
    assertFunctionError(() => parse({ list_join: [','] }, NEW), /expected at least 2 arguments/);
    assertFunctionError(() => parse({ list_join: 'bad' }, NEW), /must be a list/);
  });

  test('omitted lists drop out', () => {
    assert.equal(evaluate({ list_join: [',', ['a'], { omit: null }, ['b']] }, NEW), 'a,b');
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ list_join: [',', ['a'], { get_param: 'p' }] }, NEW, unknownParam));
    assertUnknown(evaluate({ list_join: [',', [{ k: { get_param: 'p' } }]] }, NEW, unknownParam));
    assertUnknown(evaluate({ list_join: [{ get_param: 'p' }, ['a']] }, NEW, unknownParam));
    assertFunctionError(
      () => evaluate({ list_join: [',', { get_param: 'p' }, 'x'] }, NEW, unknownParam),
      /lists/,
    );
  });
});

describe('str_replace (before 2015-10-15)', () => {
  test('hot_spec example', () => {
    const raw: Json = {
      str_replace: {
        template: 'http://host/MyApplication',
        params: { host: { get_attr: ['my_instance', 'first_address'] } },
      },
    };
    assert.equal(
      evaluate(raw, OLD, { attributes: { my_instance: { first_address: '10.0.0.1' } } }),
      'http://10.0.0.1/MyApplication',
    );
  });

  test('numbers, booleans and null are substituted as Python str() writes them', () => {
    const raw: Json = {
      str_replace: { template: 'a b c d e', params: { a: 1, b: 2.5, c: true, d: null, e: 1e-5 } },
    };
    assert.equal(evaluate(raw, OLD), '1 2.5 True  1e-05');
  });

  test('lists and maps are errors', () => {
    assertFunctionError(
      () => evaluate({ str_replace: { template: 'jsonvar1', params: { jsonvar1: { foo: 123 } } } }, OLD),
      /params must be strings or numbers; param "jsonvar1" is a map/,
    );
    assertFunctionError(
      () => evaluate({ str_replace: { template: 'v', params: { v: ['foo', 123] } } }, OLD),
      /is a list/,
    );
  });

  test('longest keys first; ties in lexical order', () => {
    const params = {
      '1': 'a',
      '12': 'b',
      '123': 'c',
      '1234': 'd',
      '12345': 'e',
      '123456': 'f',
      '1234567': 'g',
    };
    assert.equal(evaluate({ str_replace: { template: '1234567890', params } }, OLD), 'g890');
    const tie = { '987654': 'a', '876543': 'b', '765432': 'c', '654321': 'd', '543210': 'e' };
    assert.equal(evaluate({ str_replace: { template: '9876543210', params: tie } }, OLD), '9876e');
  });

  test('replaced text is not searched again', () => {
    const params = { '1': 'a', '4': 'd', '8': 'h', '9': 'i', '123': '1', '456': '4', '890': '8', '90': '9' };
    assert.equal(evaluate({ str_replace: { template: '1234567890', params } }, OLD), '1478');
  });

  test('params missing from the template are fine', () => {
    const raw: Json = {
      str_replace: {
        template: 'Template var1 string var2',
        params: { var1: 'foo', var2: 'bar', var3: 'zed' },
      },
    };
    assert.equal(evaluate(raw, OLD), 'Template foo string bar');
  });

  test('replacement text containing $ patterns is literal', () => {
    assert.equal(evaluate({ str_replace: { template: 'x', params: { x: "$& $' $$" } } }, OLD), "$& $' $$");
  });

  test('argument errors when parsed', () => {
    assertFunctionError(
      () => parse({ str_replace: [{ template: 't' }, { params: {} }] }, OLD),
      /must be a map/,
    );
    assertFunctionError(
      () => parse({ str_replace: { tmpl: 't', params: {} } }, OLD),
      /must have "template" and "params"/,
    );
    assertFunctionError(
      () => parse({ str_replace: { template: 't', parms: {} } }, OLD),
      /must have "template" and "params"/,
    );
    assertFunctionError(
      () => parse({ str_replace: { template: 't', params: ['var1', 'foo'] } }, OLD),
      /"params" must be a map, got list/,
    );
    // Other keys are ignored, as Heat does.
    assert.equal(evaluate({ str_replace: { template: 'a', params: { a: 'b' }, extra: 1 } }, OLD), 'b');
  });

  test('value errors when resolved', () => {
    assertFunctionError(
      () => evaluate({ str_replace: { template: 12345, params: { a: 'b' } } }, OLD),
      /"template" must be a string, got number/,
    );
    assertFunctionError(
      () =>
        evaluate({ str_replace: { template: 'a', params: { get_param: 'list' } } }, OLD, {
          params: { list: ['a'] },
        }),
      /"params" must be a map, got list/,
    );
    assertFunctionError(
      () => evaluate({ str_replace: { template: 'a', params: { '': 'x' } } }, OLD),
      /must not be empty/,
    );
  });

  test('unknowns', () => {
    assertUnknown(
      evaluate({ str_replace: { template: { get_param: 'p' }, params: { a: 'b' } } }, OLD, unknownParam),
    );
    assertUnknown(
      evaluate({ str_replace: { template: 'x', params: { get_param: 'p' } } }, OLD, unknownParam),
    );
    assertUnknown(
      evaluate({ str_replace: { template: 'a', params: { a: { get_param: 'p' } } } }, OLD, unknownParam),
    );
    // An unknown value whose key does not occur does not matter.
    assert.equal(
      evaluate(
        { str_replace: { template: 'a', params: { a: 'b', z: { get_param: 'p' } } } },
        OLD,
        unknownParam,
      ),
      'b',
    );
    // A bad value is an error even when the template is not known.
    assertFunctionError(
      () =>
        evaluate({ str_replace: { template: { get_param: 'p' }, params: { a: ['x'] } } }, OLD, unknownParam),
      /is a list/,
    );
  });
});

describe('str_replace (2015-10-15 and later)', () => {
  test('hot_spec example: an init script', () => {
    const raw: Json = {
      str_replace: {
        template: '#!/bin/bash\nmysqladmin -u root password $db_rootpassword\n',
        params: { $db_rootpassword: { get_param: 'DBRootPassword' } },
      },
    };
    assert.equal(
      evaluate(raw, NEW, { params: { DBRootPassword: 's3cret' } }),
      '#!/bin/bash\nmysqladmin -u root password s3cret\n',
    );
  });

  test('lists and maps are substituted as sorted JSON', () => {
    assert.equal(
      evaluate({ str_replace: { template: 'jsonvar1', params: { jsonvar1: { foo: 123 } } } }, NEW),
      '{"foo": 123}',
    );
    assert.equal(
      evaluate({ str_replace: { template: 'listvar1', params: { listvar1: ['foo', 123] } } }, NEW),
      '["foo", 123]',
    );
    assert.equal(
      evaluate({ str_replace: { template: 'm', params: { m: { b: 1, a: 2 } } } }, NEW),
      '{"a": 2, "b": 1}',
    );
  });

  test('null and empty values are allowed', () => {
    assert.equal(
      evaluate({ str_replace: { template: '[a][b][c]', params: { a: null, b: '', c: [] } } }, NEW),
      '[][][[]]',
    );
  });

  test('a list with unknown items is unknown once substituted', () => {
    assertUnknown(
      evaluate(
        { str_replace: { template: 'l', params: { l: ['x', { get_param: 'p' }] } } },
        NEW,
        unknownParam,
      ),
    );
  });
});

describe('str_replace_strict', () => {
  test('every param must occur', () => {
    const raw: Json = {
      str_replace_strict: {
        template: 'Template var1 var1 s var2 t varvarvar3',
        params: { var1: 'foo', var2: 'bar', var3: 'zed', var: 'tricky ' },
      },
    };
    assert.equal(evaluate(raw, NEW), 'Template foo foo s bar t tricky tricky zed');
  });

  test('missing params are listed longest first', () => {
    assertFunctionError(
      () =>
        evaluate(
          {
            str_replace_strict: {
              template: 'Template var1 string var2',
              params: { var1: 'foo', var2: 'bar', var3: 'zed' },
            },
          },
          NEW,
        ),
      /str_replace_strict: params not found in the template: var3$/,
    );
    // "var" only occurs inside var1/var2, which are replaced first.
    const params = { var1: 'foo', var2: 'bar', var0: 'zed', var: 'z', longvarname: 'q' };
    assertFunctionError(
      () => evaluate({ str_replace_strict: { template: 'Template var1 string var2', params } }, NEW),
      /not found in the template: longvarname,var0,var$/,
    );
  });

  test('empty values are fine', () => {
    assert.equal(
      evaluate(
        { str_replace_strict: { template: 'Template var1 string var2', params: { var1: 'foo', var2: '' } } },
        NEW,
      ),
      'Template foo string ',
    );
  });

  test('a missing param is reported even when values are unknown', () => {
    assertFunctionError(
      () =>
        evaluate(
          { str_replace_strict: { template: 'a', params: { a: { get_param: 'p' }, b: 'x' } } },
          NEW,
          unknownParam,
        ),
      /not found in the template: b/,
    );
    assertUnknown(
      evaluate(
        { str_replace_strict: { template: 'a', params: { a: { get_param: 'p' } } } },
        NEW,
        unknownParam,
      ),
    );
    assertUnknown(
      evaluate(
        { str_replace_strict: { template: { get_param: 'p' }, params: { a: 'x' } } },
        NEW,
        unknownParam,
      ),
    );
  });

  test('the template and params keys are required', () => {
    assertFunctionError(
      () => parse({ str_replace_strict: { t: 'x', params: {} } }, NEW),
      /str_replace_strict: arguments must have/,
    );
  });
});

describe('str_replace_vstrict', () => {
  test('null or empty values are errors', () => {
    for (const value of [null, '', {}, []] as Json[]) {
      assertFunctionError(
        () =>
          evaluate(
            {
              str_replace_vstrict: {
                template: 'Template var1 string var2',
                params: { var1: 'foo', var2: value },
              },
            },
            NEW,
          ),
        /str_replace_vstrict: param "var2" has an undefined or empty value/,
      );
    }
  });

  test('also strict', () => {
    assertFunctionError(
      () => evaluate({ str_replace_vstrict: { template: 'a', params: { a: 'x', b: 'y' } } }, NEW),
      /not found in the template: b/,
    );
  });

  test('non-empty values pass', () => {
    assert.equal(
      evaluate({ str_replace_vstrict: { template: 'a-b', params: { a: 0, b: false } } }, NEW),
      '0-False',
    );
  });
});

describe('str_split', () => {
  test('hot_spec examples', () => {
    assert.deepEqual(evaluate({ str_split: [',', 'string,to,split'] }, NEW), ['string', 'to', 'split']);
    assert.equal(evaluate({ str_split: [',', 'string,to,split', 0] }, NEW), 'string');
  });

  test('index as a string, negative index, index out of range', () => {
    assert.equal(evaluate({ str_split: [',', 'bar,baz', '1'] }, NEW), 'baz');
    assert.equal(evaluate({ str_split: [',', 'bar,baz', -1] }, NEW), 'baz');
    assertFunctionError(
      () => evaluate({ str_split: [',', 'bar,baz', '2'] }, NEW),
      /index 2 is out of range; it must be between 0 and 1/,
    );
    assertFunctionError(() => evaluate({ str_split: [',', 'bar,baz', -3] }, NEW), /out of range/);
    assertFunctionError(
      () => evaluate({ str_split: [',', 'bar,baz', 'bad'] }, NEW),
      /index must be an integer/,
    );
    assertFunctionError(
      () => evaluate({ str_split: [',', 'bar,baz', null] }, NEW),
      /index must be an integer/,
    );
  });

  test('a null string splits to null; a null delimiter splits on whitespace', () => {
    assert.equal(evaluate({ str_split: ['.', null] }, NEW), null);
    assert.deepEqual(evaluate({ str_split: [null, 'check'] }, NEW), ['check']);
    assert.deepEqual(evaluate({ str_split: [null, ' a b\t\nc  '] }, NEW), ['a', 'b', 'c']);
  });

  test('bad arguments', () => {
    assertFunctionError(() => parse({ str_split: [','] }, NEW), /expected at least 2 arguments/);
    assertFunctionError(() => parse({ str_split: [] }, NEW), /expected at least 2 arguments/);
    assertFunctionError(() => parse({ str_split: 'a,b' }, NEW), /must be a list/);
    assertFunctionError(() => parse({ str_split: { a: 'b' } }, NEW), /must be a list/);
    assertFunctionError(() => evaluate({ str_split: [',', 5] }, NEW), /can only split a string, got number/);
    assertFunctionError(() => evaluate({ str_split: ['', 'abc'] }, NEW), /delimiter must not be empty/);
    assertFunctionError(() => evaluate({ str_split: [1, 'abc'] }, NEW), /delimiter must be a string/);
    assertFunctionError(
      () => evaluate({ str_split: { get_param: 'args' } }, NEW, { params: { args: [','] } }),
      /must be a list of the form/,
    );
  });

  test('the whole argument list may come from a function', () => {
    assert.deepEqual(
      evaluate({ str_split: { get_param: 'args' } }, NEW, { params: { args: [',', 'a,b'] } }),
      ['a', 'b'],
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ str_split: [',', { get_param: 'p' }] }, NEW, unknownParam));
    assertUnknown(evaluate({ str_split: [{ get_param: 'p' }, 'a,b'] }, NEW, unknownParam));
    assertUnknown(evaluate({ str_split: [',', 'a,b', { get_param: 'p' }] }, NEW, unknownParam));
    assertUnknown(evaluate({ str_split: { get_param: 'p' } }, NEW, unknownParam));
  });
});

describe('digest', () => {
  const expected: Record<string, string> = {
    md5: '3858f62230ac3c915f300c664312c63f',
    sha1: '8843d7f92416211de9ebb963ff4ce28125932878',
    sha224: 'de76c3e567fca9d246f5f8d3b2e704a38c3c5e258988ab525f941db8',
    sha256: 'c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2',
    sha384:
      '3c9c30d9f665e74d515c842960d4a451c83a0125fd3de7392d7b37231af10c72ea58aedfcdf89a5765bf902af93ecf06',
    sha512:
      '0a50261ebd1a390fed2bf326f2673c145582a6342d523204973d0219337f81616a8069b012587cf5635f6925f1b56c360230c19b273500ee013e030601bf2425',
    sha3_256: '09234807e4af85f17c66b48ee3bca89dffd1f1233659f9f940a2b17b0b8c6bc5',
    blake2s: '03a4921c6b0aa0e5bed57228a3b6fd61bec160d46fa610ce6742dd51ab311f43',
    sha512_256: 'd014c752bc2be868e16330f47e0c316a5967bcbc9c286a457761d7055b9214ce',
  };
  for (const [algorithm, hex] of Object.entries(expected)) {
    test(algorithm, () => assert.equal(evaluate({ digest: [algorithm, 'foobar'] }, NEW), hex));
  }

  test('hot_spec example: a parameter value', () => {
    const hash = evaluate({ digest: ['sha512', { get_param: 'raw_password' }] }, NEW, {
      params: { raw_password: 'foobar' },
    });
    assert.equal(hash, expected.sha512);
  });

  test('OpenSSL names are case-insensitive, sha3 and blake2 are not', () => {
    assert.equal(evaluate({ digest: ['MD5', 'foobar'] }, NEW), expected.md5);
    assertFunctionError(() => parse({ digest: ['SHA3_256', 'foobar'] }, NEW), /unknown algorithm "SHA3_256"/);
  });

  test('the value is encoded as Latin-1', () => {
    assert.equal(
      evaluate({ digest: ['sha256', 'café ÿ'] }, NEW),
      '3a15ca4dd8b65bf2e0a86ed9f07a73040208fa8d1ec8034ec4e3d3588b07e876',
    );
    assertFunctionError(() => evaluate({ digest: ['sha256', 'snow ☃'] }, NEW), /Latin-1/);
  });

  test('argument errors', () => {
    for (const raw of [{ digest: 'invalid' }, { digest: { foo: 'invalid' } }, { digest: [123] }] as Json[]) {
      assertFunctionError(() => parse(raw, NEW), /must be a list of strings/);
    }
    for (const raw of [
      { digest: [] },
      { digest: ['foo'] },
      { digest: ['md5'] },
      { digest: ['md5', 'foo', 'bar'] },
    ] as Json[]) {
      assertFunctionError(() => parse(raw, NEW), /expected 2 arguments/);
    }
    assertFunctionError(
      () => parse({ digest: ['invalid_algorithm', 'foobar'] }, NEW),
      /unknown algorithm "invalid_algorithm"; it must be one of md5/,
    );
    assertFunctionError(
      () => evaluate({ digest: ['md5', { get_param: 'n' }] }, NEW, { params: { n: 5 } }),
      /must be a list of strings/,
    );
    assertFunctionError(
      () => evaluate({ digest: [{ get_param: 'a' }, 'x'] }, NEW, { params: { a: 'nope' } }),
      /unknown algorithm/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ digest: ['md5', { get_param: 'p' }] }, NEW, unknownParam));
    assertUnknown(evaluate({ digest: [{ get_param: 'p' }, 'x'] }, NEW, unknownParam));
    assertUnknown(evaluate({ digest: { get_param: 'p' } }, NEW, unknownParam));
    assertFunctionError(
      () => evaluate({ digest: ['nope', { get_param: 'p' }] }, NEW, unknownParam),
      /unknown algorithm/,
    );
  });
});
