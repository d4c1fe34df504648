import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TemplateError } from '../../src/template/errors.js';
import {
  coerceParameterValue,
  type ParameterSchema,
  type ParameterType,
  parseNumber,
} from '../../src/template/parameters/index.js';
import type { Json } from '../../src/util/json.js';

function schema(type: ParameterType): ParameterSchema {
  return { name: 'p', type, hasDefault: false, hidden: false, immutable: false, constraints: [] };
}

const PATH = ['parameters', 'p'];
const coerce = (type: ParameterType, raw: Json) => coerceParameterValue(schema(type), raw, PATH);

function rejects(type: ParameterType, raw: Json, message?: RegExp) {
  assert.throws(
    () => coerce(type, raw),
    (err: unknown) => {
      assert.ok(err instanceof TemplateError);
      assert.equal(err.kind, 'parameter');
      assert.deepEqual(err.path, PATH);
      if (message) assert.match(err.detail, message);
      return true;
    },
    `${type} should reject ${JSON.stringify(raw)}`,
  );
}

describe('coerceParameterValue: number', () => {
  test('numbers pass through', () => {
    assert.equal(coerce('number', 3), 3);
    assert.equal(coerce('number', -2.5), -2.5);
  });

  test('numeric strings become int or float', () => {
    assert.equal(coerce('number', '42'), 42);
    assert.equal(coerce('number', ' 42 '), 42);
    assert.equal(coerce('number', '-0.5'), -0.5);
    assert.equal(coerce('number', '.5'), 0.5);
    assert.equal(coerce('number', '1e3'), 1000);
    assert.equal(coerce('number', '+7'), 7);
  });

  test('anything else is refused with the parameter named', () => {
    rejects('number', 'abc', /Value "abc" is invalid for parameter "p": must be a number/);
    for (const bad of ['', '0x10', '1,5', 'inf', 'NaN', '1e999']) rejects('number', bad);
    rejects('number', true);
    rejects('number', [1]);
    rejects('number', { a: 1 });
    rejects('number', null, /No value/);
  });

  test('parseNumber follows Python int()/float()', () => {
    assert.equal(parseNumber('10'), 10);
    assert.equal(parseNumber('1.'), 1);
    assert.equal(parseNumber('1.5E-1'), 0.15);
    assert.equal(parseNumber('1 2'), undefined);
  });
});

describe('coerceParameterValue: boolean', () => {
  test('booleans pass through', () => {
    assert.equal(coerce('boolean', true), true);
    assert.equal(coerce('boolean', false), false);
  });

  test('strings as oslo bool_from_string(strict=True), case-insensitive', () => {
    for (const s of ['true', 'True', 'TRUE', 'yes', 'Y', 'on', '1', 't', ' yes '])
      assert.equal(coerce('boolean', s), true, s);
    for (const s of ['false', 'False', 'no', 'N', 'off', 'OFF', '0', 'f'])
      assert.equal(coerce('boolean', s), false, s);
  });

  test('numbers 0 and 1', () => {
    assert.equal(coerce('boolean', 1), true);
    assert.equal(coerce('boolean', 0), false);
  });

  test('anything else is refused', () => {
    rejects('boolean', 'maybe', /must be a boolean; acceptable values are: '0', '1', 'f', 'false'/);
    for (const bad of ['', '2', 'yess', 2, 0.5, [], {}]) rejects('boolean', bad as Json);
  });
});

describe('coerceParameterValue: comma_delimited_list', () => {
  test('a string is split on commas, items trimmed', () => {
    assert.deepEqual(coerce('comma_delimited_list', 'a,b,c'), ['a', 'b', 'c']);
    assert.deepEqual(coerce('comma_delimited_list', 'a, b ,c'), ['a', 'b', 'c']);
    assert.deepEqual(coerce('comma_delimited_list', 'one'), ['one']);
    assert.deepEqual(coerce('comma_delimited_list', 'a,,b'), ['a', '', 'b']);
  });

  test('the empty string is the empty list', () => {
    assert.deepEqual(coerce('comma_delimited_list', ''), []);
    assert.deepEqual(coerce('comma_delimited_list', '  '), []);
  });

  test('a list has its items stringified', () => {
    assert.deepEqual(coerce('comma_delimited_list', ['a', 1, 2.5, true, { k: 'v' }, [1]]), [
      'a',
      '1',
      '2.5',
      'True',
      '{"k": "v"}',
      '[1]',
    ]);
  });

  test('other values are refused', () => {
    rejects('comma_delimited_list', 5, /comma-delimited list/);
    rejects('comma_delimited_list', { a: 1 });
    rejects('comma_delimited_list', true);
  });
});

describe('coerceParameterValue: json', () => {
  test('maps and lists pass through', () => {
    assert.deepEqual(coerce('json', { a: [1, 2] }), { a: [1, 2] });
    assert.deepEqual(coerce('json', [1, 'x']), [1, 'x']);
  });

  test('JSON text is parsed', () => {
    assert.deepEqual(coerce('json', '{"a": {"b": null}}'), { a: { b: null } });
    assert.deepEqual(coerce('json', '[]'), []);
  });

  test('a __proto__ key stays data', () => {
    const v = coerce('json', '{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    assert.ok(Object.hasOwn(v, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("'' stays '', as Heat's JsonParam leaves empty text unparsed", () => {
    assert.equal(coerce('json', ''), '');
  });

  test('invalid JSON and scalars are refused', () => {
    rejects('json', '{a: 1}', /must be valid JSON/);
    rejects('json', ' ', /must be valid JSON/);
    rejects('json', '"text"', /must be a JSON map or list/);
    rejects('json', '5', /map or list/);
    rejects('json', 5, /map or list/);
    rejects('json', true);
  });
});

describe('coerceParameterValue: string', () => {
  test('strings pass through', () => {
    assert.equal(coerce('string', 'x'), 'x');
    assert.equal(coerce('string', ''), '');
  });

  test('numbers and booleans are stringified as Heat (Python str) does', () => {
    assert.equal(coerce('string', 5), '5');
    assert.equal(coerce('string', 2.5), '2.5');
    assert.equal(coerce('string', true), 'True');
    assert.equal(coerce('string', false), 'False');
  });

  test('maps and lists are JSON-encoded', () => {
    assert.equal(coerce('string', { a: [1, 'b'] }), '{"a": [1, "b"]}');
    assert.equal(coerce('string', []), '[]');
  });
});
