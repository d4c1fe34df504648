import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatPath, TemplateError } from '../../src/template/errors.js';
import { OMITTED, UNKNOWN, type Value } from '../../src/template/functions/types.js';
import { registerCustomConstraint } from '../../src/template/parameters/index.js';
import { C, P, type PropertiesSchema, validateProperties } from '../../src/template/properties/index.js';

const PATH = ['resources', 'web', 'properties'];

function valid(schema: PropertiesSchema, value: Value, strict = false) {
  return validateProperties(schema, value, PATH, { strict });
}

function fails(
  schema: PropertiesSchema,
  value: Value,
  where: string,
  message: string | RegExp,
  strict = false,
) {
  assert.throws(
    () => valid(schema, value, strict),
    (err: unknown) => {
      assert.ok(err instanceof TemplateError, String(err));
      assert.equal(err.kind, 'property');
      assert.equal(formatPath(err.path), where);
      if (typeof message === 'string') assert.equal(err.detail, message);
      else assert.match(err.detail, message);
      return true;
    },
  );
}

const AT = 'resources.web.properties';

describe('properties: the properties map', () => {
  test('null (no properties section) is an empty map', () => {
    assert.deepEqual(valid({ a: P.string() }, null), {});
  });
  test('a non-map is refused', () => {
    fails({}, [1], AT, 'Value [1] is not a map');
    fails({}, 'x', AT, 'Value "x" is not a map');
  });
  test('UNKNOWN as a whole is returned as it is, unless strict', () => {
    assert.equal(valid({ a: P.string({ required: true }) }, UNKNOWN), UNKNOWN);
    fails({}, UNKNOWN, AT, 'Value is not known yet', true);
  });
  test('unknown property names are errors at their own path', () => {
    fails({ image: P.string() }, { image: 'x', flavour: 'm1' }, `${AT}.flavour`, 'Unknown Property flavour');
  });
  test('a close name is suggested', () => {
    fails(
      { image: P.string() },
      { imgae: 'x' },
      `${AT}.imgae`,
      'Unknown Property imgae (did you mean "image"?)',
    );
    fails({ flavor: P.string() }, { flavour: 'x' }, `${AT}.flavour`, /did you mean "flavor"/);
  });
  test('names inherited from Object.prototype are not properties', () => {
    fails({ a: P.string() }, JSON.parse('{"constructor": 1}'), `${AT}.constructor`, /Unknown Property/);
    fails({ a: P.string() }, JSON.parse('{"__proto__": 1}'), `${AT}.__proto__`, /Unknown Property/);
  });
  test('output follows schema order and leaves absent properties out', () => {
    const out = valid({ a: P.string(), b: P.integer(), c: P.boolean() }, { c: true, a: 'x' });
    assert.deepEqual(Object.keys(out), ['a', 'c']);
  });
});

describe('properties: required and default', () => {
  const schema = { flavor: P.string({ required: true }), size: P.integer({ default: 10 }) };
  test('a missing required property is reported at the map', () => {
    fails(schema, {}, AT, 'Property flavor not assigned (it is required)');
  });
  test('a null required property is reported at the property', () => {
    fails(schema, { flavor: null }, `${AT}.flavor`, /flavor not assigned/);
    fails(schema, { flavor: OMITTED }, `${AT}.flavor`, /flavor not assigned/);
  });
  test('an UNKNOWN value satisfies required', () => {
    assert.deepEqual(valid(schema, { flavor: UNKNOWN }), { flavor: UNKNOWN, size: 10 });
  });
  test('defaults fill absent and null properties', () => {
    assert.deepEqual(valid(schema, { flavor: 'm1' }), { flavor: 'm1', size: 10 });
    assert.deepEqual(valid(schema, { flavor: 'm1', size: null }), { flavor: 'm1', size: 10 });
  });
  test('a given value wins over the default', () => {
    assert.deepEqual(valid(schema, { flavor: 'm1', size: '3' }), { flavor: 'm1', size: 3 });
  });
  test('null without default is left out', () => {
    assert.deepEqual(valid({ a: P.string() }, { a: null }), {});
  });
  test('defaults are copies: changing the result leaves the schema alone', () => {
    const s = { tags: P.list({ default: ['a'] }) };
    const out = valid(s, {}) as Record<string, Value>;
    (out.tags as Value[]).push('b');
    assert.deepEqual(s.tags.default, ['a']);
  });
  test('a default map gets its own defaults', () => {
    const s = { opts: P.map({ default: {}, schema: { x: P.integer({ default: 1 }) } }) };
    assert.deepEqual(valid(s, {}), { opts: { x: 1 } });
  });
});

