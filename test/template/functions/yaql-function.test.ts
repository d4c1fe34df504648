import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isUnknown, type Value } from '../../../src/template/functions/types.js';
import { yaql } from '../../../src/template/functions/yaql.js';
import { definer, errorOf, recorder } from '../support.js';
import { assertFunctionError, parse } from './harness.js';

const FILE = 'file:///t/t.yaml';

const define = definer(FILE);

/** The value `snippet` (YAML flow text) resolves to as property `x` of a resource, in `version`. */
function propertyValue(snippet: string, version = '2016-10-14', parameters = ''): Value {
  const seen: Value[] = [];
  define(
    `heat_template_version: ${version}
${parameters}resources:
  r:
    type: Test::Thing
    properties:
      x: ${snippet}
`,
    { types: recorder(seen) },
  );
  return (seen[0] as Record<string, Value>).x!;
}

describe('yaql through a stack definition', () => {
  test('an output with a valid expression validates', () => {
    const stack = define(`heat_template_version: 2016-10-14
outputs:
  doubled:
    value: {yaql: {expression: '$.data.list.select($ * 2)', data: {list: [1, 2]}}}
`);
    assert.deepEqual([...stack.outputs.keys()], ['doubled']);
  });

  test('the expression is evaluated with $.data bound to the data', () => {
    assert.deepEqual(
      propertyValue(`{yaql: {expression: '$.data.list.select($ * 2)', data: {list: [1, 2]}}}`),
      [2, 4],
    );
    assert.equal(propertyValue(`{yaql: {expression: '$.data.list.sum()', data: {list: [1, 2, 3]}}}`), 6);
    assert.equal(propertyValue(`{yaql: {expression: '$.data', data: 7}}`, 'wallaby'), 7);
  });

  test('data and the expression may come from functions', () => {
    const parameters = `parameters:
  nums: {type: json, default: [3, 4]}
  expr: {type: string, default: '$.data.max()'}
`;
    assert.equal(
      propertyValue(
        `{yaql: {expression: {get_param: expr}, data: {get_param: nums}}}`,
        '2017-09-01',
        parameters,
      ),
      4,
    );
  });

  test('without data, $.data is an empty map', () => {
    assert.deepEqual(propertyValue(`{yaql: {expression: '$.data'}}`), {});
  });

  test('a bad expression is a function error positioned at the output', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2016-10-14
outputs:
  broken:
    value: {yaql: {expression: '$.data.list.select(', data: {list: [1, 2]}}}
`),
    );
    assert.equal(err.kind, 'function');
    assert.deepEqual(err.path, ['outputs', 'broken', 'value']);
    assert.equal(err.file, FILE);
    assert.deepEqual(err.position, { line: 4, column: 5 });
    assert.equal(
      err.message,
      'file:///t/t.yaml:4:5: outputs.broken.value: yaql: unexpected end of expression (at column 20)',
    );
  });

  test('an evaluation error is a function error too', () => {
    const err = errorOf(() => propertyValue(`{yaql: {expression: '$.data.s + 1', data: {s: a}}}`));
    assert.equal(err.kind, 'function');
    assert.equal(
      err.message,
      'file:///t/t.yaml:6:7: resources.r.properties.x: yaql: cannot add string and integer (at column 10)',
    );
    const unknownFn = errorOf(() => propertyValue(`{yaql: {expression: 'nosuch($.data)'}}`));
    assert.equal(unknownFn.kind, 'function');
    assert.match(unknownFn.message, /: yaql: unknown function "nosuch" \(at column 1\)$/);
  });

  test('unknown data is no error: the value is unknown', () => {
    const parameters = `parameters:
  free: {type: json}
`;
    assert.ok(
      isUnknown(
        propertyValue(
          `{yaql: {expression: '$.data.s + 1', data: {get_param: free}}}`,
          '2016-10-14',
          parameters,
        ),
      ),
    );
    assert.ok(
      isUnknown(
        propertyValue(
          `{yaql: {expression: '$.data.s + 1', data: {s: {get_param: free}}}}`,
          '2016-10-14',
          parameters,
        ),
      ),
    );
    assert.ok(isUnknown(propertyValue(`{yaql: {expression: {get_param: free}}}`, '2016-10-14', parameters)));
    const stack = define(`heat_template_version: 2016-10-14
parameters:
  free: {type: json}
outputs:
  o: {value: {yaql: {expression: '$.data.nosuch()', data: {get_param: free}}}}
`);
    assert.equal(stack.outputs.size, 1);
  });

  test('not available before 2016-10-14', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2016-04-08
outputs:
  o: {value: {yaql: {expression: '$.data'}}}
`),
    );
    assert.equal(err.kind, 'version');
    assert.equal(
      err.message,
      'file:///t/t.yaml:3:7: outputs.o.value: function "yaql" is not available in heat_template_version 2016-04-08; it was introduced in heat_template_version 2016-10-14',
    );
  });

  test('a condition function from 2017-09-01', () => {
    const stack = define(`heat_template_version: 2017-09-01
conditions:
  big: {yaql: {expression: '$.data.n > 1', data: {n: 2}}}
`);
    assert.equal(stack.conditions.get('big'), true);
    const err = errorOf(() =>
      define(`heat_template_version: 2016-10-14
conditions:
  big: {yaql: {expression: '$.data.n > 1', data: {n: 2}}}
`),
    );
    assert.equal(err.kind, 'version');
    assert.equal(
      err.message,
      'file:///t/t.yaml:3:3: conditions.big: function "yaql" cannot be used in a condition in heat_template_version 2016-10-14',
    );
  });
});

describe('yaql argument shapes', () => {
  const FNS = { yaql };

  test('needs a map with "expression" and optionally "data"', () => {
    assertFunctionError(
      () => parse({ yaql: '$.data' }, FNS),
      /^outputs\.x\.value: yaql: arguments must be a map, got string$/,
    );
    assertFunctionError(() => parse({ yaql: ['$.data'] }, FNS), /arguments must be a map, got list$/);
    assertFunctionError(
      () => parse({ yaql: { data: 1 } }, FNS),
      /yaql: missing required argument "expression"$/,
    );
    assertFunctionError(
      () => parse({ yaql: { expression: '$', extra: 1 } }, FNS),
      /yaql: unknown argument "extra"; expected expression, data$/,
    );
    assertFunctionError(
      () => parse({ yaql: { expression: 3 } }, FNS),
      /yaql: the "expression" argument must be a string$/,
    );
    assertFunctionError(
      () => parse({ yaql: { expression: true } }, FNS),
      /the "expression" argument must be a string$/,
    );
  });

  test('an expression that resolves to a non-string is an error when resolved', () => {
    const err = errorOf(() => propertyValue(`{yaql: {expression: [a]}}`));
    assert.equal(err.kind, 'function');
    assert.match(
      err.message,
      /resources\.r\.properties\.x: yaql: the "expression" argument must be a string, got list$/,
    );
  });
});
