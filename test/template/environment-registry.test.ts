import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  childEnvironment,
  environmentToJSON,
  mergeEnvironments,
  parseEnvironment,
  ResourceRegistry,
} from '../../src/template/environment/index.js';
import { TemplateError } from '../../src/template/errors.js';

function registry(text: string, file = '/envs/env.yaml', base?: ResourceRegistry): ResourceRegistry {
  return new ResourceRegistry(parseEnvironment(file, text), base);
}

const plugin = (type: string) => ({ kind: 'plugin', type });
const template = (url: string) => ({ kind: 'template', url });

describe('ResourceRegistry.resolveType: global mappings', () => {
  it('returns an unmapped type as a plugin type, also without an environment', () => {
    assert.deepEqual(
      new ResourceRegistry().resolveType('OS::Nova::Server', 'srv'),
      plugin('OS::Nova::Server'),
    );
    assert.deepEqual(registry('').resolveType('OS::Nova::Server', 'srv'), plugin('OS::Nova::Server'));
  });

  it('maps exact types to other types and to templates', () => {
    const reg = registry(
      'resource_registry:\n  "OS::Alias": "OS::Real"\n  "My::Server": server.yaml\n  "OS::Heat::Off": "OS::Heat::None"\n',
    );
    assert.deepEqual(reg.resolveType('OS::Alias', 'r'), plugin('OS::Real'));
    assert.deepEqual(reg.resolveType('My::Server', 'r'), template('file:///envs/server.yaml'));
    assert.deepEqual(reg.resolveType('OS::Heat::Off', 'r'), plugin('OS::Heat::None'));
  });

  it('maps wildcards, carrying the matched rest over', () => {
    const reg = registry(
      'resource_registry:\n  "OS::Networking::*": "OS::Neutron::*"\n  "Legacy::*": "OS::Heat::None"\n',
    );
    assert.deepEqual(reg.resolveType('OS::Networking::FloatingIP', 'r'), plugin('OS::Neutron::FloatingIP'));
    assert.deepEqual(reg.resolveType('Legacy::Anything::At::All', 'r'), plugin('OS::Heat::None'));
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'r'), plugin('OS::Nova::Server'));
  });

  it('does not apply a many-to-one wildcard to its own target', () => {
    const reg = registry('resource_registry:\n  "OS::*": "OS::Heat::None"\n');
    assert.deepEqual(reg.resolveType('OS::Some::Name', 'r'), plugin('OS::Heat::None'));
    assert.deepEqual(reg.resolveType('OS::Heat::None', 'r'), plugin('OS::Heat::None'));
  });

  it('orders candidates as Heat sorts them: the smallest key wins', () => {
    // Heat sorts matching entries by key, and "*" sorts before letters: the wildcard wins.
    const reg = registry(
      'resource_registry:\n  "OS::Nova::Server": "My::Server"\n  "OS::Nova::*": "OS::Heat::None"\n  "OS::*": "Cloud::*"\n',
    );
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'r'), plugin('Cloud::Nova::Server'));
    assert.deepEqual(reg.resolveType('OS::Nova::Flavor', 'r'), plugin('Cloud::Nova::Flavor'));
  });

  it('follows alias chains to a plugin type or a template', () => {
    const reg = registry(
      'resource_registry:\n  "A::T": "B::T"\n  "B::T": "C::T"\n  "C::*": "D::*"\n  "D::T": "sub/d.yaml"\n',
    );
    assert.deepEqual(reg.resolveType('A::T', 'r'), template('file:///envs/sub/d.yaml'));
    assert.deepEqual(reg.resolveType('C::X', 'r'), plugin('D::X'));
  });

  it('reports mapping loops, naming the chain and the position', () => {
    const reg = registry('resource_registry:\n  "A::T": "B::T"\n  "B::T": "C::T"\n  "C::T": "A::T"\n');
    assert.throws(
      () => reg.resolveType('A::T', 'r'),
      (err: unknown) => {
        assert.ok(err instanceof TemplateError);
        assert.equal(err.kind, 'environment');
        assert.match(err.detail, /loop: A::T -> B::T -> C::T -> A::T/);
        assert.equal(err.file, '/envs/env.yaml');
        assert.deepEqual(err.position, { line: 4, column: 3 });
        return true;
      },
    );
    const self = registry('resource_registry:\n  "X::*": "X::*"\n');
    assert.throws(() => self.resolveType('X::Y', 'r'), /loop: X::Y -> X::Y/);
  });

  it('leaves a template type without a mapping as written', () => {
    const reg = registry('');
    assert.equal(reg.isTemplateType('nested.yaml'), true);
    assert.equal(reg.isTemplateType('OS::Nova::Server'), false);
    assert.deepEqual(reg.resolveType('nested.yaml', 'r'), template('nested.yaml'));
  });

  it('resolves relative targets of hand-built or unresolved environments against the file', () => {
    const env = parseEnvironment('/x/env.yaml', 'resource_registry:\n  "A::T": a.yaml\n', undefined, {
      resolveTemplates: false,
    });
    assert.deepEqual(new ResourceRegistry(env).resolveType('A::T', 'r'), template('a.yaml'));
    env.file = 'http://example.com/envs/env.yaml';
    assert.deepEqual(
      new ResourceRegistry(env).resolveType('A::T', 'r'),
      template('http://example.com/envs/a.yaml'),
    );
  });

  it('consults the base (global) registry after its own, and chains across both', () => {
    const base = registry(
      'resource_registry:\n  "AWS::RDS::DBInstance": rds.yaml\n  "G::A": "G::B"\n  "U::A": "G::Never"\n',
      '/etc/heat/environment.d/default.yaml',
    );
    const reg = registry(
      'resource_registry:\n  "U::A": "G::A"\n  "G::B": "U::Final"\n',
      '/envs/env.yaml',
      base,
    );
    assert.deepEqual(
      reg.resolveType('AWS::RDS::DBInstance', 'db'),
      template('file:///etc/heat/environment.d/rds.yaml'),
    );
    assert.deepEqual(reg.resolveType('U::A', 'r'), plugin('U::Final'));
    // The user environment's registry is what the API shows; the base one is not part of it.
    assert.deepEqual(reg.toJSON(), { resources: {}, 'U::A': 'G::A', 'G::B': 'U::Final' });
  });
});

