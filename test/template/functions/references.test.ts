import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  getAttr,
  getAttrAll,
  getAttrThenSelect,
  getFile,
  getParam,
  getResource,
  resourceFacade,
  selectPath,
} from '../../../src/template/functions/references.js';
import { FnCall, type Value } from '../../../src/template/functions/types.js';
import { type DefineOptions, defineStackFromText } from '../../../src/template/stack-definition.js';
import type { Json } from '../../../src/util/json.js';
import { errorOf, recorder } from '../support.js';
import { assertFunctionError, assertUnknown, evaluate, parse, UNKNOWN } from './harness.js';

const PARAM = { get_param: getParam };
const RESOURCE = { get_resource: getResource };
const SELECT = { get_attr: getAttrThenSelect, get_param: getParam };
const PATH = { get_attr: getAttr, get_param: getParam };
const ALL = { get_attr: getAttrAll, get_param: getParam };
const FACADE = { resource_facade: resourceFacade };

const params = {
  s: 'abc',
  n: 42,
  l: ['a', 'b', 'c'],
  j: { a: [10, { b: 'x' }], n: null, '1': 'one' },
  u: UNKNOWN,
  idx: 1,
};

describe('selectPath', () => {
  test('follows keys into maps and indexes into lists', () => {
    const value: Value = { a: [10, { b: 'x' }] };
    assert.equal(selectPath(value, ['a', 1, 'b'], null), 'x');
    assert.equal(selectPath(value, ['a', '1', 'b'], null), 'x');
    assert.equal(selectPath(value, ['a', 0], null), 10);
    assert.deepEqual(selectPath(value, [], null), value);
  });

  test('negative indexes count from the end, as Python does', () => {
    assert.equal(selectPath(['a', 'b', 'c'], [-1], null), 'c');
    assert.equal(selectPath(['a', 'b', 'c'], ['-3'], null), 'a');
    assert.equal(selectPath(['a', 'b', 'c'], [-4], 'missing'), 'missing');
  });

  test('a step that does not exist yields the given missing value', () => {
    assert.equal(selectPath({ a: 1 }, ['b'], ''), '');
    assert.equal(selectPath({ a: 1 }, ['b'], null), null);
    assert.equal(selectPath(['a'], [1], ''), '');
    assert.equal(selectPath(['a'], ['x'], ''), '');
    assert.equal(selectPath(['a'], [0.5], ''), '');
    assert.equal(selectPath('abc', ['a'], ''), '');
    assert.equal(selectPath(null, ['a'], 'none'), 'none');
    assert.equal(selectPath(7, [0], ''), '');
    assert.equal(selectPath({ a: 1 }, [['a']], ''), '');
    assert.equal(selectPath({ a: 1 }, [null], ''), '');
    assert.equal(selectPath({ a: { b: 1 } }, ['a', 'b', 'c'], ''), '');
  });

  test('inherited properties are not keys', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      assert.equal(selectPath({}, [key], ''), '');
    }
    const own: Value = {};
    Object.defineProperty(own, '__proto__', { value: 'mine', enumerable: true });
    assert.equal(selectPath(own, ['__proto__'], ''), 'mine');
  });

  test('strings are sequences: an index selects a character, as in Python', () => {
    assert.equal(selectPath('abc', [1], ''), 'b');
    assert.equal(selectPath('abc', ['-1'], ''), 'c');
    assert.equal(selectPath('abc', [3], ''), '');
    assert.equal(selectPath('abc', ['a'], ''), '');
    assert.equal(selectPath({ s: 'abc' }, ['s', 0, 0], ''), 'a');
  });

  test('map keys are strings: an integer step finds nothing', () => {
    assert.equal(selectPath({ '1': 'one' }, [1], ''), '');
    assert.equal(selectPath({ '1': 'one' }, ['1'], ''), 'one');
  });

  test('string indexes into sequences only when asked (get_param yes, get_attr no)', () => {
    assert.equal(selectPath(['a', 'b'], ['1'], null), 'b');
    assert.equal(selectPath(['a', 'b'], ['1'], null, false), null);
    assert.equal(selectPath(['a', 'b'], [1], null, false), 'b');
    assert.equal(selectPath('ab', ['1'], null, false), null);
    assert.equal(selectPath(['a', 'b'], [''], null), null);
    assert.equal(selectPath(['a', 'b'], [' '], null), null);
  });

  // Python's int() takes '1', ' 1 ' and '-1' but not '0x1', '1e0' or '1.0'; get_param then yields ''.
  test('a string index is read as Python int() reads it', () => {
    for (const step of ['0x1', '1e0', '1.0', '0b1'])
      assert.equal(selectPath(['a', 'b'], [step], ''), '', step);
  });

  test('a null found at the end of the path is a value, not a missing step', () => {
    assert.equal(selectPath({ n: null }, ['n'], ''), null);
  });

  test('an unknown value or step makes the result unknown', () => {
    assertUnknown(selectPath(UNKNOWN, ['a'], ''));
    assertUnknown(selectPath({ a: UNKNOWN }, ['a', 'b'], ''));
    assertUnknown(selectPath({ a: 1 }, [UNKNOWN], ''));
    assertUnknown(selectPath([1, 2], [0, UNKNOWN], ''));
    // The unknown part is reached only through a step; a missing step before it is still missing.
    assert.equal(selectPath({ a: UNKNOWN }, ['b', 'c'], ''), '');
    assertUnknown(selectPath({ a: UNKNOWN }, ['a'], ''));
  });
});

