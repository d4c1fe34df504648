import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TemplateError } from '../../src/template/errors.js';
import { UNKNOWN } from '../../src/template/functions/types.js';
import {
  attr,
  C,
  changedProperties,
  checkPropertiesSchema,
  diffProperties,
  P,
  type PropertiesSchema,
  PropertySchemaError,
  schemaToHeatJSON,
  typeInfo,
  typeInfoToHeatJSON,
  updateRequiresReplacement,
} from '../../src/template/properties/index.js';

/** OS::Heat::TestResource as Heat declares it (for the `resource_types show` sample). */
const TEST_RESOURCE: PropertiesSchema = {
  constraint_prop_secs: P.number({
    description: 'Number value for delay during resolve constraint.',
    default: 0,
    constraints: [C.custom('test_constr')],
    updateAllowed: true,
  }),
  attr_wait_secs: P.number({
    description: 'Number value for timeout during resolving output value.',
    default: 0,
    updateAllowed: true,
  }),
  value: P.string({
    description: 'The input string to be stored.',
    default: 'test_string',
    updateAllowed: true,
  }),
  update_replace_value: P.string({ description: 'Some value that can be stored but can not be updated.' }),
  action_wait_secs: P.map({
    description: 'Options for simulating waiting.',
    updateAllowed: true,
    schema: {
      create: P.number({ description: 'Seconds to wait after a create.', updateAllowed: true }),
    },
  }),
};

describe('properties: builders', () => {
  test('P and C build plain schema objects', () => {
    assert.deepEqual(P.string({ required: true, updateAllowed: true }), {
      type: 'string',
      required: true,
      updateAllowed: true,
    });
    assert.deepEqual(P.list({ items: P.integer() }), { type: 'list', items: { type: 'integer' } });
    assert.deepEqual(C.range({ min: 1 }), { kind: 'range', min: 1 });
    assert.deepEqual(C.modulo(2, 1, 'odd'), { kind: 'modulo', step: 2, offset: 1, description: 'odd' });
    assert.deepEqual(C.allowedValues(['a']), { kind: 'allowed_values', values: ['a'] });
    assert.deepEqual(C.allowedPattern('x+'), { kind: 'allowed_pattern', pattern: 'x+' });
    assert.deepEqual(C.custom('nova.flavor'), { kind: 'custom_constraint', name: 'nova.flavor' });
    assert.deepEqual(attr('IP', 'string'), { description: 'IP', type: 'string' });
  });
});

describe('properties: schema checks (plugin mistakes)', () => {
  const bad = (schema: PropertiesSchema, message: RegExp) =>
    assert.throws(
      () => checkPropertiesSchema('OS::Test', schema),
      (err: unknown) => err instanceof PropertySchemaError && message.test(err.message),
    );

  test('a well-formed schema passes', () => {
    checkPropertiesSchema('OS::Heat::TestResource', TEST_RESOURCE);
  });
  test('constraints must suit the type', () => {
    bad(
      { a: P.string({ constraints: [C.range({ min: 1 })] }) },
      /property a: a range constraint is not valid/,
    );
    bad({ a: P.boolean({ constraints: [C.length({ min: 1 })] }) }, /length constraint is not valid/);
    bad({ a: P.map({ constraints: [C.allowedValues([])] }) }, /allowed_values constraint is not valid/);
    bad({ a: P.any({ constraints: [C.custom('ip_addr')] }) }, /custom_constraint constraint is not valid/);
  });
  test('constraints must be well-formed', () => {
    bad({ a: P.integer({ constraints: [C.range({})] }) }, /needs a min and\/or a max/);
    bad({ a: P.string({ constraints: [C.length({ min: 1.5 })] }) }, /must be integers/);
    bad({ a: P.integer({ constraints: [C.modulo(0, 0)] }) }, /step cannot be 0/);
    bad({ a: P.integer({ constraints: [C.modulo(2, 3)] }) }, /offset must be smaller/);
    bad({ a: P.integer({ constraints: [C.modulo(-3, 1)] }) }, /same sign/);
    bad({ a: P.string({ constraints: [C.allowedPattern('(')] }) }, /invalid allowed_pattern/);
  });
  test('updateAllowed and immutable exclude each other', () => {
    bad({ a: P.string({ updateAllowed: true, immutable: true }) }, /cannot both be true/);
  });
  test('replaces names another property beside it', () => {
    bad({ a: P.string({ replaces: 'b' }) }, /property a: replaces "b", which is not another property/);
    bad({ a: P.string({ replaces: 'a' }) }, /replaces "a"/);
    typeInfo('T', { a: P.string({ replaces: 'b' }), b: P.string({ required: true }) }, {});
  });
  test('sub-schemas only on maps and lists; nested mistakes are named by path', () => {
    bad({ a: { type: 'string', schema: {} } as never }, /only a map may have a schema/);
    bad({ a: { type: 'map', items: P.string() } as never }, /only a list may have items/);
    bad(
      { a: P.list({ items: P.map({ schema: { b: P.string({ constraints: [C.range({ min: 1 })] }) } }) }) },
      /a\.\*\.b:/,
    );
    bad({ a: { type: 'text' } as never }, /invalid type "text"/);
  });
  test('defaults must satisfy the schema (custom constraints aside)', () => {
    bad({ a: P.integer({ default: 'x' }) }, /property a: invalid default: Value "x" is not an integer/);
    bad(
      { a: P.integer({ default: 0, constraints: [C.range({ min: 1 })] }) },
      /invalid default: 0 is out of range/,
    );
    bad(
      { a: P.map({ default: { b: 1 }, schema: { c: P.string() } }) },
      /invalid default \(at b\): Unknown Property b/,
    );
    checkPropertiesSchema('OS::Test', {
      a: P.string({ default: 'x', constraints: [C.custom('nova.flavor')] }),
    });
  });
  test('a schema that contains itself is refused', () => {
    const loop = P.list();
    loop.items = loop;
    bad({ a: loop }, /contains itself/);
  });
});

