import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TemplateError } from '../../src/template/errors.js';
import { UNKNOWN } from '../../src/template/functions/types.js';
import {
  MASK,
  maskParameters,
  parseParameterGroups,
  parseParameterSchemas,
  resolveParameterValues,
  validateOutputParameter,
} from '../../src/template/parameters/index.js';
import type { Json } from '../../src/util/json.js';
import { parameterVersion } from './support.js';

const V = parameterVersion('2018-08-31');

const schemas = parseParameterSchemas(
  {
    flavor: {
      type: 'string',
      default: 'm1.small',
      constraints: [{ allowed_values: ['m1.small', 'm1.large'] }],
    },
    count: { type: 'number', constraints: [{ range: { min: 1, max: 5 } }] },
    ports: { type: 'comma_delimited_list', default: '80,443' },
    secret: { type: 'string', hidden: true },
    ip: { type: 'string', default: 'bad', constraints: [{ custom_constraint: 'ip_addr' }] },
  },
  V,
);
const noIp = new Map([...schemas].filter(([name]) => name !== 'ip'));

function throwsParam(fn: () => unknown, path: (string | number)[], message: RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof TemplateError);
    assert.equal(err.kind, 'parameter');
    assert.deepEqual(err.path, path);
    assert.match(err.detail, message);
    return true;
  });
}

describe('resolveParameterValues', () => {
  const pseudo = { 'OS::stack_name': 'web', 'OS::stack_id': 'abc-123' };

  test('supplied values are coerced; defaults fill in; pseudo parameters are included', () => {
    const values = resolveParameterValues(noIp, { count: '3', secret: 's3cr3t' }, { strict: true, pseudo });
    assert.deepEqual(Object.fromEntries(values), {
      flavor: 'm1.small',
      count: 3,
      ports: ['80', '443'],
      secret: 's3cr3t',
      'OS::stack_name': 'web',
      'OS::stack_id': 'abc-123',
      'OS::project_id': UNKNOWN,
      'OS::region': UNKNOWN,
    });
  });

  test('strict: a parameter without value or default is an error', () => {
    throwsParam(
      () => resolveParameterValues(noIp, { secret: 'x' }, { strict: true, pseudo }),
      ['parameters', 'count'],
      /^The Parameter \(count\) was not provided\.$/,
    );
  });

  test('non-strict: a missing value is UNKNOWN', () => {
    const values = resolveParameterValues(noIp, {}, { strict: false, pseudo: {} });
    assert.equal(values.get('count'), UNKNOWN);
    assert.equal(values.get('secret'), UNKNOWN);
    assert.equal(values.get('flavor'), 'm1.small');
    assert.equal(values.get('OS::stack_name'), UNKNOWN);
  });

  test('undeclared supplied names: an error when strict, ignored otherwise', () => {
    throwsParam(
      () => resolveParameterValues(noIp, { count: 1, secret: 'x', colour: 'red' }, { strict: true, pseudo }),
      ['parameters', 'colour'],
      /^The Parameter \(colour\) was not defined in template\.$/,
    );
    const values = resolveParameterValues(noIp, { colour: 'red' }, { strict: false, pseudo });
    assert.equal(values.has('colour'), false);
  });

  test('supplying a pseudo parameter is not allowed in strict mode', () => {
    throwsParam(
      () =>
        resolveParameterValues(
          noIp,
          { count: 1, secret: 'x', 'OS::stack_name': 'x' },
          { strict: true, pseudo },
        ),
      ['parameters', 'OS::stack_name'],
      /not defined in template/,
    );
  });

  test('supplied values are checked in both modes', () => {
    for (const strict of [true, false]) {
      throwsParam(
        () => resolveParameterValues(noIp, { count: 9 }, { strict, pseudo }),
        ['parameters', 'count'],
        /9 is out of range \(min: 1, max: 5\)/,
      );
      throwsParam(
        () => resolveParameterValues(noIp, { count: 'lots' }, { strict, pseudo }),
        ['parameters', 'count'],
        /must be a number/,
      );
    }
  });

  test('a null supplied value counts as not supplied', () => {
    const values = resolveParameterValues(
      noIp,
      { flavor: null, count: 2, secret: 'x' },
      { strict: true, pseudo },
    );
    assert.equal(values.get('flavor'), 'm1.small');
  });

  test('defaults get custom constraints checked when they become the value', () => {
    throwsParam(
      () => resolveParameterValues(schemas, { count: 1, secret: 'x' }, { strict: true, pseudo }),
      ['parameters', 'ip', 'default'],
      /Invalid IP address/,
    );
    const values = resolveParameterValues(
      schemas,
      { count: 1, secret: 'x', ip: '10.0.0.1' },
      { strict: true, pseudo },
    );
    assert.equal(values.get('ip'), '10.0.0.1');
  });

  test('parameter_defaults replace template defaults; undeclared ones are ignored', () => {
    const values = resolveParameterValues(
      noIp,
      { count: 1, secret: 'x' },
      { strict: true, pseudo, parameterDefaults: { flavor: 'm1.large', ports: ['22'], other: 1 } },
    );
    assert.equal(values.get('flavor'), 'm1.large');
    assert.deepEqual(values.get('ports'), ['22']);
    assert.equal(values.has('other'), false);
    throwsParam(
      () =>
        resolveParameterValues(
          noIp,
          { count: 1, secret: 'x' },
          { strict: true, pseudo, parameterDefaults: { flavor: 'x' } },
        ),
      ['parameters', 'flavor'],
      /not an allowed value/,
    );
  });

  test('names inherited from Object.prototype are not parameters', () => {
    const values = resolveParameterValues(noIp, {}, { strict: false, pseudo: {} });
    assert.equal(values.has('constructor'), false);
    throwsParam(
      () =>
        resolveParameterValues(noIp, { constructor: 'x' } as Record<string, Json>, { strict: true, pseudo }),
      ['parameters', 'constructor'],
      /not defined/,
    );
  });
});