describe('get_param', () => {
  test('a plain parameter', () => {
    assert.equal(evaluate({ get_param: 's' }, PARAM, { params }), 'abc');
    assert.equal(evaluate({ get_param: 'n' }, PARAM, { params }), 42);
    assert.deepEqual(evaluate({ get_param: 'l' }, PARAM, { params }), ['a', 'b', 'c']);
    assert.deepEqual(evaluate({ get_param: ['l'] }, PARAM, { params }), ['a', 'b', 'c']);
  });

  test('a path into json and list parameters, with string and integer indexes', () => {
    assert.equal(evaluate({ get_param: ['j', 'a', 1, 'b'] }, PARAM, { params }), 'x');
    assert.equal(evaluate({ get_param: ['j', 'a', '1', 'b'] }, PARAM, { params }), 'x');
    assert.equal(evaluate({ get_param: ['j', 'a', 0] }, PARAM, { params }), 10);
    assert.equal(evaluate({ get_param: ['l', 2] }, PARAM, { params }), 'c');
    assert.equal(evaluate({ get_param: ['l', '0'] }, PARAM, { params }), 'a');
    assert.equal(evaluate({ get_param: ['l', -1] }, PARAM, { params }), 'c');
    assert.equal(evaluate({ get_param: ['j', 'n'] }, PARAM, { params }), null);
  });

  test('path steps and the name may come from functions', () => {
    assert.equal(evaluate({ get_param: ['l', { get_param: 'idx' }] }, PARAM, { params }), 'b');
    assert.equal(
      evaluate({ get_param: { get_param: 's' } }, PARAM, { params: { ...params, abc: 'via' } }),
      'via',
    );
  });

  test('a missing path step yields "" as in Heat', () => {
    assert.equal(evaluate({ get_param: ['j', 'nope'] }, PARAM, { params }), '');
    assert.equal(evaluate({ get_param: ['j', 'a', 5] }, PARAM, { params }), '');
    assert.equal(evaluate({ get_param: ['l', 3] }, PARAM, { params }), '');
    assert.equal(evaluate({ get_param: ['l', 'x'] }, PARAM, { params }), '');
    assert.equal(evaluate({ get_param: ['n', 'a'] }, PARAM, { params }), '');
    assert.equal(evaluate({ get_param: ['j', 'n', 'deeper'] }, PARAM, { params }), '');
    assert.equal(evaluate({ get_param: ['j', 'constructor'] }, PARAM, { params }), '');
    assert.equal(evaluate({ get_param: ['j', ['a']] }, PARAM, { params }), '');
  });

  // Heat's get_path_component indexes any Sequence, and a Python str is one: get_param: [s, 1] is 'b'.
  test('a path step into a string parameter indexes the string, as Heat does', () => {
    assert.equal(evaluate({ get_param: ['s', 1] }, PARAM, { params }), 'b');
  });

  // Heat's json parameter is a dict with string keys: collection[1] raises KeyError, caught as ''.
  test('an integer step into a map does not match a string key, as in Heat', () => {
    assert.equal(evaluate({ get_param: ['j', 1] }, PARAM, { params }), '');
  });

  test('an unknown parameter, or an unknown path step, is unknown', () => {
    assertUnknown(evaluate({ get_param: 'u' }, PARAM, { params }));
    assertUnknown(evaluate({ get_param: ['u', 'a', 0] }, PARAM, { params }));
    assertUnknown(evaluate({ get_param: ['j', { get_param: 'u' }] }, PARAM, { params }));
    assertUnknown(evaluate({ get_param: { get_param: 'u' } }, PARAM, { params }));
    assertUnknown(evaluate({ get_param: ['j', 'a', 1, 'b'] }, PARAM, { params: { j: { a: [0, UNKNOWN] } } }));
  });

  test('argument shapes are checked when the template is parsed', () => {
    assertFunctionError(
      () => parse({ get_param: [] }, PARAM),
      /^outputs\.x\.value: get_param: expected a parameter name$/,
    );
    assertFunctionError(
      () => parse({ get_param: 3 }, PARAM),
      /^outputs\.x\.value: get_param: argument must be a parameter name or a list \[name, path\.\.\.\], got number$/,
    );
    assertFunctionError(() => parse({ get_param: null }, PARAM), /got null$/);
    assertFunctionError(() => parse({ get_param: true }, PARAM), /got boolean$/);
  });

  test('a name that is not a string is a function error at resolve time', () => {
    assertFunctionError(
      () => evaluate({ get_param: [['s']] }, PARAM, { params }),
      /^outputs\.x\.value: get_param: the parameter name must be a string, got list$/,
    );
    assertFunctionError(() => evaluate({ get_param: { a: 1 } }, PARAM, { params }), /got map$/);
  });

  test('an undeclared parameter is a reference error at the call', () => {
    const err = errorOf(() => evaluate({ get_param: ['nope', 'a'] }, PARAM, { params }));
    assert.equal(err.kind, 'reference');
    assert.deepEqual(err.path, ['outputs', 'x', 'value']);
  });

  test('through a template: the undeclared parameter is named with file, line, column and path', () => {
    const err = errorOf(() =>
      defineStackFromText(
        'file:///t/t.yaml',
        `heat_template_version: 2018-08-31
parameters:
  known: {type: json, default: {a: 1}}
outputs:
  o:
    value: {get_param: [nope, a]}
`,
      ),
    );
    assert.equal(err.kind, 'reference');
    assert.deepEqual(err.path, ['outputs', 'o', 'value']);
    assert.equal(
      err.message,
      'file:///t/t.yaml:6:5: outputs.o.value: the parameter "nope" is not defined in the template',
    );
  });

  test('through a template: pseudo parameters are known names with unknown values', () => {
    const seen: Value[] = [];
    defineStackFromText(
      'file:///t/t.yaml',
      `heat_template_version: 2018-08-31
resources:
  r:
    type: Test::Thing
    properties:
      a: {get_param: OS::stack_name}
      b: {get_param: OS::stack_id}
`,
      { types: recorder(seen), stackName: 'mystack' },
    );
    assert.equal((seen[0] as Record<string, Value>).a, 'mystack');
    assertUnknown((seen[0] as Record<string, Value>).b!);
  });
});