describe('properties: typeInfo', () => {
  const info = typeInfo(
    'OS::Test::Server',
    { flavor: P.string({ required: true }), count: P.integer() },
    { first_address: attr('The first IP.', 'string') },
    { dynamicAttribute: (name) => name.startsWith('output.') },
  );
  test('validates properties through the schema', () => {
    info.validateProperties({ flavor: 'm1', count: '2' }, ['resources', 's', 'properties']);
    info.validateProperties({ flavor: UNKNOWN }, ['resources', 's', 'properties']);
    assert.throws(
      () => info.validateProperties({ count: 1 }, ['resources', 's', 'properties']),
      (err: unknown) =>
        err instanceof TemplateError && err.kind === 'property' && /flavor not assigned/.test(err.detail),
    );
  });
  test('knows declared attributes, show, and dynamic ones', () => {
    assert.equal(info.hasAttribute('first_address'), true);
    assert.equal(info.hasAttribute('show'), true);
    assert.equal(info.hasAttribute('output.x'), true);
    assert.equal(info.hasAttribute('nope'), false);
    assert.equal(info.hasAttribute('constructor'), false);
  });
  test('refuses a faulty schema when declared', () => {
    assert.throws(
      () => typeInfo('OS::Bad', { a: P.string({ default: 1.5, constraints: [C.length({ max: 1 })] }) }, {}),
      PropertySchemaError,
    );
  });
});

describe('properties: update diff', () => {
  const schema: PropertiesSchema = {
    name: P.string({ updateAllowed: true }),
    image: P.string(),
    zone: P.string({ immutable: true }),
    tags: P.list({ updateAllowed: true }),
    meta: P.map(),
  };
  test('unchanged properties, absent and null alike, and key order in maps', () => {
    const old = { name: 'a', image: 'i', meta: { x: 1, y: [1, { z: 2 }] } };
    assert.deepEqual(
      changedProperties(schema, old, { meta: { y: [1, { z: 2 }], x: 1 }, name: 'a', image: 'i', tags: null }),
      [],
    );
  });
  test('changes that update in place', () => {
    assert.deepEqual(changedProperties(schema, { name: 'a', tags: [1] }, { name: 'b', tags: [1, 2] }), [
      'name',
      'tags',
    ]);
    assert.deepEqual(updateRequiresReplacement(schema, { name: 'a' }, { name: 'b' }), []);
  });
  test('changes that replace, including adding or removing a property', () => {
    assert.deepEqual(
      updateRequiresReplacement(schema, { image: 'i', name: 'a' }, { image: 'j', name: 'b' }),
      ['image'],
    );
    assert.deepEqual(updateRequiresReplacement(schema, {}, { meta: {} }), ['meta']);
    assert.deepEqual(updateRequiresReplacement(schema, { image: 'i' }, {}), ['image']);
  });
  test('immutable changes are reported separately (Heat refuses them)', () => {
    assert.deepEqual(diffProperties(schema, { zone: 'a' }, { zone: 'b' }), {
      changed: ['zone'],
      requiresReplacement: ['zone'],
      immutable: ['zone'],
    });
  });
  test('an UNKNOWN value counts as changed', () => {
    assert.deepEqual(changedProperties(schema, { image: UNKNOWN }, { image: UNKNOWN }), ['image']);
    assert.deepEqual(changedProperties(schema, { meta: { a: UNKNOWN } }, { meta: { a: 1 } }), ['meta']);
  });
  test('properties outside the schema are ignored', () => {
    assert.deepEqual(changedProperties(schema, { extra: 1 }, { extra: 2 }), []);
  });
});