describe('parseParameterGroups', () => {
  const groupError = (section: Json, path: (string | number)[], message: RegExp) =>
    assert.throws(
      () => parseParameterGroups(section, schemas),
      (err: unknown) => {
        assert.ok(err instanceof TemplateError);
        assert.equal(err.kind, 'schema');
        assert.deepEqual(err.path, path);
        assert.match(err.detail, message);
        return true;
      },
    );

  test('absent means no groups', () => {
    assert.deepEqual(parseParameterGroups(undefined, schemas), []);
    assert.deepEqual(parseParameterGroups(null, schemas), []);
  });

  test('groups are read', () => {
    assert.deepEqual(
      parseParameterGroups(
        [
          { label: 'Server', description: 'sizing', parameters: ['flavor', 'count'] },
          { parameters: ['secret'], extra: 'ignored' },
        ],
        schemas,
      ),
      [
        { label: 'Server', description: 'sizing', parameters: ['flavor', 'count'] },
        { parameters: ['secret'] },
      ],
    );
  });

  test('errors', () => {
    groupError({ parameters: [] }, ['parameter_groups'], /should be a list/);
    groupError(['flavor'], ['parameter_groups', 0], /should be a map/);
    groupError(
      [{ label: 'x' }],
      ['parameter_groups', 0],
      /The parameters must be provided for each parameter group/,
    );
    groupError([{ parameters: 'flavor' }], ['parameter_groups', 0, 'parameters'], /should be a list/);
    groupError(
      [{ parameters: ['flavor'] }, { parameters: ['count', 'flavor'] }],
      ['parameter_groups', 1, 'parameters', 1],
      /The flavor parameter must be assigned to one parameter group only/,
    );
    groupError(
      [{ parameters: ['flavour'] }],
      ['parameter_groups', 0, 'parameters', 0],
      /The grouped parameter flavour does not reference a valid parameter/,
    );
    groupError(
      [{ parameters: ['constructor'] }],
      ['parameter_groups', 0, 'parameters', 0],
      /does not reference/,
    );
    groupError([{ parameters: [1] }], ['parameter_groups', 0, 'parameters', 0], /does not reference/);
    groupError([{ label: 5, parameters: [] }], ['parameter_groups', 0, 'label'], /must be a string/);
  });
});

describe('validateOutputParameter', () => {
  const out = (definition: Json, value?: Json | typeof UNKNOWN) =>
    validateOutputParameter(parseParameterSchemas({ p: definition }, V).get('p')!, value);

  test('matches Heat’s recorded validate output', () => {
    // /work/shared/heat-api-samples/validate.txt, parameter "v".
    assert.deepEqual(
      JSON.stringify(
        out({
          type: 'string',
          default: 'one',
          description: 'a value',
          constraints: [{ length: { min: 1, max: 20 } }],
        }),
      ),
      JSON.stringify({
        Type: 'String',
        Description: 'a value',
        NoEcho: 'false',
        Label: 'p',
        Default: 'one',
        MinLength: 1,
        MaxLength: 20,
      }),
    );
  });

  test('type names, empty description, label', () => {
    const types: Record<string, string> = {
      string: 'String',
      number: 'Number',
      json: 'Json',
      comma_delimited_list: 'CommaDelimitedList',
      boolean: 'Boolean',
    };
    for (const [type, api] of Object.entries(types)) {
      assert.deepEqual(out({ type }), { Type: api, Description: '', NoEcho: 'false', Label: 'p' });
    }
    assert.equal(out({ type: 'string', label: 'Pretty' }).Label, 'Pretty');
  });

  test('every constraint key, tags and value', () => {
    assert.deepEqual(
      out(
        {
          type: 'number',
          default: 3,
          tags: ['a'],
          constraints: [
            { range: { min: 1, max: 9 }, description: 'small' },
            { modulo: { step: 2, offset: 1 }, description: 'odd' },
            { allowed_values: [1, 3, 5] },
            { custom_constraint: 'test_constr' },
          ],
        },
        5,
      ),
      {
        Type: 'Number',
        Description: '',
        NoEcho: 'false',
        Label: 'p',
        Default: 3,
        Value: 5,
        Tags: ['a'],
        MinValue: 1,
        MaxValue: 9,
        Step: 2,
        Offset: 1,
        AllowedValues: [1, 3, 5],
        CustomConstraint: 'test_constr',
        ConstraintDescription: 'small odd',
      },
    );
    assert.deepEqual(
      out({ type: 'string', constraints: [{ allowed_pattern: '[a-z]+' }] }).AllowedPattern,
      '[a-z]+',
    );
  });

  test('no Value for an unknown or absent value', () => {
    assert.equal('Value' in out({ type: 'string' }, UNKNOWN), false);
    assert.equal('Value' in out({ type: 'string' }), false);
  });

  test('hidden parameters show their template default as written (as Heat), never their value', () => {
    const o = out({ type: 'string', hidden: true, default: 's3cr3t' }, 'other-secret');
    assert.equal(o.NoEcho, 'true');
    assert.equal(o.Default, 's3cr3t');
    assert.equal(o.Value, MASK);
    assert.doesNotMatch(JSON.stringify(o), /other-secret/);
  });
});

