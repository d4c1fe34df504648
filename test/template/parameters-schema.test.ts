import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TemplateError } from '../../src/template/errors.js';
import { parseParameterSchemas } from '../../src/template/parameters/index.js';
import type { Json } from '../../src/util/json.js';
import { parameterVersion } from './support.js';

const V = parameterVersion('2018-03-02');

function parse(section: Json | undefined, v = V) {
  return parseParameterSchemas(section, v);
}

function throwsAt(fn: () => unknown, kind: string, path: (string | number)[], message?: RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof TemplateError, `expected TemplateError, got ${String(err)}`);
    assert.equal(err.kind, kind);
    assert.deepEqual(err.path, path);
    if (message) assert.match(err.detail, message);
    return true;
  });
}

describe('parseParameterSchemas: the section', () => {
  test('absent or null means no parameters', () => {
    assert.equal(parse(undefined).size, 0);
    assert.equal(parse(null).size, 0);
  });

  test('must be a map', () => {
    throwsAt(() => parse(['a']), 'schema', ['parameters'], /must be a map, not a list/);
  });

  test('a full definition is read', () => {
    const s = parse({
      flavor: {
        type: 'string',
        description: 'Flavor',
        label: 'Flavor name',
        default: 'm1.small',
        hidden: true,
        immutable: true,
        tags: ['compute'],
        constraints: [{ allowed_values: ['m1.small', 'm1.large'], description: 'pick one' }],
      },
    }).get('flavor');
    assert.deepEqual(s, {
      name: 'flavor',
      type: 'string',
      description: 'Flavor',
      label: 'Flavor name',
      default: 'm1.small',
      hasDefault: true,
      hidden: true,
      immutable: true,
      tags: ['compute'],
      constraints: [{ kind: 'allowed_values', values: ['m1.small', 'm1.large'], description: 'pick one' }],
    });
  });

  test('defaults: hidden and immutable false, null default means no default', () => {
    const s = parse({ a: { type: 'number', default: null } }).get('a')!;
    assert.equal(s.hidden, false);
    assert.equal(s.immutable, false);
    assert.equal(s.hasDefault, false);
    assert.equal(s.default, undefined);
    assert.deepEqual(s.constraints, []);
  });

  test('keeps declaration order', () => {
    assert.deepEqual([...parse({ z: { type: 'string' }, a: { type: 'string' } }).keys()], ['z', 'a']);
  });

  test('every type is accepted', () => {
    for (const type of ['string', 'number', 'json', 'comma_delimited_list', 'boolean']) {
      assert.equal(parse({ p: { type } }).get('p')!.type, type);
    }
  });

  test('names that look like Object.prototype members are ordinary parameters', () => {
    const section = JSON.parse('{"__proto__": {"type": "string"}, "constructor": {"type": "number"}}');
    const s = parse(section);
    assert.deepEqual([...s.keys()], ['__proto__', 'constructor']);
    assert.equal(s.get('constructor')!.type, 'number');
    assert.equal(({} as Record<string, unknown>).type, undefined);
  });

  test('pseudo parameters cannot be declared', () => {
    throwsAt(() => parse({ 'OS::stack_name': { type: 'string' } }), 'schema', [
      'parameters',
      'OS::stack_name',
    ]);
  });
});

describe('parseParameterSchemas: definition errors', () => {
  test('definition must be a map', () => {
    throwsAt(() => parse({ a: 'string' }), 'schema', ['parameters', 'a'], /expected a map/);
  });

  test('type is required and must be known', () => {
    throwsAt(() => parse({ a: { default: 1 } }), 'schema', ['parameters', 'a'], /Missing parameter type/);
    throwsAt(
      () => parse({ a: { type: 'integer' } }),
      'schema',
      ['parameters', 'a', 'type'],
      /Invalid type \(integer\)/,
    );
    throwsAt(() => parse({ a: { type: 5 } }), 'schema', ['parameters', 'a', 'type']);
  });

  test('unknown keys name the key and the version', () => {
    throwsAt(
      () => parse({ a: { type: 'string', required: true } }),
      'schema',
      ['parameters', 'a', 'required'],
      /"required".*2018-03-02.*valid keys are: type, description/,
    );
  });

  test('tags before 2018-03-02 is an error naming the versions', () => {
    throwsAt(
      () => parse({ a: { type: 'string', tags: ['x'] } }, parameterVersion('2017-09-01')),
      'schema',
      ['parameters', 'a', 'tags'],
      /"tags".*heat_template_version 2017-09-01.*available from heat_template_version 2018-03-02/,
    );
  });

  test('tags must be a list of strings', () => {
    throwsAt(
      () => parse({ a: { type: 'string', tags: 'x' } }),
      'schema',
      ['parameters', 'a', 'tags'],
      /list/,
    );
    throwsAt(() => parse({ a: { type: 'string', tags: [1] } }), 'schema', ['parameters', 'a', 'tags', 0]);
  });

  test('hidden and immutable must be booleans', () => {
    throwsAt(() => parse({ a: { type: 'string', hidden: 'yes' } }), 'schema', ['parameters', 'a', 'hidden']);
    throwsAt(() => parse({ a: { type: 'string', immutable: 1 } }), 'schema', [
      'parameters',
      'a',
      'immutable',
    ]);
  });

  test('description and label must be strings', () => {
    throwsAt(() => parse({ a: { type: 'string', description: 5 } }), 'schema', [
      'parameters',
      'a',
      'description',
    ]);
    throwsAt(() => parse({ a: { type: 'string', label: [] } }), 'schema', ['parameters', 'a', 'label']);
  });

  test('the schema key is accepted and ignored, as Heat does', () => {
    assert.equal(parse({ a: { type: 'json', schema: { x: 1 } } }).get('a')!.type, 'json');
  });
});