describe('get_resource', () => {
  test('yields the reference id of the resource', () => {
    assert.equal(evaluate({ get_resource: 'web' }, RESOURCE, { resources: { web: 'id-1' } }), 'id-1');
    assertUnknown(evaluate({ get_resource: 'web' }, RESOURCE, { resources: { web: UNKNOWN } }));
  });

  test('names the resource it refers to, for the dependency graph', () => {
    const call = parse({ get_resource: 'web' }, RESOURCE);
    assert.ok(call instanceof FnCall);
    assert.equal(call.def.referencedResource?.(call), 'web');
  });

  test('needs a literal, non-empty resource name', () => {
    const message = /^outputs\.x\.value: get_resource: the argument must be a resource name \(a string\)$/;
    for (const args of [['web'], { get_param: 's' }, 3, null, '', true] as Json[]) {
      assertFunctionError(() => parse({ get_resource: args }, { ...RESOURCE, ...PARAM }), message);
    }
  });

  test('a missing resource is a reference error at the call', () => {
    const err = errorOf(() => evaluate({ get_resource: 'nope' }, RESOURCE, { resources: {} }));
    assert.equal(err.kind, 'reference');
    assert.deepEqual(err.path, ['outputs', 'x', 'value']);
  });

  test('through a template: the error names the resource with position and path', () => {
    const err = errorOf(() =>
      defineStackFromText(
        'file:///t/t.yaml',
        `heat_template_version: 2015-10-15
resources:
  a:
    type: Test::Thing
    properties:
      x: {get_resource: missing}
`,
        { types: recorder([]) },
      ),
    );
    assert.equal(err.kind, 'reference');
    assert.equal(
      err.message,
      'file:///t/t.yaml:6:7: resources.a.properties.x: the specified reference "missing" is not a resource of this template',
    );
  });
});