describe('ResourceRegistry.resolveType: per-resource mappings', () => {
  const text = [
    'resource_registry:',
    '  "OS::Nova::Server": "Global::Server"',
    '  "Global::Server": global.yaml',
    '  resources:',
    '    my_db:',
    '      "OS::Nova::Server": db.yaml',
    '    "web_*":',
    '      "OS::Nova::Server": "Web::Server"',
    '    "web_?":',
    '      "OS::Nova::Server": "Web::Single"',
    '    "web_1":',
    '      "OS::Nova::Server": "Web::First"',
    '    chained:',
    '      "OS::Nova::Server": "Step::One"',
    '      "Step::One": step.yaml',
  ].join('\n');
  const reg = registry(text);

  it('prefers a mapping for the resource over the global one', () => {
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'my_db'), template('file:///envs/db.yaml'));
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'other'), template('file:///envs/global.yaml'));
  });

  it('matches resource names with fnmatch patterns: exact first, then later patterns', () => {
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'web_1'), plugin('Web::First'));
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'web_2'), plugin('Web::Single'));
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'web_frontend'), plugin('Web::Server'));
  });

  it('keeps applying the resource mappings along an alias chain', () => {
    assert.deepEqual(reg.resolveType('OS::Nova::Server', 'chained'), template('file:///envs/step.yaml'));
  });

  it('addresses resources of nested stacks by their path', () => {
    const nested = registry(
      [
        'resource_registry:',
        '  resources:',
        '    outer:',
        '      "OS::T": outer.yaml',
        '      inner:',
        '        "OS::T": inner.yaml',
        '        deepest:',
        '          "OS::T": deepest.yaml',
        '    "group_*":',
        '      member:',
        '        "OS::T": member.yaml',
        '    "other_*":',
        '      inner:',
        '        "OS::T": never.yaml',
      ].join('\n'),
    );
    assert.deepEqual(nested.resolveType('OS::T', 'outer'), template('file:///envs/outer.yaml'));
    assert.deepEqual(nested.resolveType('OS::T', 'inner', ['outer']), template('file:///envs/inner.yaml'));
    assert.deepEqual(
      nested.resolveType('OS::T', 'deepest', ['outer', 'inner']),
      template('file:///envs/deepest.yaml'),
    );
    assert.deepEqual(
      nested.resolveType('OS::T', 'member', ['group_a']),
      template('file:///envs/member.yaml'),
    );
    // An entry at the top level does not apply to a same-named resource in a nested stack.
    assert.deepEqual(nested.resolveType('OS::T', 'outer', ['group_a']), plugin('OS::T'));
    assert.deepEqual(nested.resolveType('OS::T', 'inner', ['elsewhere']), plugin('OS::T'));
  });

  it('reports a loop inside a resource entry with its path', () => {
    const looped = registry(
      'resource_registry:\n  resources:\n    r:\n      "A::T": "B::T"\n      "B::T": "A::T"\n',
    );
    assert.throws(
      () => looped.resolveType('A::T', 'r'),
      (err: unknown) =>
        err instanceof TemplateError &&
        err.path.join('.') === 'resource_registry.resources.r.B::T' &&
        err.position?.line === 5,
    );
    assert.deepEqual(looped.resolveType('A::T', 'not_r'), plugin('A::T'));
  });
});