describe('parseParameterSchemas: constraints', () => {
  const c = (type: string, constraints: Json, v = V) =>
    parse({ p: { type, constraints } }, v).get('p')!.constraints;
  const at = (...rest: (string | number)[]) => ['parameters', 'p', 'constraints', ...rest];

  test('each kind is read', () => {
    assert.deepEqual(c('string', [{ length: { min: 1, max: 20 } }]), [{ kind: 'length', min: 1, max: 20 }]);
    assert.deepEqual(c('number', [{ range: { min: 1 } }]), [{ kind: 'range', min: 1 }]);
    assert.deepEqual(c('number', [{ range: { max: '2.5' } }]), [{ kind: 'range', max: 2.5 }]);
    assert.deepEqual(c('number', [{ modulo: { step: 2, offset: 1 } }]), [
      { kind: 'modulo', step: 2, offset: 1 },
    ]);
    assert.deepEqual(c('string', [{ allowed_pattern: '[a-z]+' }]), [
      { kind: 'allowed_pattern', pattern: '[a-z]+' },
    ]);
    assert.deepEqual(c('string', [{ custom_constraint: 'nova.flavor', description: 'd' }]), [
      { kind: 'custom_constraint', name: 'nova.flavor', description: 'd' },
    ]);
  });

  test('constraints must be a list of maps', () => {
    throwsAt(() => c('string', { length: { min: 1 } }), 'schema', at(), /expected a list/);
    throwsAt(() => c('string', ['length']), 'schema', at(0), /expected a map/);
  });

  test('a constraint needs exactly one kind', () => {
    throwsAt(() => c('string', [{ description: 'x' }]), 'schema', at(0), /No constraint expressed/);
    throwsAt(() => c('string', [{ length: { min: 1 }, allowed_pattern: 'x' }]), 'schema', at(0), /only one/);
  });

  test('unknown constraint keys', () => {
    throwsAt(() => c('string', [{ lenght: { min: 1 } }]), 'schema', at(0, 'lenght'), /"lenght"/);
  });

  test('modulo before 2017-02-24 is an error naming the versions', () => {
    throwsAt(
      () => c('number', [{ modulo: { step: 2, offset: 0 } }], parameterVersion('2016-10-14')),
      'schema',
      at(0, 'modulo'),
      /heat_template_version 2016-10-14.*available from heat_template_version 2017-02-24/,
    );
    assert.equal(c('number', [{ modulo: { step: 2, offset: 0 } }], parameterVersion('2017-02-24')).length, 1);
  });

  test('range and length bounds', () => {
    throwsAt(() => c('number', [{ range: 5 }]), 'schema', at(0, 'range'), /expected a map/);
    throwsAt(
      () => c('number', [{ range: { low: 1 } }]),
      'schema',
      at(0, 'range', 'low'),
      /Invalid key "low"/,
    );
    throwsAt(() => c('number', [{ range: {} }]), 'schema', at(0, 'range'), /min value and\/or a max value/);
    throwsAt(() => c('number', [{ range: { min: 'one' } }]), 'schema', at(0, 'range', 'min'), /numeric/);
    throwsAt(() => c('number', [{ range: { min: true } }]), 'schema', at(0, 'range', 'min'), /numeric/);
    throwsAt(() => c('string', [{ length: { max: 2.5 } }]), 'schema', at(0, 'length', 'max'), /integral/);
    throwsAt(() => c('string', [{ length: {} }]), 'schema', at(0, 'length'), /length constraint must have/);
  });

  test('modulo rules', () => {
    const m = (body: Json) => c('number', [{ modulo: body }]);
    throwsAt(() => m({ step: 2 }), 'schema', at(0, 'modulo'), /step value and an offset value/);
    throwsAt(() => m({ step: 0, offset: 0 }), 'schema', at(0, 'modulo', 'step'), /step cannot be 0/);
    throwsAt(() => m({ step: 2, offset: 2 }), 'schema', at(0, 'modulo', 'offset'), /smaller/);
    throwsAt(() => m({ step: 2, offset: -1 }), 'schema', at(0, 'modulo'), /both positive or both negative/);
    throwsAt(() => m({ step: 2.5, offset: 1 }), 'schema', at(0, 'modulo'), /integer/);
    throwsAt(() => m({ step: 2, offset: 1, extra: 1 }), 'schema', at(0, 'modulo', 'extra'));
    assert.deepEqual(m({ step: -3, offset: -1 }), [{ kind: 'modulo', step: -3, offset: -1 }]);
  });

  test('allowed_values must be a list, allowed_pattern a valid pattern', () => {
    throwsAt(
      () => c('string', [{ allowed_values: 'a' }]),
      'schema',
      at(0, 'allowed_values'),
      /must be a list/,
    );
    throwsAt(
      () => c('string', [{ allowed_pattern: 5 }]),
      'schema',
      at(0, 'allowed_pattern'),
      /must be a string/,
    );
    throwsAt(
      () => c('string', [{ allowed_pattern: '([a-z' }]),
      'schema',
      at(0, 'allowed_pattern'),
      /Invalid/,
    );
  });

  test('custom_constraint must be a known name', () => {
    throwsAt(
      () => c('string', [{ custom_constraint: 'nova.flavour' }]),
      'schema',
      at(0, 'custom_constraint'),
      /unknown custom constraint "nova.flavour"/,
    );
    throwsAt(() => c('string', [{ custom_constraint: 1 }]), 'schema', at(0, 'custom_constraint'), /string/);
  });

  test('constraints only apply to the types Heat allows', () => {
    throwsAt(() => c('number', [{ length: { min: 1 } }]), 'schema', at(0, 'length'), /not valid.*number/);
    throwsAt(() => c('boolean', [{ length: { min: 1 } }]), 'schema', at(0, 'length'));
    throwsAt(() => c('string', [{ range: { min: 1 } }]), 'schema', at(0, 'range'));
    throwsAt(() => c('string', [{ modulo: { step: 2, offset: 1 } }]), 'schema', at(0, 'modulo'));
    throwsAt(() => c('number', [{ allowed_pattern: '1' }]), 'schema', at(0, 'allowed_pattern'));
    throwsAt(() => c('json', [{ allowed_values: [] }]), 'schema', at(0, 'allowed_values'));
    throwsAt(() => c('json', [{ custom_constraint: 'ip_addr' }]), 'schema', at(0, 'custom_constraint'));
    for (const type of ['string', 'comma_delimited_list', 'json'])
      assert.equal(c(type, [{ length: { min: 0 } }]).length, 1);
    for (const type of ['string', 'number', 'boolean', 'comma_delimited_list']) {
      assert.equal(c(type, [{ allowed_values: [] }, { custom_constraint: 'test_constr' }]).length, 2);
    }
  });
});

