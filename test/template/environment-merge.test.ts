import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Environment,
  environmentToJSON,
  mergeEnvironments,
  parseEnvironment,
} from '../../src/template/environment/index.js';
import { TemplateError } from '../../src/template/errors.js';

function env(name: string, text: string): Environment {
  return parseEnvironment(`/envs/${name}`, text);
}

function mergeError(envs: Environment[], ...rest: Parameters<typeof mergeEnvironments>[1][]): TemplateError {
  try {
    mergeEnvironments(envs, ...rest);
  } catch (err) {
    assert.ok(err instanceof TemplateError);
    return err;
  }
  assert.fail('expected an error');
}

describe('mergeEnvironments: parameters', () => {
  it('lets later files override per key by default', () => {
    const merged = mergeEnvironments([
      env('1.yaml', 'parameters: {a: 1, b: one}\nparameter_defaults: {x: [1], w: keep}\n'),
      env('2.yaml', 'parameters: {b: two, c: 3}\nparameter_defaults: {x: [2]}\n'),
      env('3.yaml', 'parameters: {a: 10}\nparameter_defaults: {z: {k: v}}\n'),
    ]);
    assert.deepEqual(merged.parameters, { a: 10, b: 'two', c: 3 });
    assert.deepEqual(merged.parameterDefaults, { x: [2], w: 'keep', z: { k: 'v' } });
  });

  it('merges lists, comma-delimited strings and maps with the merge strategy, across three files', () => {
    const merged = mergeEnvironments([
      env(
        '1.yaml',
        'parameter_merge_strategies: {list: merge, csv: merge, map: merge}\nparameter_defaults:\n  list: [a]\n  csv: "x,y"\n  map: {k1: {a: 1}, k2: 2}\n',
      ),
      env('2.yaml', 'parameter_defaults:\n  list: [b, c]\n  csv: z\n  map: {k1: {b: 2}}\n'),
      env(
        '3.yaml',
        'parameter_merge_strategies: {list: merge}\nparameter_defaults:\n  list: [d]\n  csv: w\n  map: {k3: 3}\n',
      ),
    ]);
    assert.deepEqual(merged.parameterDefaults, {
      list: ['a', 'b', 'c', 'd'],
      csv: 'x,y,z,w',
      // `merge` replaces top-level keys of a map: k1 is the later value.
      map: { k1: { b: 2 }, k2: 2, k3: 3 },
    });
    assert.deepEqual(merged.parameterMergeStrategies, { list: 'merge', csv: 'merge', map: 'merge' });
  });

  it('deep-merges maps with deep_merge, across three files', () => {
    const merged = mergeEnvironments([
      env(
        '1.yaml',
        'parameter_merge_strategies: {cfg: deep_merge}\nparameters:\n  cfg: {nova: {debug: false, hosts: [a]}, name: ab}\n',
      ),
      env('2.yaml', 'parameters:\n  cfg: {nova: {debug: true, hosts: [b]}, glance: {x: 1}}\n'),
      env('3.yaml', 'parameters:\n  cfg: {nova: {hosts: [c], extra: null}, name: cd}\n'),
    ]);
    assert.deepEqual(merged.parameters, {
      cfg: { nova: { debug: true, hosts: ['a', 'b', 'c'] }, name: 'abcd', glance: { x: 1 } },
    });
  });

  it('applies a file-wide default strategy to all its parameters', () => {
    const merged = mergeEnvironments([
      env('1.yaml', 'parameter_merge_strategies: {default: merge}\nparameter_defaults: {a: [1], b: [p]}\n'),
      env('2.yaml', 'parameter_defaults: {a: [2], b: [q]}\n'),
      env('3.yaml', 'parameter_defaults: {a: [3]}\n'),
    ]);
    assert.deepEqual(merged.parameterDefaults, { a: [1, 2, 3], b: ['p', 'q'] });
  });

  it('sums numbers and merges JSON strings of json parameters', () => {
    const merged = mergeEnvironments(
      [
        env('1.yaml', 'parameter_merge_strategies: {default: merge}\nparameters: {num: 1, j: {a: 1}}\n'),
        env('2.yaml', 'parameters: {num: 2, j: \'{"b": 2}\'}\n'),
      ],
      { parameterKind: (name) => (name === 'j' ? 'json' : undefined) },
    );
    assert.deepEqual(merged.parameters, { num: 3, j: { a: 1, b: 2 } });
  });

  it('joins string parameters without a separator when the template says they are strings', () => {
    const merged = mergeEnvironments(
      [
        env('1.yaml', 'parameter_merge_strategies: {s: merge}\nparameters: {s: abc}\n'),
        env('2.yaml', 'parameters: {s: def}\n'),
      ],
      { parameterKind: () => 'string' },
    );
    assert.deepEqual(merged.parameters, { s: 'abcdef' });
  });

  it('rejects a conflicting strategy for a parameter, naming the file', () => {
    const err = mergeError([
      env('1.yaml', 'parameters: {a: [1]}\n'),
      env('2.yaml', 'parameter_merge_strategies:\n  a: merge\nparameters: {a: [2]}\n'),
    ]);
    assert.equal(err.kind, 'environment');
    assert.match(
      err.detail,
      /conflicting merge strategy "merge" for parameter "a" in file "\/envs\/2\.yaml"/,
    );
    assert.equal(err.file, '/envs/2.yaml');
    assert.deepEqual(err.position, { line: 2, column: 3 });
  });

  it('rejects values that cannot merge', () => {
    let err = mergeError([
      env('1.yaml', 'parameter_merge_strategies: {a: merge}\nparameters: {a: [1]}\n'),
      env('2.yaml', 'parameters: {a: x}\n'),
    ]);
    assert.match(
      err.detail,
      /invalid merge strategy "merge" for parameter "a" \(a list and a string cannot merge\)/,
    );
    assert.equal(err.file, '/envs/2.yaml');
    assert.equal(err.position?.line, 1);

    err = mergeError([
      env('1.yaml', 'parameter_merge_strategies: {a: merge}\nparameters: {a: true}\n'),
      env('2.yaml', 'parameters: {a: false}\n'),
    ]);
    assert.match(err.detail, /invalid merge strategy "merge" for parameter "a"/);
  });

  it('ignores null values of later files and does not modify its inputs', () => {
    const first = env(
      '1.yaml',
      'parameter_merge_strategies: {default: deep_merge}\nparameters: {m: {a: [1]}, k: 1}\n',
    );
    const second = env('2.yaml', 'parameters: {m: {a: [2]}, k: null}\n');
    const merged = mergeEnvironments([first, second]);
    assert.deepEqual(merged.parameters, { m: { a: [1, 2] }, k: 1 });
    assert.deepEqual(first.parameters, { m: { a: [1] }, k: 1 });
    assert.deepEqual(second.parameters, { m: { a: [2] }, k: null });
  });

  it('keeps __proto__ as data when merging', () => {
    const merged = mergeEnvironments([
      env(
        '1.yaml',
        'parameter_merge_strategies: {default: deep_merge}\nparameters: {p: {__proto__: {x: 1}}}\n',
      ),
      env('2.yaml', 'parameters: {p: {__proto__: {z: 2}}, __proto__: 5}\n'),
    ]);
    assert.deepEqual(Object.keys(merged.parameters), ['p', '__proto__']);
    const p = merged.parameters.p as Record<string, unknown>;
    assert.ok(Object.hasOwn(p, '__proto__'));
    assert.deepEqual(Object.getOwnPropertyDescriptor(p, '__proto__')?.value, { x: 1, z: 2 });
    assert.equal(Object.getPrototypeOf(p), Object.prototype);
  });
});

