import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  contains,
  filter,
  listConcat,
  listConcatUnique,
  mapMerge,
  mapReplace,
  pyContains,
  pyEquals,
  repeat,
  repeatNested,
  repeatWithMap,
} from '../../../src/template/functions/collections.js';
import { strReplaceJson } from '../../../src/template/functions/strings.js';
import type { Json } from '../../../src/util/json.js';
import { assertFunctionError, assertUnknown, evaluate, parse, UNKNOWN } from './harness.js';

const FNS = {
  map_merge: mapMerge,
  map_replace: mapReplace,
  list_concat: listConcat,
  list_concat_unique: listConcatUnique,
  filter,
  contains,
  str_replace: strReplaceJson,
};
const KILO = { ...FNS, repeat };
const NEWTON = { ...FNS, repeat: repeatWithMap };
const PIKE = { ...FNS, repeat: repeatNested };
const unknownParam = { params: { p: UNKNOWN } };

describe('Python equality', () => {
  test('booleans equal numbers, key order does not matter', () => {
    assert.equal(pyEquals(true, 1), true);
    assert.equal(pyEquals(false, 0), true);
    assert.equal(pyEquals(1, 1.0), true);
    assert.equal(pyEquals('1', 1), false);
    assert.equal(pyEquals({ a: 1, b: [true] }, { b: [1], a: true }), true);
    assert.equal(pyEquals({ a: 1 }, { a: 1, b: 2 }), false);
    assert.equal(pyEquals(null, null), true);
    assert.equal(pyEquals([1], [1, 2]), false);
  });

  test('unknown parts give undefined unless a known part differs', () => {
    assert.equal(pyEquals(UNKNOWN, 'a'), undefined);
    assert.equal(pyEquals([UNKNOWN, 1], ['a', 1]), undefined);
    assert.equal(pyEquals([UNKNOWN, 1], ['a', 2]), false);
    assert.equal(pyEquals({ a: UNKNOWN }, { b: 1 }), false);
    assert.equal(pyContains(['x', UNKNOWN], 'x'), true);
    assert.equal(pyContains(['y', UNKNOWN], 'x'), undefined);
    assert.equal(pyContains([], UNKNOWN), false);
  });
});

describe('map_merge', () => {
  test('hot_spec example: later maps win', () => {
    assert.deepEqual(evaluate({ map_merge: [{ k1: 'v1', k2: 'v2' }, { k1: 'v2' }] }, FNS), {
      k1: 'v2',
      k2: 'v2',
    });
  });

  test('null items are ignored; no items give {}', () => {
    assert.deepEqual(evaluate({ map_merge: [{ f1: 'b1', f2: 'b2' }, null] }, FNS), { f1: 'b1', f2: 'b2' });
    assert.deepEqual(evaluate({ map_merge: [] }, FNS), {});
  });

  test('the list may come from a function (here repeat)', () => {
    const raw: Json = {
      map_merge: { repeat: { template: { ROLE: 'ROLE' }, for_each: { ROLE: ['role1', 'role2'] } } },
    };
    assert.deepEqual(evaluate(raw, KILO), { role1: 'role1', role2: 'role2' });
    const none: Json = { map_merge: { repeat: { template: { ROLE: 'ROLE' }, for_each: { ROLE: null } } } };
    assert.deepEqual(evaluate(none, KILO), {});
  });

  test('keys that are Object.prototype names are plain data', () => {
    const merged = evaluate(
      { map_merge: [{ constructor: 'a' }, JSON.parse('{"__proto__": {"polluted": 1}}')] },
      FNS,
    );
    assert.deepEqual(Object.keys(merged as object), ['constructor', '__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('errors', () => {
    assertFunctionError(
      () => parse({ map_merge: [{ f1: 'b1' }, ['f1', 'b2']] }, FNS),
      /map_merge: items to merge must be maps, got list/,
    );
    assertFunctionError(() => parse({ map_merge: 'abc' }, FNS), /must be a list/);
    assertFunctionError(
      () => evaluate({ map_merge: [{ get_param: 'l' }] }, FNS, { params: { l: ['x'] } }),
      /must be maps, got list/,
    );
    assertFunctionError(
      () => evaluate({ map_merge: { get_param: 'l' } }, FNS, { params: { l: 'x' } }),
      /must be a list of maps/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ map_merge: [{ a: 1 }, { get_param: 'p' }] }, FNS, unknownParam));
    assertUnknown(evaluate({ map_merge: { get_param: 'p' } }, FNS, unknownParam));
    // Unknown values inside known maps stay where they are.
    assert.deepEqual(evaluate({ map_merge: [{ a: { get_param: 'p' } }, { b: 1 }] }, FNS, unknownParam), {
      a: UNKNOWN,
      b: 1,
    });
  });
});