describe('ResourceRegistry: hooks and restricted actions', () => {
  const reg = registry(
    [
      'resource_registry:',
      '  resources:',
      '    server:',
      '      hooks: [pre-create, pre-update]',
      '      restricted_actions: replace',
      '    "prefix_*":',
      '      hooks: pre-delete',
      '    "*_suffix":',
      '      hooks: [post-create]',
      '      restricted_actions: [update]',
      '    "*":',
      '      hooks: post-delete',
      '    nested_res:',
      '      inner_res:',
      '        hooks: pre-create',
      '        restricted_actions: update',
      '      "inner_*":',
      '        hooks: post-update',
      '    "group_[0-9]":',
      '      member:',
      '        hooks: pre-update',
    ].join('\n'),
  );

  it('collects the hooks of every matching entry', () => {
    assert.deepEqual(reg.hooksFor('server'), new Set(['pre-create', 'pre-update', 'post-delete']));
    assert.deepEqual(reg.hooksFor('prefix_x_suffix'), new Set(['pre-delete', 'post-create', 'post-delete']));
    assert.deepEqual(reg.hooksFor('unrelated'), new Set(['post-delete']));
  });

  it('collects restricted actions the same way', () => {
    assert.deepEqual(reg.restrictedActionsFor('server'), new Set(['replace']));
    assert.deepEqual(reg.restrictedActionsFor('a_suffix'), new Set(['update']));
    assert.deepEqual(reg.restrictedActionsFor('unrelated'), new Set());
  });

  it('finds hooks of resources in nested stacks by path, with patterns at each level', () => {
    assert.deepEqual(reg.hooksFor('inner_res', ['nested_res']), new Set(['pre-create', 'post-update']));
    assert.deepEqual(reg.restrictedActionsFor('inner_res', ['nested_res']), new Set(['update']));
    assert.deepEqual(reg.hooksFor('inner_other', ['nested_res']), new Set(['post-update']));
    assert.deepEqual(reg.hooksFor('member', ['group_3']), new Set(['pre-update']));
    assert.deepEqual(reg.hooksFor('member', ['group_x']), new Set());
    assert.deepEqual(reg.hooksFor('inner_res', ['nested_res', 'deeper']), new Set());
  });

  it('has no hooks without an environment', () => {
    assert.deepEqual(new ResourceRegistry().hooksFor('x'), new Set());
    assert.deepEqual(new ResourceRegistry().restrictedActionsFor('x', ['a']), new Set());
  });

  it('treats __proto__ and constructor as resource names', () => {
    const odd = registry(
      'resource_registry:\n  resources:\n    __proto__:\n      hooks: pre-create\n    constructor:\n      hooks: post-create\n',
    );
    assert.deepEqual(odd.hooksFor('__proto__'), new Set(['pre-create']));
    assert.deepEqual(odd.hooksFor('constructor'), new Set(['post-create']));
    assert.deepEqual(odd.hooksFor('toString'), new Set());
    assert.deepEqual(odd.resolveType('constructor', 'r'), plugin('constructor'));
  });
});