describe('parseParameterSchemas: defaults are checked', () => {
  const at = ['parameters', 'p', 'default'];

  test('a default must fit the type', () => {
    throwsAt(
      () => parse({ p: { type: 'number', default: 'many' } }),
      'parameter',
      at,
      /Invalid default many/,
    );
    throwsAt(() => parse({ p: { type: 'boolean', default: 'maybe' } }), 'parameter', at);
    throwsAt(() => parse({ p: { type: 'json', default: 'not json' } }), 'parameter', at, /valid JSON/);
    throwsAt(() => parse({ p: { type: 'comma_delimited_list', default: 5 } }), 'parameter', at);
  });

  test('a default must satisfy the constraints', () => {
    throwsAt(
      () => parse({ p: { type: 'number', default: 4, constraints: [{ modulo: { step: 2, offset: 1 } }] } }),
      'parameter',
      at,
      /Invalid default 4 \(4 is not a multiple of 2 with an offset of 1\)/,
    );
    throwsAt(
      () =>
        parse({
          p: { type: 'string', default: '', constraints: [{ length: { min: 1 }, description: 'needed' }] },
        }),
      'parameter',
      at,
      /\(needed\)/,
    );
    throwsAt(
      () =>
        parse({
          p: { type: 'comma_delimited_list', default: 'a,z', constraints: [{ allowed_values: ['a'] }] },
        }),
      'parameter',
      at,
    );
  });

  test('valid defaults pass, and numeric strings are fine for numbers', () => {
    const s = parse({ p: { type: 'number', default: '5', constraints: [{ range: { min: 1, max: 10 } }] } });
    assert.equal(s.get('p')!.default, '5');
  });

  test('custom constraints are not applied to defaults at parse time, as in Heat', () => {
    const s = parse({
      p: { type: 'string', default: 'not-an-ip', constraints: [{ custom_constraint: 'ip_addr' }] },
    });
    assert.equal(s.get('p')!.hasDefault, true);
  });
});