describe('map_replace', () => {
  test('hot_spec example', () => {
    const raw: Json = {
      map_replace: [
        { k1: 'v1', k2: 'v2' },
        { keys: { k1: 'K1' }, values: { v2: 'V2' } },
      ],
    };
    assert.deepEqual(evaluate(raw, FNS), { K1: 'v1', k2: 'V2' });
  });

  test('keys and values are each optional, and may be null', () => {
    const input = { f1: 'b1', f2: 'b2' };
    assert.deepEqual(evaluate({ map_replace: [input, { values: { b2: 'B2' } }] }, FNS), {
      f1: 'b1',
      f2: 'B2',
    });
    assert.deepEqual(evaluate({ map_replace: [input, { keys: { f2: 'F2' } }] }, FNS), { f1: 'b1', F2: 'b2' });
    assert.deepEqual(evaluate({ map_replace: [input, { keys: null }] }, FNS), input);
    assert.deepEqual(evaluate({ map_replace: [input, { values: null }] }, FNS), input);
    assert.deepEqual(evaluate({ map_replace: [input, {}] }, FNS), input);
  });

  test('replacing a key with itself is fine', () => {
    assert.deepEqual(evaluate({ map_replace: [{ f1: 'b1', f2: 'b2' }, { keys: { f2: 'f2' } }] }, FNS), {
      f1: 'b1',
      f2: 'b2',
    });
  });

  test('lists and other non-string values are not replaced', () => {
    assert.deepEqual(evaluate({ map_replace: [{ f1: 'b1', f2: [] }, { values: {} }] }, FNS), {
      f1: 'b1',
      f2: [],
    });
    assert.deepEqual(
      evaluate({ map_replace: [{ a: 1, b: 'x' }, { values: { '1': 'one', x: null } }] }, FNS),
      { a: 1, b: null },
    );
  });

  test('user keys never reach Object.prototype', () => {
    const raw: Json = {
      map_replace: [{ constructor: 'toString' }, { keys: { constructor: 'c' }, values: { toString: 't' } }],
    };
    assert.deepEqual(evaluate(raw, FNS), { c: 't' });
    assert.deepEqual(evaluate({ map_replace: [{ a: 'hasOwnProperty' }, { values: {} }] }, FNS), {
      a: 'hasOwnProperty',
    });
  });

  test('key collisions', () => {
    assertFunctionError(
      () => evaluate({ map_replace: [{ f1: 'b1', f2: 'b2' }, { keys: { f2: 'f1' } }] }, FNS),
      /key replacement "f1" collides with a key in the input map/,
    );
    assertFunctionError(
      () => evaluate({ map_replace: [{ f1: 'b1', f2: 'b2' }, { keys: { f1: 'f3', f2: 'f3' } }] }, FNS),
      /key replacement "f3" collides with a key in the output map/,
    );
  });

  test('argument errors', () => {
    assertFunctionError(() => parse({ map_replace: 'ab' }, FNS), /map_replace: arguments must be a list/);
    assertFunctionError(() => parse({ map_replace: [{ f1: 'b1' }, 'ab'] }, FNS), /list of two maps/);
    assertFunctionError(() => parse({ map_replace: [] }, FNS), /expected 2 arguments/);
    assertFunctionError(() => parse({ map_replace: [{ f1: 'b1' }] }, FNS), /expected 2 arguments/);
    assertFunctionError(
      () => parse({ map_replace: [{ f1: 'b1' }, { notkeys: {} }] }, FNS),
      /unknown key "notkeys"/,
    );
    assertFunctionError(
      () => evaluate({ map_replace: { get_param: 'a' } }, FNS, { params: { a: [{}] } }),
      /list of two maps/,
    );
    assertFunctionError(
      () => evaluate({ map_replace: [{ a: 1 }, { keys: 'x' }] }, FNS),
      /"keys" must be a map/,
    );
    assertFunctionError(
      () => evaluate({ map_replace: [{ a: 1 }, { keys: { a: ['x'] } }] }, FNS),
      /key replacements must be strings/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ map_replace: [{ get_param: 'p' }, { keys: {} }] }, FNS, unknownParam));
    assertUnknown(evaluate({ map_replace: [{ a: 1 }, { keys: { get_param: 'p' } }] }, FNS, unknownParam));
    assertUnknown(
      evaluate({ map_replace: [{ a: 1 }, { keys: { a: { get_param: 'p' } } }] }, FNS, unknownParam),
    );
    assert.deepEqual(
      evaluate({ map_replace: [{ a: { get_param: 'p' } }, { values: { x: 'y' } }] }, FNS, unknownParam),
      { a: UNKNOWN },
    );
    assertFunctionError(
      () => evaluate({ map_replace: [{ get_param: 'p' }, { bad: {} }] }, FNS, unknownParam),
      /unknown key "bad"/,
    );
  });
});

