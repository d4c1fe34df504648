import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEnvironment } from '../../src/template/environment/index.js';
import { UNKNOWN, type Value } from '../../src/template/functions/types.js';
import { withLimits } from '../../src/template/limits.js';
import { definer, errorOf, recorder } from './support.js';

const define = definer('file:///work/t.yaml');

describe('stack definition', () => {
  it('builds the graph from get_resource, get_attr and depends_on', () => {
    const stack = define(`heat_template_version: 2018-08-31
resources:
  a: {type: Test::Thing}
  b: {type: Test::Thing, properties: {x: {get_resource: a}}}
  c: {type: Test::Thing, properties: {x: {get_attr: [b, out]}}, depends_on: [a]}
  d: {type: Test::Thing, depends_on: c}
`);
    assert.deepEqual([...stack.resources.get('c')!.requires].sort(), ['a', 'b']);
    assert.deepEqual(stack.graph.topologicalOrder(), ['a', 'b', 'c', 'd']);
  });

  it('names the cycle', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2018-08-31
resources:
  a: {type: Test::Thing, properties: {x: {get_resource: c}}}
  b: {type: Test::Thing, properties: {x: {get_resource: a}}}
  c: {type: Test::Thing, depends_on: b}
`),
    );
    assert.equal(err.kind, 'cycle');
    assert.match(
      err.message,
      /circular dependency between resources: (a -> c -> b -> a|b -> a -> c -> b|c -> b -> a -> c)/,
    );
  });

  it('reports a reference to a missing resource with file, line, column and path', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2018-08-31
resources:
  web:
    type: Test::Thing
    properties:
      networks:
        - port: {get_resource: nope}
`),
    );
    assert.equal(err.kind, 'reference');
    assert.equal(
      err.message,
      'file:///work/t.yaml:7:11: resources.web.properties.networks[0].port: the specified reference "nope" is not a resource of this template',
    );
  });

  it('reports an attribute the type does not have', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2018-08-31
resources:
  a: {type: Test::Thing}
outputs:
  o: {value: {get_attr: [a, missing]}}
`),
    );
    assert.match(err.message, /outputs\.o\.value: resource "a" \(Test::Thing\) has no attribute "missing"/);
  });

  it('reports an undefined parameter', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2018-08-31
resources:
  a: {type: Test::Thing, properties: {x: {get_param: nope}}}
`),
    );
    assert.match(err.message, /resources\.a\.properties\.x: the parameter "nope" is not defined/);
  });

  it('drops resources whose condition is false and prunes dead if branches from the graph', () => {
    const text = `heat_template_version: 2021-04-16
parameters:
  env: {type: string}
conditions:
  prod: {equals: [{get_param: env}, prod]}
resources:
  big: {type: Test::Thing, condition: prod}
  small: {type: Test::Thing, condition: {not: prod}}
  user:
    type: Test::Thing
    properties:
      target: {if: [prod, {get_resource: big}, {get_resource: small}]}
      extra: {if: [prod, 1]}
outputs:
  which: {value: {if: [prod, big, small]}, condition: prod}
`;
    const seen: Value[] = [];
    const prod = define(text, { environment: env('parameters: {env: prod}'), types: recorder(seen) });
    assert.deepEqual([...prod.resources.keys()], ['big', 'user']);
    assert.deepEqual(prod.resources.get('user')!.requires, ['big']);
    assert.deepEqual(prod.conditions.get('prod'), true);
    assert.ok(prod.outputs.has('which'));

    seen.length = 0;
    const dev = define(text, { environment: env('parameters: {env: dev}'), types: recorder(seen) });
    assert.deepEqual([...dev.resources.keys()], ['small', 'user']);
    assert.deepEqual(dev.resources.get('user')!.requires, ['small']);
    assert.ok(!dev.outputs.has('which'));
    // A false `if` without else (2021-04-16) drops the key.
    assert.deepEqual(seen.at(-1), { target: UNKNOWN });

    // No value: the condition is unknown, both resources stay and both branches are dependencies.
    const unknown = define(text);
    assert.deepEqual([...unknown.resources.keys()], ['big', 'small', 'user']);
    assert.deepEqual([...unknown.resources.get('user')!.requires].sort(), ['big', 'small']);
  });

  it('rejects a reference to a resource whose condition is false', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2018-08-31
conditions:
  never: false
resources:
  a: {type: Test::Thing, condition: never}
  b: {type: Test::Thing, properties: {x: {get_resource: a}}}
`),
    );
    assert.match(
      err.message,
      /resources\.b\.properties\.x: resource "a" is referenced here but its condition is false/,
    );
  });

  it('reports a condition that refers to itself where it is used', () => {
    const text = `heat_template_version: 2018-08-31
conditions:
  a: {not: b}
  b: {and: [a, true]}
`;
    // Heat resolves a condition only when a resource or an output uses it.
    assert.equal(define(text).conditions.has('a'), false);
    const err = errorOf(() => define(`${text}resources:\n  r: {type: Test::Thing, condition: b}\n`));
    assert.equal(err.kind, 'cycle');
    assert.match(err.message, /conditions\.[ab]: condition "[ab]" refers to itself: /);
  });

  it('requires parameter values in strict mode only', () => {
    const text = `heat_template_version: 2018-08-31
parameters:
  size: {type: number}
resources:
  a: {type: Test::Thing, properties: {x: {get_param: size}}}
`;
    assert.equal(define(text).parameters.get('size'), UNKNOWN);
    assert.match(errorOf(() => define(text, { strict: true })).message, /size/);
    assert.equal(
      define(text, { strict: true, environment: env('parameters: {size: "3"}') }).parameters.get('size'),
      3,
    );
  });

  it('evaluates functions during validation and reports misuse', () => {
    const err = errorOf(() =>
      define(`heat_template_version: 2018-08-31
resources:
  a:
    type: Test::Thing
    properties:
      x: {str_split: [',', [not, a, string]]}
`),
    );
    assert.equal(err.kind, 'function');
    assert.match(err.message, /t\.yaml:6:7: resources\.a\.properties\.x: str_split:/);
  });

  it('resolves nested template resources from the files map, mapping properties to parameters', () => {
    const files = {
      'file:///work/nested/child.yaml': `heat_template_version: 2016-10-14
parameters:
  name: {type: string}
  size: {type: number, default: 1}
resources:
  inner: {type: Test::Thing, properties: {label: {get_param: name}, banner: {get_file: ../banner.txt}}}
outputs:
  label: {value: {get_attr: [inner, out]}}
`,
      'file:///work/banner.txt': 'hello',
    };
    const seen: Value[] = [];
    const stack = define(
      `heat_template_version: 2018-08-31
resources:
  child: {type: nested/child.yaml, properties: {name: web}}
outputs:
  label: {value: {get_attr: [child, label]}}
`,
      { files, types: recorder(seen) },
    );
    const child = stack.resources.get('child')!.implementation;
    assert.equal(child.kind, 'template');
    assert.equal(child.kind === 'template' && child.url, 'file:///work/nested/child.yaml');
    assert.deepEqual(seen, [{ label: 'web', banner: 'hello' }]);
    assert.equal(stack.totalResources, 2);

    const missing = errorOf(() =>
      define(
        `heat_template_version: 2018-08-31
resources:
  child: {type: nested/child.yaml, properties: {name: web, nope: 1}}
`,
        { files },
      ),
    );
    assert.match(
      missing.message,
      /resources\.child\.properties\.nope: property "nope" is not a parameter of the nested template/,
    );
  });

  it('in strict mode, a nested parameter fed by an attribute is unknown until the child is created', () => {
    const files = {
      'file:///work/child.yaml': `heat_template_version: 2016-10-14
parameters:
  name: {type: string, constraints: [{allowed_pattern: "[a-z]+"}]}
  list: {type: comma_delimited_list}
  size: {type: number, default: 1}
resources:
  inner: {type: Test::Thing, properties: {label: {get_param: name}}}
`,
    };
    const stack = define(
      `heat_template_version: 2018-08-31
resources:
  src: {type: Test::Thing}
  child:
    type: child.yaml
    properties: {name: {get_attr: [src, out]}, list: [a, {get_attr: [src, out]}], size: 2}
`,
      { files, strict: true },
    );
    const child = stack.resources.get('child')!.implementation;
    assert.ok(child.kind === 'template');
    assert.equal(child.stack.parameters.get('name'), UNKNOWN);
    assert.equal(child.stack.parameters.get('list'), UNKNOWN);
    assert.equal(child.stack.parameters.get('size'), 2);
  });

  it('positions errors inside nested templates in their own file', () => {
    const files = {
      'file:///work/child.yaml':
        'heat_template_version: 2016-10-14\nresources:\n  inner: {type: Test::Thing, properties: {x: {get_param: nope}}}\n',
    };
    const err = errorOf(() =>
      define('heat_template_version: 2018-08-31\nresources:\n  child: {type: child.yaml}\n', { files }),
    );
    assert.match(
      err.message,
      /^file:\/\/\/work\/t\.yaml:3:11: resources\.child\.type: in nested template "child\.yaml": /,
    );
    assert.match(
      err.message,
      /file:\/\/\/work\/child\.yaml:3:43: resources\.inner\.properties\.x: the parameter "nope"/,
    );
  });

  it('enforces the nesting depth and detects a template that includes itself', () => {
    const files = {
      'file:///work/loop.yaml': 'heat_template_version: 2016-10-14\nresources:\n  again: {type: loop.yaml}\n',
      'file:///work/d1.yaml': 'heat_template_version: 2016-10-14\nresources:\n  x: {type: d2.yaml}\n',
      'file:///work/d2.yaml': 'heat_template_version: 2016-10-14\nresources:\n  x: {type: d3.yaml}\n',
      'file:///work/d3.yaml': 'heat_template_version: 2016-10-14\nresources:\n  x: {type: Test::Thing}\n',
    };
    const loop = errorOf(() =>
      define('heat_template_version: 2018-08-31\nresources:\n  r: {type: loop.yaml}\n', { files }),
    );
    assert.equal(loop.kind, 'cycle');
    const root = 'heat_template_version: 2018-08-31\nresources:\n  r: {type: d1.yaml}\n';
    assert.equal(define(root, { files }).totalResources, 4);
    const deep = errorOf(() => define(root, { files, limits: withLimits({ maxNestingDepth: 2 }) }));
    assert.equal(deep.kind, 'limit');
  });

  it('enforces the resources-per-stack limit', () => {
    const err = errorOf(() =>
      define(
        'heat_template_version: 2018-08-31\nresources:\n  a: {type: Test::Thing}\n  b: {type: Test::Thing}\n',
        {
          limits: withLimits({ maxResourcesPerStack: 1 }),
        },
      ),
    );
    assert.equal(err.kind, 'limit');
  });

  it('reports unknown types, resolving registry aliases first', () => {
    const text = 'heat_template_version: 2018-08-31\nresources:\n  a: {type: My::Alias}\n';
    const err = errorOf(() => define(text));
    assert.equal(err.kind, 'unknown_type');
    assert.match(
      err.message,
      /The Resource Type \(My::Alias\) could not be found\. \(\S*t\.yaml:3:7: resources\.a\.type\)/,
    );
    const mapped = define(text, { environment: env('resource_registry: {"My::Alias": "Test::Thing"}') });
    assert.equal(mapped.resources.get('a')!.implementation.type, 'Test::Thing');
    const lenient = define(text, { allowUnknownTypes: true });
    assert.equal(lenient.resources.get('a')!.implementation.kind, 'unknown');
  });

  it('treats CFN Ref to a parameter as no dependency (2013-05-23)', () => {
    const stack = define(`heat_template_version: 2013-05-23
parameters:
  p: {type: string, default: x}
resources:
  a: {type: Test::Thing}
  b: {type: Test::Thing, properties: {x: {Ref: p}, y: {Ref: a}}}
`);
    assert.deepEqual(stack.resources.get('b')!.requires, ['a']);
  });
});

function env(text: string) {
  return parseEnvironment('file:///work/env.yaml', text);
}