describe('get_attr', () => {
  const attributes = {
    web: {
      addresses: { private: [{ addr: '10.0.0.1' }, { addr: '10.0.0.2' }] },
      name: 'web-1',
      nothing: null,
    },
    later: { x: UNKNOWN },
  };
  const stack = { attributes, params };

  for (const [label, fns] of [
    ['2013-05-23 (select)', SELECT],
    ['2014-10-16 (path)', PATH],
    ['2015-10-15+ (all)', ALL],
  ] as const) {
    describe(label, () => {
      test('reads one attribute', () => {
        assert.equal(evaluate({ get_attr: ['web', 'name'] }, fns, stack), 'web-1');
        assert.equal(evaluate({ get_attr: ['web', 'nothing'] }, fns, stack), null);
      });

      test('selects a path into maps and lists', () => {
        assert.equal(
          evaluate({ get_attr: ['web', 'addresses', 'private', 1, 'addr'] }, fns, stack),
          '10.0.0.2',
        );
        assert.deepEqual(evaluate({ get_attr: ['web', 'addresses', 'private', 0] }, fns, stack), {
          addr: '10.0.0.1',
        });
      });

      test('a missing path step yields null', () => {
        assert.equal(evaluate({ get_attr: ['web', 'addresses', 'public'] }, fns, stack), null);
        assert.equal(evaluate({ get_attr: ['web', 'addresses', 'private', 2, 'addr'] }, fns, stack), null);
        assert.equal(evaluate({ get_attr: ['web', 'name', 'x'] }, fns, stack), null);
        assert.equal(evaluate({ get_attr: ['web', 'nothing', 0] }, fns, stack), null);
      });

      test('the attribute name and path steps may come from functions', () => {
        const p = { ...params, attr: 'addresses', key: 'private' };
        assert.deepEqual(
          evaluate({ get_attr: ['web', { get_param: 'attr' }, { get_param: 'key' }, 0] }, fns, {
            attributes,
            params: p,
          }),
          { addr: '10.0.0.1' },
        );
      });

      test('unknown attribute values, names and steps are unknown', () => {
        assertUnknown(evaluate({ get_attr: ['later', 'x'] }, fns, stack));
        assertUnknown(evaluate({ get_attr: ['later', 'x', 'deeper', 0] }, fns, stack));
        assertUnknown(evaluate({ get_attr: ['web', { get_param: 'u' }] }, fns, stack));
        assertUnknown(evaluate({ get_attr: ['web', 'addresses', { get_param: 'u' }] }, fns, stack));
      });

      test('an attribute name that is not a string is a function error', () => {
        assertFunctionError(
          () => evaluate({ get_attr: ['web', { get_param: 'l' }] }, fns, stack),
          /^outputs\.x\.value: get_attr: the attribute name must be a string, got list$/,
        );
      });

      test('the resource name must be a literal string', () => {
        const message =
          /^outputs\.x\.value: get_attr: the first argument must be a resource name \(a string\)$/;
        assertFunctionError(() => parse({ get_attr: [{ get_param: 's' }, 'name'] }, fns), message);
        assertFunctionError(() => parse({ get_attr: [3, 'name'] }, fns), message);
        assertFunctionError(() => parse({ get_attr: ['', 'name'] }, fns), message);
      });

      test('the arguments must be a list', () => {
        assertFunctionError(
          () => parse({ get_attr: 'web' }, fns),
          /^outputs\.x\.value: get_attr: arguments must be a list, got string$/,
        );
        assertFunctionError(
          () => parse({ get_attr: { web: 'name' } }, fns),
          /arguments must be a list, got map$/,
        );
      });

      test('names the resource it refers to', () => {
        const call = parse({ get_attr: ['web', 'name', 0] }, fns);
        assert.ok(call instanceof FnCall);
        assert.equal(call.def.referencedResource?.(call), 'web');
      });
    });
  }

  // Heat's select_from_attribute does collection[key] with no int() conversion: a list indexed by
  // the string '0' raises TypeError, caught as None (get_param, by contrast, converts).
  test('a string step into a list attribute selects nothing, as in Heat', () => {
    assert.equal(evaluate({ get_attr: ['web', 'addresses', 'private', '0', 'addr'] }, ALL, stack), null);
  });

  test('before 2015-10-15, [resource] alone is an error', () => {
    for (const fns of [SELECT, PATH]) {
      assertFunctionError(
        () => parse({ get_attr: ['web'] }, fns),
        /^outputs\.x\.value: get_attr: expected at least 2 arguments, got 1$/,
      );
    }
  });

  test('2015-10-15+: [resource] alone yields every attribute as a map', () => {
    assert.deepEqual(evaluate({ get_attr: ['web'] }, ALL, { attributes }), attributes.web);
    assertUnknown(evaluate({ get_attr: ['web'] }, ALL, { attributes: { web: UNKNOWN } as never }));
    assertFunctionError(() => parse({ get_attr: [] }, ALL), /expected at least 1 arguments, got 0$/);
  });

  test('a missing resource is a reference error at the call', () => {
    for (const fns of [SELECT, PATH, ALL]) {
      const err = errorOf(() => evaluate({ get_attr: ['nope', 'name'] }, fns, stack));
      assert.equal(err.kind, 'reference');
      assert.deepEqual(err.path, ['outputs', 'x', 'value']);
    }
  });

  test('through a template: an attribute the type lacks is a reference error', () => {
    const err = errorOf(() =>
      defineStackFromText(
        'file:///t/t.yaml',
        `heat_template_version: 2013-05-23
resources:
  a: {type: Test::Thing}
outputs:
  o: {value: {get_attr: [a, nope]}}
`,
        { types: recorder([]) },
      ),
    );
    assert.equal(err.kind, 'reference');
    assert.equal(
      err.message,
      'file:///t/t.yaml:5:7: outputs.o.value: resource "a" (Test::Thing) has no attribute "nope"',
    );
  });

  test('through a template: every variant validates, [res] only from 2015-10-15', () => {
    const template = (version: string, args: string) => `heat_template_version: ${version}
resources:
  a: {type: Test::Thing}
outputs:
  o: {value: {get_attr: ${args}}}
`;
    const options: DefineOptions = { types: recorder([]) };
    for (const version of ['2013-05-23', '2014-10-16', '2015-10-15', '2021-04-16']) {
      defineStackFromText('file:///t/t.yaml', template(version, '[a, out, key, 0]'), options);
    }
    defineStackFromText('file:///t/t.yaml', template('2015-10-15', '[a]'), options);
    const err = errorOf(() =>
      defineStackFromText('file:///t/t.yaml', template('2014-10-16', '[a]'), options),
    );
    assert.equal(err.kind, 'function');
    assert.equal(
      err.message,
      'file:///t/t.yaml:5:7: outputs.o.value: get_attr: expected at least 2 arguments, got 1',
    );
  });
});