describe('list_concat and list_concat_unique', () => {
  test('hot_spec examples', () => {
    assert.deepEqual(
      evaluate(
        {
          list_concat: [
            ['v1', 'v2'],
            ['v3', 'v4'],
          ],
        },
        FNS,
      ),
      ['v1', 'v2', 'v3', 'v4'],
    );
    assert.deepEqual(
      evaluate(
        {
          list_concat_unique: [
            ['v1', 'v2'],
            ['v2', 'v3'],
          ],
        },
        FNS,
      ),
      ['v1', 'v2', 'v3'],
    );
  });

  test('null lists are ignored; duplicates kept by list_concat', () => {
    assert.deepEqual(evaluate({ list_concat: [['v1', 'v2'], ['v3', 'v4'], null] }, FNS), [
      'v1',
      'v2',
      'v3',
      'v4',
    ]);
    assert.deepEqual(evaluate({ list_concat: [[{ v1: 'v2' }], [{ v1: 'v2' }]] }, FNS), [
      { v1: 'v2' },
      { v1: 'v2' },
    ]);
  });

  test('list_concat_unique compares as Python does, keeping first occurrences', () => {
    assert.deepEqual(evaluate({ list_concat_unique: [[{ v1: 'v2' }], [{ v1: 'v2' }]] }, FNS), [{ v1: 'v2' }]);
    assert.deepEqual(
      evaluate(
        {
          list_concat_unique: [
            [1, 'a', { x: 1, y: 2 }],
            [true, { y: 2, x: 1 }, 'b'],
          ],
        },
        FNS,
      ),
      [1, 'a', { x: 1, y: 2 }, 'b'],
    );
  });

  test('errors', () => {
    assertFunctionError(
      () => parse({ list_concat: [{ k1: 'v2' }, ['v3', 'v4']] }, FNS),
      /list_concat: items to concatenate must be lists, got map/,
    );
    assertFunctionError(() => parse({ list_concat: 'I am string' }, FNS), /must be a list/);
    assertFunctionError(() => parse({ list_concat: ['v1', 'v2'] }, FNS), /must be lists, got string/);
    assertFunctionError(
      () => evaluate({ list_concat: [{ get_param: 's' }] }, FNS, { params: { s: 'x' } }),
      /must be lists, got string/,
    );
    assertFunctionError(
      () => evaluate({ list_concat_unique: { get_param: 's' } }, FNS, { params: { s: 'x' } }),
      /list_concat_unique: arguments must be a list/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ list_concat: [['a'], { get_param: 'p' }] }, FNS, unknownParam));
    assert.deepEqual(evaluate({ list_concat: [['a'], [{ get_param: 'p' }]] }, FNS, unknownParam), [
      'a',
      UNKNOWN,
    ]);
    assertUnknown(evaluate({ list_concat_unique: [['a'], [{ get_param: 'p' }]] }, FNS, unknownParam));
    assert.deepEqual(
      evaluate({ list_concat_unique: [[['a', 1]], [[{ get_param: 'p' }, 2]]] }, FNS, unknownParam),
      [
        ['a', 1],
        [UNKNOWN, 2],
      ],
    );
  });
});