describe('properties: resource_types show (Heat JSON)', () => {
  test('matches Heat for OS::Heat::TestResource, key order included', () => {
    const body = schemaToHeatJSON(
      'OS::Heat::TestResource',
      TEST_RESOURCE,
      {
        output: attr('The string that was stored. This value is also available by referencing the resource.'),
      },
      { supportStatus: { version: '5.0.0' } },
    );
    const expected = {
      resource_type: 'OS::Heat::TestResource',
      properties: {
        constraint_prop_secs: {
          type: 'number',
          description: 'Number value for delay during resolve constraint.',
          default: 0,
          required: false,
          constraints: [{ custom_constraint: 'test_constr' }],
          update_allowed: true,
          immutable: false,
        },
        attr_wait_secs: {
          type: 'number',
          description: 'Number value for timeout during resolving output value.',
          default: 0,
          required: false,
          update_allowed: true,
          immutable: false,
        },
        value: {
          type: 'string',
          description: 'The input string to be stored.',
          default: 'test_string',
          required: false,
          update_allowed: true,
          immutable: false,
        },
        update_replace_value: {
          type: 'string',
          description: 'Some value that can be stored but can not be updated.',
          required: false,
          update_allowed: false,
          immutable: false,
        },
        action_wait_secs: {
          type: 'map',
          description: 'Options for simulating waiting.',
          schema: {
            create: {
              type: 'number',
              description: 'Seconds to wait after a create.',
              required: false,
              update_allowed: true,
              immutable: false,
            },
          },
          required: false,
          update_allowed: true,
          immutable: false,
        },
      },
      attributes: {
        output: {
          description:
            'The string that was stored. This value is also available by referencing the resource.',
        },
        show: { description: 'Detailed information about resource.', type: 'map' },
      },
      support_status: { status: 'SUPPORTED', message: null, version: '5.0.0', previous_status: null },
    };
    assert.equal(JSON.stringify(body), JSON.stringify(expected));
  });
  test('lists show their member schema under "*"; constraints in HOT form with descriptions', () => {
    const body = schemaToHeatJSON(
      'OS::Test',
      {
        ports: P.list({
          required: true,
          items: P.string({ constraints: [C.length({ min: 1 }, 'not empty'), C.allowedPattern('p.*')] }),
          constraints: [C.length({ max: 4 })],
        }),
        n: P.integer({ immutable: true, constraints: [C.range({ max: 9 }), C.modulo(2, 0)] }),
        ok: P.boolean({ constraints: [C.allowedValues([true])] }),
      },
      {},
    );
    assert.deepEqual(body.properties, {
      ports: {
        type: 'list',
        schema: {
          '*': {
            type: 'string',
            required: false,
            constraints: [{ description: 'not empty', length: { min: 1 } }, { allowed_pattern: 'p.*' }],
            update_allowed: false,
            immutable: false,
          },
        },
        required: true,
        constraints: [{ length: { max: 4 } }],
        update_allowed: false,
        immutable: false,
      },
      n: {
        type: 'integer',
        required: false,
        constraints: [{ range: { max: 9 } }, { modulo: { step: 2, offset: 0 } }],
        update_allowed: false,
        immutable: true,
      },
      ok: {
        type: 'boolean',
        required: false,
        constraints: [{ allowed_values: [true] }],
        update_allowed: false,
        immutable: false,
      },
    });
  });
  test('hidden properties and attributes are left out; support status history is shown', () => {
    const info = typeInfo(
      'OS::Old',
      { a: P.string(), b: P.string({ supportStatus: { status: 'HIDDEN' } }) },
      { x: attr('X'), y: { description: 'Y', supportStatus: { status: 'HIDDEN' } } },
      {
        description: 'An old type.',
        supportStatus: {
          status: 'DEPRECATED',
          version: '9.0.0',
          message: 'Use OS::New.',
          previousStatus: { version: '2014.1' },
        },
      },
    );
    const body = typeInfoToHeatJSON(info, { withDescription: true });
    assert.deepEqual(Object.keys(body.properties as object), ['a']);
    assert.deepEqual(Object.keys(body.attributes as object), ['x', 'show']);
    assert.deepEqual(body.support_status, {
      status: 'DEPRECATED',
      message: 'Use OS::New.',
      version: '9.0.0',
      previous_status: { status: 'SUPPORTED', message: null, version: '2014.1', previous_status: null },
    });
    assert.equal(body.description, 'An old type.');
    assert.equal(typeInfoToHeatJSON(info).description, undefined);
  });
});