describe('get_file', () => {
  const files = {
    'file:///t/dir/script.sh': 'echo relative',
    'http://example.com/exact.txt': 'exact content',
    'plain-key': 'plain content',
  };
  const template = (arg: string) => `heat_template_version: 2014-10-16
resources:
  r:
    type: Test::Thing
    properties:
      content: {get_file: ${arg}}
`;

  function content(arg: string): Value {
    const seen: Value[] = [];
    defineStackFromText('file:///t/dir/t.yaml', template(arg), { files, types: recorder(seen) });
    return (seen[0] as Record<string, Value>).content!;
  }

  test('by the exact key of the files map', () => {
    assert.equal(content("'http://example.com/exact.txt'"), 'exact content');
    assert.equal(content('plain-key'), 'plain content');
  });

  test('by a path relative to the template', () => {
    assert.equal(content('script.sh'), 'echo relative');
    assert.equal(content('./script.sh'), 'echo relative');
    assert.equal(content('file:///t/dir/script.sh'), 'echo relative');
  });

  test('a file not in the map is a reference error at the call', () => {
    const err = errorOf(() => content('other.sh'));
    assert.equal(err.kind, 'reference');
    assert.equal(
      err.message,
      'file:///t/dir/t.yaml:6:7: resources.r.properties.content: no content found in the files map for get_file "other.sh"',
    );
  });

  test('an unknown name is unknown; a name that is not a string is a function error', () => {
    assertUnknown(evaluate({ get_file: { get_param: 'u' } }, { get_file: getFile, ...PARAM }, { params }));
    assertFunctionError(
      () => evaluate({ get_file: ['a'] }, { get_file: getFile }),
      /^outputs\.x\.value: get_file: the argument must be a string, got list$/,
    );
  });
});