describe('ResourceRegistry.toJSON', () => {
  it('prints the merged registry as Heat does', () => {
    const merged = mergeEnvironments([
      parseEnvironment(
        '/a/1.yaml',
        'resource_registry:\n  "A::T": a.yaml\n  resources:\n    r:\n      hooks: pre-create\n',
      ),
      parseEnvironment(
        '/b/2.yaml',
        'resource_registry:\n  "B::T": "OS::B"\n  resources:\n    r:\n      "X::T": x.yaml\n',
      ),
    ]);
    assert.deepEqual(new ResourceRegistry(merged).toJSON(), {
      resources: { r: { 'X::T': 'file:///b/x.yaml', hooks: 'pre-create' } },
      'A::T': 'file:///a/a.yaml',
      'B::T': 'OS::B',
    });
    assert.deepEqual(new ResourceRegistry().toJSON(), { resources: {} });
  });
});

describe('childEnvironment (a nested stack’s own environment)', () => {
  const parent = parseEnvironment(
    '/envs/env.yaml',
    [
      'parameters: {top: 1}',
      'parameter_defaults: {shared: x}',
      'resource_registry:',
      '  "OS::G": global.yaml',
      '  resources:',
      '    outer:',
      '      "OS::T": outer.yaml',
      '      inner:',
      '        "OS::T": inner.yaml',
      '        deepest:',
      '          "OS::T": deepest.yaml',
      '    "out*":',
      '      inner:',
      '        "OS::T": pattern.yaml',
      '      beside:',
      '        "OS::T": beside.yaml',
    ].join('\n'),
  );

  it('gives the resource’s properties as parameters, and keeps parameter_defaults and global mappings', () => {
    const child = childEnvironment(parent, 'outer', { p: 'v' });
    assert.deepEqual(child.parameters, { p: 'v' });
    assert.deepEqual(child.parameterDefaults, { shared: 'x' });
    assert.deepEqual(
      new ResourceRegistry(child).resolveType('OS::G', 'r'),
      template('file:///envs/global.yaml'),
    );
  });

  it('applies inside the child exactly the entries the parent’s registry applies at that path', () => {
    const whole = new ResourceRegistry(parent);
    // Stored as JSON and read back, as the engine does with a child stack's template row.
    const stored = parseEnvironment(
      'environment',
      JSON.stringify(environmentToJSON(childEnvironment(parent, 'outer', {}))),
      undefined,
      { resolveTemplates: false },
    );
    const child = new ResourceRegistry(stored);
    for (const [name, path] of [
      ['inner', []],
      ['beside', []],
      ['outer', []],
      ['deepest', ['inner']],
    ] as [string, string[]][]) {
      assert.deepEqual(
        child.resolveType('OS::T', name, path),
        whole.resolveType('OS::T', name, ['outer', ...path]),
      );
    }
    assert.deepEqual(child.resolveType('OS::T', 'inner'), template('file:///envs/inner.yaml'), 'exact wins');
    const grandchild = new ResourceRegistry(childEnvironment(stored, 'inner', {}));
    assert.deepEqual(grandchild.resolveType('OS::T', 'deepest'), template('file:///envs/deepest.yaml'));
  });
});