describe('repeat (2015-04-30)', () => {
  test('a string template', () => {
    const raw: Json = { repeat: { template: 'this is %var%', for_each: { '%var%': ['a', 'b', 'c'] } } };
    assert.deepEqual(evaluate(raw, KILO), ['this is a', 'this is b', 'this is c']);
  });

  test('hot_spec example: security group rules from a parameter', () => {
    const raw: Json = {
      repeat: {
        for_each: { '<%port%>': { get_param: 'ports' } },
        template: { protocol: 'tcp', port_range_min: '<%port%>', port_range_max: '<%port%>' },
      },
    };
    assert.deepEqual(evaluate(raw, KILO, { params: { ports: ['80', '443'] } }), [
      { protocol: 'tcp', port_range_min: '80', port_range_max: '80' },
      { protocol: 'tcp', port_range_min: '443', port_range_max: '443' },
    ]);
  });

  test('several lists are nested loops, the first key outermost', () => {
    const raw: Json = {
      repeat: { template: '%var1%-%var2%', for_each: { '%var1%': ['a', 'b', 'c'], '%var2%': ['1', '2'] } },
    };
    assert.deepEqual(evaluate(raw, KILO), ['a-1', 'a-2', 'b-1', 'b-2', 'c-1', 'c-2']);
  });

  test('map keys and list items are substituted; other values are kept', () => {
    const raw: Json = {
      repeat: {
        template: { 'key-%var%': 'this is %var%', n: 1, l: ['%var%', true, null] },
        for_each: { '%var%': ['a', 'b'] },
      },
    };
    assert.deepEqual(evaluate(raw, KILO), [
      { 'key-a': 'this is a', n: 1, l: ['a', true, null] },
      { 'key-b': 'this is b', n: 1, l: ['b', true, null] },
    ]);
    const noReplacement: Json = {
      repeat: { template: { SERVICE_enabled: true }, for_each: { SERVICE: ['x', 'y'] } },
    };
    assert.deepEqual(evaluate(noReplacement, KILO), [{ x_enabled: true }, { y_enabled: true }]);
  });

  test('keys are replaced in order, so a later key may match inside an earlier value', () => {
    const raw: Json = { repeat: { template: 'A', for_each: { A: ['B'], B: ['c'] } } };
    assert.deepEqual(evaluate(raw, KILO), ['c']);
  });

  test('the template is resolved before placeholders are substituted', () => {
    const raw: Json = {
      repeat: {
        template: { str_replace: { template: 'x-%v%', params: { x: 'y' } } },
        for_each: { '%v%': ['1', '2'] },
      },
    };
    assert.deepEqual(evaluate(raw, KILO), ['y-1', 'y-2']);
    const getParam: Json = { repeat: { template: { get_param: '%v%' }, for_each: { '%v%': ['a'] } } };
    assert.throws(() => evaluate(getParam, KILO, { params: { a: 'A' } }), /parameter "%v%" does not exist/);
  });

  test('a null list gives no items; an empty product gives []', () => {
    assert.deepEqual(evaluate({ repeat: { template: 'x', for_each: { x: null } } }, KILO), []);
    assert.deepEqual(evaluate({ repeat: { template: 'x', for_each: { x: ['a'], y: [] } } }, KILO), []);
  });

  test('permutations is ignored before 2017-09-01', () => {
    const raw: Json = {
      repeat: { template: 'x-y', for_each: { x: ['1', '2'], y: ['a', 'b'] }, permutations: false },
    };
    assert.equal((evaluate(raw, KILO) as unknown[]).length, 4);
  });

  test('for_each values must be lists', () => {
    assertFunctionError(
      () => evaluate({ repeat: { template: 'x', for_each: { x: { a: 1 } } } }, KILO),
      /repeat: the values of "for_each" must be lists, got map \{"a": 1\}/,
    );
    assertFunctionError(
      () => evaluate({ repeat: { template: 'x', for_each: { x: 'abc' } } }, KILO),
      /must be lists, got string "abc"/,
    );
  });

  test('non-string items cannot be substituted into strings', () => {
    assertFunctionError(
      () => evaluate({ repeat: { template: 'port %p%', for_each: { '%p%': [80] } } }, KILO),
      /must be strings to substitute/,
    );
    assert.deepEqual(evaluate({ repeat: { template: 5, for_each: { '%p%': [80, 443] } } }, KILO), [5, 5]);
  });

  test('argument errors', () => {
    assertFunctionError(
      () => parse({ repeat: { template: 'this is %var%' } }, KILO),
      /must have "template" and "for_each"/,
    );
    assertFunctionError(
      () => parse({ repeat: { template: 'x', foreach: { x: ['a'] } } }, KILO),
      /must have "template" and "for_each"/,
    );
    assertFunctionError(
      () => parse({ repeat: { templte: 'x', for_each: { x: ['a'] } } }, KILO),
      /must have "template" and "for_each"/,
    );
    assertFunctionError(
      () => parse({ repeat: { template: 'x', for_each: '%var%' } }, KILO),
      /"for_each" must be a map, got string/,
    );
    assertFunctionError(() => parse({ repeat: ['x'] }, KILO), /arguments must be a map/);
    assertFunctionError(
      () => evaluate({ repeat: { template: 'x', for_each: {} } }, KILO),
      /"for_each" must not be empty/,
    );
    assertFunctionError(
      () =>
        evaluate({ repeat: { template: 'x', for_each: { get_param: 'l' } } }, KILO, { params: { l: ['a'] } }),
      /"for_each" must be a map, got list/,
    );
  });

  test('for_each from a function', () => {
    const raw: Json = { repeat: { template: 'this is var%', for_each: { 'var%': { get_param: 'param' } } } };
    assert.deepEqual(evaluate(raw, KILO, { params: { param: ['a', 'b', 'c'] } }), [
      'this is a',
      'this is b',
      'this is c',
    ]);
    const attr: Json = {
      repeat: { template: 'this is %var%', for_each: { '%var%': { get_attr: ['resource1', 'list'] } } },
    };
    assert.deepEqual(evaluate(attr, KILO, { attributes: { resource1: { list: ['foo', 'bar'] } } }), [
      'this is foo',
      'this is bar',
    ]);
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ repeat: { template: 'x', for_each: { get_param: 'p' } } }, KILO, unknownParam));
    assertUnknown(
      evaluate({ repeat: { template: 'x', for_each: { x: { get_param: 'p' } } } }, KILO, unknownParam),
    );
    // The count is known: unknown items make only the strings they land in unknown.
    assert.deepEqual(
      evaluate(
        { repeat: { template: ['x', 'y'], for_each: { x: ['a', { get_param: 'p' }] } } },
        KILO,
        unknownParam,
      ),
      [
        ['a', 'y'],
        [UNKNOWN, 'y'],
      ],
    );
    assert.deepEqual(
      evaluate({ repeat: { template: { x: 1 }, for_each: { x: [{ get_param: 'p' }] } } }, KILO, unknownParam),
      [UNKNOWN],
    );
    assert.deepEqual(
      evaluate({ repeat: { template: { get_param: 'p' }, for_each: { x: ['a', 'b'] } } }, KILO, unknownParam),
      [UNKNOWN, UNKNOWN],
    );
    assertFunctionError(
      () =>
        evaluate(
          { repeat: { template: 'x', for_each: { x: { get_param: 'p' }, y: 'bad' } } },
          KILO,
          unknownParam,
        ),
      /must be lists/,
    );
  });
});