describe('resource_facade', () => {
  const facade = { metadata: { role: 'db' }, deletion_policy: 'Retain', update_policy: { pause: 1 } };

  test('yields the parent resource section', () => {
    assert.deepEqual(evaluate({ resource_facade: 'metadata' }, FACADE, { facade }), { role: 'db' });
    assert.equal(evaluate({ resource_facade: 'deletion_policy' }, FACADE, { facade }), 'Retain');
    assert.deepEqual(evaluate({ resource_facade: 'update_policy' }, FACADE, { facade }), { pause: 1 });
  });

  test('an invalid section is a function error when the template is parsed', () => {
    for (const args of ['Metadata', 'properties', '', ['metadata'], null, { get_param: 's' }] as Json[]) {
      assertFunctionError(
        () => parse({ resource_facade: args }, { ...FACADE, ...PARAM }),
        /^outputs\.x\.value: resource_facade: argument must be one of metadata, deletion_policy, update_policy$/,
      );
    }
  });

  test('through a template: valid at validation time, where the parent is not known', () => {
    const err = errorOf(() =>
      defineStackFromText(
        'file:///t/t.yaml',
        `heat_template_version: 2014-10-16
outputs:
  ok: {value: {resource_facade: metadata}}
  bad: {value: {resource_facade: tags}}
`,
      ),
    );
    assert.equal(err.kind, 'function');
    assert.equal(
      err.message,
      'file:///t/t.yaml:4:9: outputs.bad.value: resource_facade: argument must be one of metadata, deletion_policy, update_policy',
    );
  });
});