describe('properties: type conversion', () => {
  const conv = (schema: PropertiesSchema[string], v: Value) =>
    (valid({ p: schema }, { p: v }) as Record<string, Value>).p;
  const bad = (schema: PropertiesSchema[string], v: Value, message: string | RegExp) =>
    fails({ p: schema }, { p: v }, `${AT}.p`, message);

  test('string: strings, numbers and booleans (as Python prints them)', () => {
    assert.equal(conv(P.string(), 'x'), 'x');
    assert.equal(conv(P.string(), 42), '42');
    assert.equal(conv(P.string(), 1.5), '1.5');
    assert.equal(conv(P.string(), true), 'True');
    assert.equal(conv(P.string(), ''), '');
    bad(P.string(), [1], 'Value [1] is not a string');
    bad(P.string(), { a: 1 }, 'Value {"a": 1} is not a string');
  });
  test('integer: integral numbers and integer strings', () => {
    assert.equal(conv(P.integer(), 3), 3);
    assert.equal(conv(P.integer(), '42'), 42);
    assert.equal(conv(P.integer(), ' -7 '), -7);
    assert.equal(conv(P.integer(), 2.0), 2);
    bad(P.integer(), 1.5, 'Value 1.5 is not an integer');
    bad(P.integer(), '1.5', 'Value "1.5" is not an integer');
    bad(P.integer(), 'ten', 'Value "ten" is not an integer');
    bad(P.integer(), true, 'Value true is not an integer');
    bad(P.integer(), [], 'Value [] is not an integer');
  });
  test('number: numbers and numeric strings', () => {
    assert.equal(conv(P.number(), 1.5), 1.5);
    assert.equal(conv(P.number(), '2.5'), 2.5);
    assert.equal(conv(P.number(), '10'), 10);
    assert.equal(conv(P.number(), '1e3'), 1000);
    bad(P.number(), 'abc', 'Value "abc" is not a number');
    bad(P.number(), 'inf', /is not a number/);
    bad(P.number(), false, /is not a number/);
  });
  test('boolean: booleans and "true"/"false" in any case, nothing else', () => {
    assert.equal(conv(P.boolean(), true), true);
    assert.equal(conv(P.boolean(), 'TRUE'), true);
    assert.equal(conv(P.boolean(), 'False'), false);
    bad(P.boolean(), 'yes', 'Value "yes" is not a valid boolean (expected true or false)');
    bad(P.boolean(), 1, /not a valid boolean/);
  });
  test('map: maps only; without a schema the content is kept as it is', () => {
    assert.deepEqual(conv(P.map(), { a: [1, { b: null }] }), { a: [1, { b: null }] });
    bad(P.map(), 'a=b', 'Value "a=b" is not a map');
    bad(P.map(), [], 'Value [] is not a map');
    bad(P.map({ schema: { a: P.string() } }), [1], 'Value [1] is not a map');
  });
  test('list: lists only (no comma-delimited strings, as Heat for plugin types)', () => {
    assert.deepEqual(conv(P.list(), [1, 'a', { b: 2 }]), [1, 'a', { b: 2 }]);
    assert.deepEqual(conv(P.list({ items: P.string() }), [1, 'a', true]), ['1', 'a', 'True']);
    bad(P.list(), 'a,b', 'Value "a,b" is not a list');
    bad(P.list(), { a: 1 }, 'Value {"a": 1} is not a list');
  });
  test('any: anything', () => {
    for (const v of ['x', 1, true, [1], { a: 1 }]) assert.deepEqual(conv(P.any(), v), v);
  });
  test('long values are shortened in messages', () => {
    bad(P.integer(), 'x'.repeat(500), /^Value "x+\.\.\. is not an integer$/);
  });
});

describe('properties: nested schemas', () => {
  const schema = {
    networks: P.list({
      items: P.map({
        schema: {
          network: P.string(),
          port: P.string({ constraints: [C.length({ min: 3 })] }),
          fixed_ip: P.string(),
          tag: P.string({ default: 'none' }),
          opts: P.map({ schema: { mtu: P.integer({ required: true }) } }),
        },
      }),
    }),
  };
  test('converts and fills defaults at every level', () => {
    assert.deepEqual(valid(schema, { networks: [{ port: 'abc' }, { network: 7, opts: { mtu: '1500' } }] }), {
      networks: [
        { port: 'abc', tag: 'none' },
        { network: '7', tag: 'none', opts: { mtu: 1500 } },
      ],
    });
  });
  test('errors name the exact place', () => {
    fails(
      schema,
      { networks: [{}, { port: 'ab' }] },
      `${AT}.networks[1].port`,
      /length \(2\) is out of range/,
    );
    fails(schema, { networks: [{ prot: 'x' }] }, `${AT}.networks[0].prot`, /Unknown Property prot/);
    fails(schema, { networks: [{ opts: {} }] }, `${AT}.networks[0].opts`, /mtu not assigned/);
    fails(schema, { networks: [{ opts: { mtu: 'x' } }] }, `${AT}.networks[0].opts.mtu`, /not an integer/);
    fails(schema, { networks: ['eth0'] }, `${AT}.networks[0]`, 'Value "eth0" is not a map');
  });
  test('null list members: default, required error, or kept', () => {
    assert.deepEqual(valid({ l: P.list({ items: P.integer({ default: 0 }) }) }, { l: [1, null] }), {
      l: [1, 0],
    });
    assert.deepEqual(valid({ l: P.list({ items: P.integer() }) }, { l: [1, null] }), { l: [1, null] });
    fails({ l: P.list({ items: P.integer({ required: true }) }) }, { l: [null] }, `${AT}.l[0]`, /required/);
  });
  test('a deeply nested value under a schema-less map is taken without recursion', () => {
    let deep: Value = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const out = valid({ m: P.map() }, { m: deep as Record<string, Value> }, true) as Record<string, Value>;
    assert.equal(out.m, deep);
    assert.deepEqual(valid({ m: P.map({ constraints: [C.length({ max: 1 })] }) }, { m: deep }), { m: deep });
  });
});

describe('properties: UNKNOWN values', () => {
  const schema = {
    size: P.integer({ constraints: [C.range({ min: 1 })] }),
    names: P.list({
      items: P.string({ constraints: [C.allowedValues(['a'])] }),
      constraints: [C.length({ max: 1 })],
    }),
    meta: P.map({ schema: { k: P.string({ required: true }) } }),
    any: P.any(),
  };
  test('unknown parts are skipped, known parts still checked', () => {
    assert.deepEqual(valid(schema, { size: UNKNOWN, names: [UNKNOWN], meta: UNKNOWN }), {
      size: UNKNOWN,
      names: [UNKNOWN],
      meta: UNKNOWN,
    });
    fails(schema, { size: UNKNOWN, names: ['a', 'a'] }, `${AT}.names`, /length \(2\)/);
    fails(schema, { names: [UNKNOWN, 'b'] }, `${AT}.names[1]`, /"b" is not an allowed value/);
  });
  test('constraints of a value containing UNKNOWN are skipped', () => {
    assert.deepEqual(valid(schema, { names: [UNKNOWN, UNKNOWN] }), { names: [UNKNOWN, UNKNOWN] });
  });
  test('strict mode reports any unknown part at its path', () => {
    fails(schema, { size: UNKNOWN }, `${AT}.size`, 'Value is not known yet', true);
    fails(schema, { names: ['a', UNKNOWN] }, `${AT}.names[1]`, 'Value is not known yet', true);
    fails(schema, { any: { x: [1, UNKNOWN] } }, `${AT}.any.x[1]`, 'Value is not known yet', true);
  });
});

describe('properties: constraints', () => {
  const check = (schema: PropertiesSchema[string], v: Value) => valid({ p: schema }, { p: v });
  const bad = (schema: PropertiesSchema[string], v: Value, message: string | RegExp) =>
    fails({ p: schema }, { p: v }, `${AT}.p`, message);

  test('range (on the converted value)', () => {
    const s = P.integer({ constraints: [C.range({ min: 1, max: 5 })] });
    check(s, '5');
    bad(s, '6', '6 is out of range (min: 1, max: 5)');
    bad(P.number({ constraints: [C.range({ min: 0.5 })] }), 0.1, '0.1 is out of range (min: 0.5, max: None)');
  });
  test('length of strings, lists and maps', () => {
    bad(
      P.string({ constraints: [C.length({ min: 2 })] }),
      'a',
      'length (1) is out of range (min: 2, max: None)',
    );
    bad(P.list({ constraints: [C.length({ max: 1 })] }), [1, 2], /length \(2\)/);
    bad(P.map({ constraints: [C.length({ min: 1 })] }), {}, /length \(0\)/);
    check(P.map({ constraints: [C.length({ min: 1 })] }), { a: 1 });
  });
  test('modulo', () => {
    const s = P.integer({ constraints: [C.modulo(2, 1)] });
    check(s, 3);
    bad(s, 4, '4 is not a multiple of 2 with an offset of 1');
  });
  test('allowed_values, compared in the property type', () => {
    check(P.string({ constraints: [C.allowedValues(['a', 'b'])] }), 'b');
    bad(
      P.string({ constraints: [C.allowedValues(['a', 'b'])] }),
      'c',
      '"c" is not an allowed value ["a", "b"]',
    );
    check(P.integer({ constraints: [C.allowedValues([1, '2'])] }), '2');
    check(P.boolean({ constraints: [C.allowedValues(['true'])] }), true);
    check(P.list({ constraints: [C.allowedValues(['x', 'y'])] }), ['y', 'x']);
    bad(P.list({ constraints: [C.allowedValues(['x'])] }), ['x', 'z'], /is not an allowed value/);
  });
  test('allowed_pattern', () => {
    const s = P.string({ constraints: [C.allowedPattern('[a-z]+')] });
    check(s, 'abc');
    bad(s, 'abc1', '"abc1" does not match pattern "[a-z]+"');
  });
  test('custom constraints from the shared registry', () => {
    bad(P.string({ constraints: [C.custom('ip_addr')] }), 'nope', /Error validating value 'nope'/);
    check(P.string({ constraints: [C.custom('ip_addr')] }), '10.0.0.1');
    const restore = registerCustomConstraint('test.flavor', (v) =>
      v === 'm1' ? undefined : 'no such flavor',
    );
    try {
      check(P.string({ constraints: [C.custom('test.flavor')] }), 'm1');
      bad(
        P.string({ constraints: [C.custom('test.flavor')] }),
        'm9',
        "Error validating value 'm9': no such flavor",
      );
    } finally {
      restore();
    }
  });
  test('a constraint description replaces the message', () => {
    bad(
      P.integer({ constraints: [C.range({ min: 1 }, 'At least one, please.')] }),
      0,
      'At least one, please.',
    );
  });
  test('constraints apply to defaults', () => {
    const restore = registerCustomConstraint('test.never', () => 'never valid');
    try {
      fails(
        { p: P.string({ default: 'x', constraints: [C.custom('test.never')] }) },
        {},
        `${AT}.p`,
        /never valid/,
      );
    } finally {
      restore();
    }
  });
});