describe('mergeEnvironments: registry and other sections', () => {
  it('merges mappings per key, later wins, and null removes', () => {
    const merged = mergeEnvironments([
      env(
        'a/1.yaml',
        'resource_registry:\n  "A::T": a.yaml\n  "B::T": "OS::B"\n  "OS::Nova::X": "X"\n  "OS::Nova::Y": "Y"\n',
      ),
      env('b/2.yaml', 'resource_registry:\n  "A::T": a2.yaml\n  "B::T": null\n'),
      env('c/3.yaml', 'resource_registry:\n  "OS::Nova::*": null\n  "C::T": "OS::C"\n'),
    ]);
    assert.deepEqual(
      [...merged.resourceRegistry.mappings],
      [
        // Each file's relative paths were resolved against that file's own directory.
        ['A::T', 'file:///envs/b/a2.yaml'],
        ['C::T', 'OS::C'],
      ],
    );
  });

  it('merges per-resource entries per resource, recursively', () => {
    const merged = mergeEnvironments([
      env(
        '1.yaml',
        'resource_registry:\n  resources:\n    web:\n      hooks: pre-create\n      "OS::T": t1.yaml\n    db:\n      hooks: pre-delete\n    nest:\n      inner: {hooks: pre-create}\n',
      ),
      env(
        '2.yaml',
        'resource_registry:\n  resources:\n    web:\n      restricted_actions: update\n      "OS::T": t2.yaml\n    nest:\n      other: {hooks: post-create}\n',
      ),
      env('3.yaml', 'resource_registry:\n  resources:\n    web:\n      hooks: [post-update]\n    db: null\n'),
    ]);
    assert.deepEqual(environmentToJSON(merged).resource_registry, {
      resources: {
        web: { 'OS::T': 'file:///envs/t2.yaml', hooks: ['post-update'], restricted_actions: 'update' },
        nest: { inner: { hooks: 'pre-create' }, other: { hooks: 'post-create' } },
      },
    });
  });

  it('concatenates event sinks and collects encrypted parameter names', () => {
    const merged = mergeEnvironments([
      env('1.yaml', 'event_sinks: [{type: zaqar-queue, target: q1}]\nencrypted_param_names: [a]\n'),
      env('2.yaml', 'event_sinks: [{type: zaqar-queue, target: q2}]\nencrypted_param_names: [a, b]\n'),
      env('3.yaml', 'event_sinks: [{type: zaqar-queue, target: q3}]\n'),
    ]);
    assert.deepEqual(
      merged.eventSinks.map((s) => (s as { target: string }).target),
      ['q1', 'q2', 'q3'],
    );
    assert.deepEqual(merged.encryptedParamNames, ['a', 'b']);
  });

  it('returns an empty environment for no files and keeps the file of a single one', () => {
    assert.deepEqual(
      environmentToJSON(mergeEnvironments([])),
      environmentToJSON(parseEnvironment('/x.yaml', '')),
    );
    const single = mergeEnvironments([env('one.yaml', 'parameters: {a: 1}\n')]);
    assert.equal(single.file, '/envs/one.yaml');
    assert.deepEqual(single.parameters, { a: 1 });
    assert.equal(mergeEnvironments([env('1.yaml', ''), env('2.yaml', '')]).file, undefined);
  });
});
