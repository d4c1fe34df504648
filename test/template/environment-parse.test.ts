import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Environment,
  environmentToJSON,
  parseEnvironment,
} from '../../src/template/environment/index.js';
import { TemplateError } from '../../src/template/errors.js';

const FILE = '/envs/prod/env.yaml';

function parse(text: string, file = FILE): Environment {
  return parseEnvironment(file, text);
}

function parseError(text: string, file = FILE): TemplateError {
  try {
    parseEnvironment(file, text);
  } catch (err) {
    assert.ok(err instanceof TemplateError, `expected a TemplateError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected an error');
}

describe('parseEnvironment: sections', () => {
  it('treats an empty file, or one with only comments, as an empty environment', () => {
    for (const text of ['', '# nothing here\n', '\n\n']) {
      const env = parse(text);
      assert.deepEqual(env.parameters, {});
      assert.deepEqual(env.parameterDefaults, {});
      assert.equal(env.resourceRegistry.mappings.size, 0);
      assert.equal(env.resourceRegistry.resources.size, 0);
      assert.deepEqual(env.eventSinks, []);
      assert.deepEqual(env.parameterMergeStrategies, {});
      assert.deepEqual(env.encryptedParamNames, []);
      assert.equal(env.file, FILE);
    }
  });

  it('reads every section Heat allows', () => {
    const env = parse(
      [
        'parameters:',
        '  flavor: m1.small',
        '  count: 3',
        'parameter_defaults:',
        '  key_name: mykey',
        '  tags: [a, b]',
        'resource_registry:',
        '  "My::Server": server.yaml',
        'event_sinks:',
        '  - type: zaqar-queue',
        '    target: myqueue',
        'parameter_merge_strategies:',
        '  tags: merge',
        '  default: deep_merge',
        'encrypted_param_names: [password]',
      ].join('\n'),
    );
    assert.deepEqual(env.parameters, { flavor: 'm1.small', count: 3 });
    assert.deepEqual(env.parameterDefaults, { key_name: 'mykey', tags: ['a', 'b'] });
    assert.equal(env.resourceRegistry.mappings.get('My::Server'), 'file:///envs/prod/server.yaml');
    assert.deepEqual(env.eventSinks, [{ type: 'zaqar-queue', target: 'myqueue' }]);
    assert.deepEqual(env.parameterMergeStrategies, { tags: 'merge', default: 'deep_merge' });
    assert.deepEqual(env.encryptedParamNames, ['password']);
  });

  it('reads JSON environments too', () => {
    const env = parse('{"parameters": {"a": 1}, "resource_registry": {"OS::A": "OS::B"}}', '/e/env.json');
    assert.deepEqual(env.parameters, { a: 1 });
    assert.equal(env.resourceRegistry.mappings.get('OS::A'), 'OS::B');
  });

  it('rejects an unknown section, naming it, with file, line and column', () => {
    const err = parseError('parameters: {}\nresource_registy:\n  A: B\n');
    assert.equal(err.kind, 'environment');
    assert.match(err.detail, /environment has wrong section "resource_registy"/);
    assert.equal(err.file, FILE);
    assert.deepEqual(err.position, { line: 2, column: 1 });
    assert.match(err.message, /^\/envs\/prod\/env\.yaml:2:1: /);
  });

  it('rejects an empty section as Heat does', () => {
    const err = parseError('parameters:\n');
    assert.match(err.detail, /environment has empty section "parameters"/);
    assert.deepEqual(err.position, { line: 1, column: 1 });
  });

  it('rejects a document that is not a mapping', () => {
    const err = parseError('- a\n- b\n');
    assert.match(err.detail, /not a valid YAML mapping/);
    assert.equal(err.file, FILE);
  });

  it('reports YAML syntax errors with the file name', () => {
    const err = parseError('parameters:\n  a: [1, 2\n');
    assert.equal(err.kind, 'syntax');
    assert.equal(err.file, FILE);
  });

  it('checks section types', () => {
    const cases: [string, RegExp, number][] = [
      ['parameters: [1]\n', /section "parameters" must be a map, got list/, 1],
      ['parameter_defaults: 3\n', /section "parameter_defaults" must be a map, got number/, 1],
      ['resource_registry: x\n', /"resource_registry" must be a map, got string/, 1],
      ['event_sinks: {}\n', /section "event_sinks" must be a list, got map/, 1],
      ['event_sinks:\n  - 1\n', /an event sink must be a map/, 2],
      ['event_sinks:\n  - target: q\n', /an event sink needs a "type"/, 2],
      ['encrypted_param_names: a\n', /must be a list, got string/, 1],
      ['encrypted_param_names:\n  - a\n  - {b: 1}\n', /must list strings, got map/, 3],
      ['parameter_merge_strategies: [merge]\n', /must be a map, got list/, 1],
    ];
    for (const [text, pattern, line] of cases) {
      const err = parseError(text);
      assert.equal(err.kind, 'environment', text);
      assert.match(err.detail, pattern, text);
      assert.equal(err.position?.line, line, text);
    }
  });

  it('rejects an unknown merge strategy at its position', () => {
    const err = parseError('parameter_merge_strategies:\n  a: merge\n  b: append\n');
    assert.match(err.detail, /invalid merge strategy "append" for "b"/);
    assert.deepEqual(err.position, { line: 3, column: 3 });
  });

  it('keeps __proto__ and constructor as ordinary parameter names', () => {
    const env = parse('parameters:\n  __proto__: {polluted: 1}\n  constructor: 2\n');
    assert.deepEqual(Object.keys(env.parameters), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(env.parameters), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const json = environmentToJSON(env);
    assert.deepEqual(Object.keys(json.parameters as object), ['__proto__', 'constructor']);
  });
});

describe('parseEnvironment: resource_registry', () => {
  it('keeps exact, alias and wildcard mappings in document order', () => {
    const env = parse(
      'resource_registry:\n  "OS::Networking::*": "OS::Neutron::*"\n  "My::Alias": "OS::Real"\n  "OS::Heat::None": null\n',
    );
    assert.deepEqual(
      [...env.resourceRegistry.mappings],
      [
        ['OS::Networking::*', 'OS::Neutron::*'],
        ['My::Alias', 'OS::Real'],
        ['OS::Heat::None', null],
      ],
    );
  });

  it('resolves relative template paths against the environment file', () => {
    const env = parse(
      [
        'resource_registry:',
        '  "A::T": a.yaml',
        '  "B::T": ../shared/b.yaml',
        '  "C::T": ./sub/./c.template',
        '  "D::T": /abs/d.yaml',
        '  "E::T": http://example.com/e.yaml',
        '  "F::T": nested/dir/template',
      ].join('\n'),
    );
    const m = env.resourceRegistry.mappings;
    assert.equal(m.get('A::T'), 'file:///envs/prod/a.yaml');
    assert.equal(m.get('B::T'), 'file:///envs/shared/b.yaml');
    assert.equal(m.get('C::T'), 'file:///envs/prod/sub/c.template');
    assert.equal(m.get('D::T'), 'file:///abs/d.yaml');
    assert.equal(m.get('E::T'), 'http://example.com/e.yaml');
    assert.equal(m.get('F::T'), 'file:///envs/prod/nested/dir/template');
  });

  it('takes relative paths from base_url when given, globally and per resource', () => {
    const env = parse(
      [
        'resource_registry:',
        '  base_url: http://templates.example.com/v2',
        '  "A::T": a.yaml',
        '  resources:',
        '    web:',
        '      base_url: file:///srv/tpl/',
        '      "B::T": b.yaml',
        '    db:',
        '      "C::T": c.yaml',
      ].join('\n'),
    );
    const reg = env.resourceRegistry;
    assert.equal(reg.baseUrl, 'http://templates.example.com/v2');
    assert.equal(reg.mappings.get('A::T'), 'http://templates.example.com/v2/a.yaml');
    assert.equal(reg.resources.get('web')?.types.get('B::T'), 'file:///srv/tpl/b.yaml');
    assert.equal(reg.resources.get('db')?.types.get('C::T'), 'http://templates.example.com/v2/c.yaml');
  });

  it('can keep template names as written (for an API files map)', () => {
    const env = parseEnvironment('<env>', 'resource_registry:\n  "A::T": a.yaml\n', undefined, {
      resolveTemplates: false,
    });
    assert.equal(env.resourceRegistry.mappings.get('A::T'), 'a.yaml');
    assert.equal(env.file, undefined);
  });

  it('reads per-resource entries with types, hooks, restricted actions and nested entries', () => {
    const env = parse(
      [
        'resource_registry:',
        '  resources:',
        '    my_server:',
        '      "OS::Nova::Server": server.yaml',
        '      hooks: pre-create',
        '      restricted_actions: [update, replace]',
        '    "web_*":',
        '      hooks: [pre-update, post-delete]',
        '    nested_res:',
        '      inner_res:',
        '        hooks: pre-delete',
      ].join('\n'),
    );
    const res = env.resourceRegistry.resources;
    const server = res.get('my_server');
    assert.equal(server?.types.get('OS::Nova::Server'), 'file:///envs/prod/server.yaml');
    assert.equal(server?.hooks, 'pre-create');
    assert.deepEqual(server?.restrictedActions, ['update', 'replace']);
    assert.deepEqual(res.get('web_*')?.hooks, ['pre-update', 'post-delete']);
    assert.equal(res.get('nested_res')?.nested.get('inner_res')?.hooks, 'pre-delete');
  });

  it('rejects unknown hooks and restricted actions at their position', () => {
    let err = parseError('resource_registry:\n  resources:\n    r:\n      hooks: [pre-create, pre-sleep]\n');
    assert.match(
      err.detail,
      /invalid hook type "pre-sleep" for resource breakpoint; acceptable hook types are: pre-create/,
    );
    assert.deepEqual(err.path, ['resource_registry', 'resources', 'r', 'hooks', 1]);
    assert.equal(err.position?.line, 4);

    err = parseError('resource_registry:\n  resources:\n    r:\n      restricted_actions: delete\n');
    assert.match(err.detail, /invalid restricted_action type "delete".*update, replace/);
    assert.deepEqual(err.position, { line: 4, column: 7 });

    err = parseError('resource_registry:\n  resources:\n    r:\n      hooks: {a: 1}\n');
    assert.match(err.detail, /invalid hook type/);
  });

  it('rejects malformed registry entries', () => {
    const cases: [string, RegExp][] = [
      ['resource_registry:\n  resources: [a]\n', /"resources" must be a map, got list/],
      [
        'resource_registry:\n  resources:\n    r: x.yaml\n',
        /entry for resource "r" must be a map, got string/,
      ],
      ['resource_registry:\n  "A::B": 3\n', /mapping for "A::B" must be a string, got number/],
      ['resource_registry:\n  "A::B": {x: y}\n', /mapping for "A::B" must be a string, got map/],
      [
        'resource_registry:\n  resources:\n    r:\n      "A::B": [1]\n',
        /mapping for "A::B" must be a string/,
      ],
      ['resource_registry:\n  base_url: 5\n', /"base_url" must be a string/],
      ['resource_registry:\n  hooks: pre-create\n', /"hooks" applies to resources/],
    ];
    for (const [text, pattern] of cases) {
      const err = parseError(text);
      assert.equal(err.kind, 'environment', text);
      assert.match(err.detail, pattern, text);
      assert.equal(err.file, FILE, text);
      assert.ok(err.position, text);
    }
  });

  it('treats __proto__ as an ordinary type or resource name', () => {
    const env = parse(
      'resource_registry:\n  __proto__: OS::X\n  resources:\n    __proto__:\n      hooks: pre-create\n',
    );
    assert.equal(env.resourceRegistry.mappings.get('__proto__'), 'OS::X');
    assert.equal(env.resourceRegistry.resources.get('__proto__')?.hooks, 'pre-create');
  });
});

describe('environmentToJSON', () => {
  it('prints an empty environment like Heat environment-show', () => {
    assert.deepEqual(environmentToJSON(parse('')), {
      resource_registry: { resources: {} },
      parameters: {},
      parameter_defaults: {},
      event_sinks: [],
      encrypted_param_names: [],
    });
  });

  it('prints like validate (without encrypted_param_names) when asked', () => {
    const json = environmentToJSON(parse(''), { encryptedParamNames: false });
    assert.deepEqual(Object.keys(json), [
      'resource_registry',
      'parameters',
      'parameter_defaults',
      'event_sinks',
    ]);
  });

  it('prints the registry in Heat format', () => {
    const env = parse(
      [
        'parameters: {a: 1}',
        'resource_registry:',
        '  "OS::A": "OS::B"',
        '  "My::T": t.yaml',
        '  "Gone::T": null',
        '  resources:',
        '    r:',
        '      "OS::C": c.yaml',
        '      hooks: [pre-create]',
        '      restricted_actions: replace',
        '      inner:',
        '        hooks: post-update',
      ].join('\n'),
    );
    assert.deepEqual(environmentToJSON(env), {
      resource_registry: {
        resources: {
          r: {
            'OS::C': 'file:///envs/prod/c.yaml',
            inner: { hooks: 'post-update' },
            hooks: ['pre-create'],
            restricted_actions: 'replace',
          },
        },
        'OS::A': 'OS::B',
        'My::T': 'file:///envs/prod/t.yaml',
      },
      parameters: { a: 1 },
      parameter_defaults: {},
      event_sinks: [],
      encrypted_param_names: [],
    });
  });
});