describe('maskParameters', () => {
  test('hidden values are masked, others kept; accepts a Map or a record', () => {
    const values = resolveParameterValues(noIp, { count: 2, secret: 's3cr3t' }, { strict: true, pseudo: {} });
    const masked = maskParameters(noIp, values);
    assert.equal(masked.get('secret'), MASK);
    assert.equal(masked.get('count'), 2);
    assert.equal(masked.get('OS::stack_id'), UNKNOWN);
    assert.equal(values.get('secret'), 's3cr3t', 'the input is not modified');
    assert.equal(maskParameters(noIp, { secret: 'x', flavor: 'm1.small' }).get('secret'), MASK);
  });

  test('an unknown hidden value stays unknown', () => {
    assert.equal(maskParameters(noIp, new Map([['secret', UNKNOWN]])).get('secret'), UNKNOWN);
  });
});

describe('hidden values in errors', () => {
  const hidden = parseParameterSchemas(
    {
      pin: { type: 'string', hidden: true, constraints: [{ allowed_pattern: '[0-9]+' }] },
      n: {
        type: 'number',
        hidden: true,
        constraints: [{ range: { max: 5 } }, { modulo: { step: 2, offset: 0 } }],
      },
      doc: { type: 'json', hidden: true },
      flag: { type: 'boolean', hidden: true },
      host: { type: 'string', hidden: true, constraints: [{ custom_constraint: 'ip_addr' }] },
      word: { type: 'string', hidden: true, constraints: [{ allowed_values: ['yes'] }] },
    },
    V,
  );

  test('a hidden value that fails conversion or a constraint is masked in the message', () => {
    const cases: [string, Json, RegExp][] = [
      ['pin', 'hunter2x', /^"\*{6}" does not match pattern "\[0-9\]\+"$/],
      ['n', 'seven-secret', /^Value "\*{6}" is invalid for parameter "n": must be a number$/],
      ['n', 77, /^\*{6} is out of range \(min: None, max: 5\)$/],
      ['n', 3, /^\*{6} is not a multiple of 2 with an offset of 0$/],
      ['doc', '{"secret-json', /^Value "\*{6}" is invalid for parameter "doc": must be valid JSON$/],
      ['flag', 'secret-flag', /^Value "\*{6}" is invalid for parameter "flag": must be a boolean/],
      ['host', 'secret-host', /^Error validating value '\*{6}'$/],
      ['word', 'secret-word', /^\*{6} is not an allowed value \["yes"\]$/],
    ];
    for (const [name, bad, message] of cases) {
      assert.throws(
        () => resolveParameterValues(hidden, { [name]: bad }, { strict: false, pseudo: {} }),
        (err: unknown) => {
          assert.ok(err instanceof TemplateError);
          assert.deepEqual(err.path, ['parameters', name]);
          assert.match(err.detail, message);
          assert.ok(!err.message.includes(String(bad)), `${name}: ${err.message}`);
          return true;
        },
      );
    }
  });

  test('a hidden default that fails is masked', () => {
    assert.throws(
      () =>
        parseParameterSchemas(
          {
            pin: { type: 'string', hidden: true, default: 'hunter2x', constraints: [{ length: { max: 3 } }] },
          },
          V,
        ),
      (err: unknown) => {
        assert.ok(err instanceof TemplateError);
        assert.match(err.detail, /^Invalid default \*{6} \(length \(8\) is out of range/);
        assert.ok(!err.message.includes('hunter2x'));
        return true;
      },
    );
  });
});