describe('repeat (2016-10-14): maps', () => {
  test('a map value iterates over its keys', () => {
    const raw: Json = {
      repeat: { template: '%var1%-%var2%', for_each: { '%var1%': ['a', 'b'], '%var2%': { x: 'v', y: 'v' } } },
    };
    assert.deepEqual(evaluate(raw, NEWTON), ['a-x', 'a-y', 'b-x', 'b-y']);
  });

  test('strings are still rejected', () => {
    assertFunctionError(
      () => evaluate({ repeat: { template: 'x', for_each: { x: 'abc' } } }, NEWTON),
      /must be lists or maps, got string "abc"/,
    );
  });
});

describe('repeat (2017-09-01): permutations', () => {
  test('hot_spec example: permutations false zips the lists', () => {
    const raw: Json = {
      repeat: {
        for_each: { '<%sub%>': { get_param: 'subnets' }, '<%net%>': { get_param: 'networks' } },
        template: { subnet: '<%sub%>', network: '<%net%>' },
        permutations: false,
      },
    };
    assert.deepEqual(
      evaluate(raw, PIKE, { params: { subnets: ['sub1', 'sub2'], networks: ['net1', 'net2'] } }),
      [
        { subnet: 'sub1', network: 'net1' },
        { subnet: 'sub2', network: 'net2' },
      ],
    );
  });

  test('permutations true (the default) is the nested loop, maps allowed', () => {
    const raw: Json = {
      repeat: { template: 'x-y', for_each: { x: ['1', '2'], y: { a: 0 } }, permutations: true },
    };
    assert.deepEqual(evaluate(raw, PIKE), ['1-a', '2-a']);
  });

  test('without permutations the lists must have the same length and maps are refused', () => {
    const unequal: Json = {
      repeat: { template: 'n-p', for_each: { n: ['n1', 'n2', 'n3'], p: ['p1', 'p2'] }, permutations: false },
    };
    assertFunctionError(() => evaluate(unequal, PIKE), /must all have the same length/);
    const withMap: Json = {
      repeat: {
        template: 'n-p',
        for_each: { n: ['n1', 'n2'], p: { p1: 'pp', p2: 'qq' } },
        permutations: false,
      },
    };
    assertFunctionError(() => evaluate(withMap, PIKE), /must be lists, got map \{"p1": "pp", "p2": "qq"\}/);
  });

  test('null lists do not count towards the length and give no items', () => {
    const raw: Json = {
      repeat: {
        template: { ROLE: 'ROLE', NAME: 'NAME' },
        for_each: { ROLE: null, NAME: ['n1', 'n2'] },
        permutations: false,
      },
    };
    assert.deepEqual(evaluate(raw, PIKE), []);
    const allNull: Json = { repeat: { template: 'x', for_each: { x: null, y: null }, permutations: false } };
    assert.deepEqual(evaluate(allNull, PIKE), []);
  });

  test('permutations must be a literal boolean', () => {
    assertFunctionError(
      () => parse({ repeat: { template: 'x', for_each: { x: ['a'] }, permutations: 'non bool' } }, PIKE),
      /"permutations" must be a boolean, got string/,
    );
    assertFunctionError(
      () => parse({ repeat: { template: 'x', for_each: { x: ['a'] }, permutations: null } }, PIKE),
      /must be a boolean/,
    );
  });

  test('a length mismatch is reported even when another list is unknown', () => {
    const raw: Json = {
      repeat: {
        template: 'x',
        for_each: { x: ['a'], y: ['b', 'c'], z: { get_param: 'p' } },
        permutations: false,
      },
    };
    assertFunctionError(() => evaluate(raw, PIKE, unknownParam), /same length/);
  });
});

describe('filter', () => {
  test('hot_spec example', () => {
    assert.deepEqual(
      evaluate({ filter: [[3], { get_param: 'list_param' }] }, FNS, { params: { list_param: [1, 2, 3] } }),
      [1, 2],
    );
  });

  test('removes nulls and compares as Python', () => {
    assert.deepEqual(evaluate({ filter: [[null], [1, null, 4, 2, null]] }, FNS), [1, 4, 2]);
    assert.deepEqual(
      evaluate(
        {
          filter: [
            [true, { a: [1] }],
            [1, 2, { a: [true] }, 'x'],
          ],
        },
        FNS,
      ),
      [2, 'x'],
    );
  });

  test('empty inputs are returned unchanged', () => {
    assert.deepEqual(evaluate({ filter: [['a'], []] }, FNS), []);
    assert.equal(evaluate({ filter: [['a'], null] }, FNS), null);
    assert.deepEqual(evaluate({ filter: [[], ['a']] }, FNS), ['a']);
    assert.deepEqual(evaluate({ filter: [null, ['a']] }, FNS), ['a']);
  });

  test('errors', () => {
    assertFunctionError(() => parse({ filter: 'foo' }, FNS), /filter: arguments must be a list/);
    assertFunctionError(() => parse({ filter: [[null], [1, 2], 'foo'] }, FNS), /expected 2 arguments/);
    assertFunctionError(
      () => evaluate({ filter: [[null], { a: 1 }] }, FNS),
      /can only filter a list, got map/,
    );
    assertFunctionError(
      () => evaluate({ filter: [['a'], 'abcd'] }, FNS),
      /can only filter a list, got string/,
    );
    assertFunctionError(
      () => evaluate({ filter: ['abcd', ['a', 'b']] }, FNS),
      /values to remove must be a list/,
    );
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ filter: [['a'], { get_param: 'p' }] }, FNS, unknownParam));
    assertUnknown(evaluate({ filter: [{ get_param: 'p' }, ['a']] }, FNS, unknownParam));
    assertUnknown(evaluate({ filter: [[null], ['a', { get_param: 'p' }]] }, FNS, unknownParam));
    // An item that cannot equal any value to remove is kept even when unknown inside.
    assert.deepEqual(evaluate({ filter: [['x'], [[{ get_param: 'p' }]]] }, FNS, unknownParam), [[UNKNOWN]]);
  });
});

describe('contains', () => {
  test('hot_spec example', () => {
    assert.equal(evaluate({ contains: ['v1', ['v1', 'v2', 'v3']] }, FNS), true);
    assert.equal(evaluate({ contains: ['v4', ['v1', 'v2', 'v3']] }, FNS), false);
  });

  test('substring of a string; Python equality in lists', () => {
    assert.equal(evaluate({ contains: ['a', 'abc'] }, FNS), true);
    assert.equal(evaluate({ contains: ['d', 'abc'] }, FNS), false);
    assert.equal(evaluate({ contains: [1, [true]] }, FNS), true);
    assert.equal(evaluate({ contains: [{ a: 1 }, [{ a: 1 }]] }, FNS), true);
  });

  test('errors', () => {
    assertFunctionError(
      () => parse({ contains: { key: 'value' } }, FNS),
      /contains: arguments must be a list/,
    );
    assertFunctionError(
      () => parse({ contains: ['v1', ['v1', 'v2'], 'redundant'] }, FNS),
      /expected 2 arguments/,
    );
    assertFunctionError(
      () => evaluate({ contains: ['v1', { key: 'value' }] }, FNS),
      /second argument must be a list, got map/,
    );
    assertFunctionError(() => evaluate({ contains: [1, 'abc'] }, FNS), /string in a string, got number/);
  });

  test('unknowns', () => {
    assertUnknown(evaluate({ contains: ['a', { get_param: 'p' }] }, FNS, unknownParam));
    assertUnknown(evaluate({ contains: [{ get_param: 'p' }, ['a']] }, FNS, unknownParam));
    assertUnknown(evaluate({ contains: [{ get_param: 'p' }, 'abc'] }, FNS, unknownParam));
    assert.equal(evaluate({ contains: [{ get_param: 'p' }, []] }, FNS, unknownParam), false);
    assert.equal(evaluate({ contains: ['a', ['a', { get_param: 'p' }]] }, FNS, unknownParam), true);
  });
});
