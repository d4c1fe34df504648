// Property tests of the template engine through its public entry points: whatever the input, the
// engine returns a stack definition or throws a TemplateError that says where the problem is.
// Set HEARTH_PROPERTY_SCALE (e.g. 50) to run every property that many times more.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { emptyEnvironment } from '../../src/template/environment/index.js';
import { formatPath, TemplateError } from '../../src/template/errors.js';
import { type TemplateLimits, withLimits } from '../../src/template/limits.js';
import { parseSource } from '../../src/template/source.js';
import { type DefineOptions, defineStackFromText } from '../../src/template/stack-definition.js';
import type { ResourceTypeInfo, TypeCatalog } from '../../src/template/types.js';
import { allVersions, findVersion } from '../../src/template/versions.js';
import type { Json } from '../../src/util/json.js';
import { errorOf } from './support.js';

const SCALE = Number(process.env.HEARTH_PROPERTY_SCALE ?? 1);
const runs = (n: number) => ({ numRuns: Math.max(1, Math.round(n * SCALE)) });

const ROOT = 'file:///t/root.yaml';
const NESTED_URL = 'file:///t/nested.yaml';

const THING: ResourceTypeInfo = {
  type: 'Test::Thing',
  validateProperties: () => {},
  hasAttribute: (name) => name === 'out' || name === 'show',
};
const TYPES: TypeCatalog = { get: (type) => (type === 'Test::Thing' ? THING : undefined) };

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

/** Object.prototype is exactly as it was: no key added, none polluted. */
function assertNoPollution(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_NAMES);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
}

/**
 * Runs the engine; a TemplateError is a valid outcome only when it has a message, a kind, and
 * (when `withPath`) a path that the message names. Anything else thrown fails the property.
 */
function outcome(run: () => unknown, withPath = false): 'ok' | TemplateError {
  try {
    run();
    return 'ok';
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    assert.ok(err.detail.length > 0, 'an error without a message');
    assert.ok(err.message.length > 0, 'an error without a message');
    assert.equal(typeof err.kind, 'string');
    if (withPath) {
      assert.ok(err.path.length > 0, `an error without a path: ${err.message}`);
      assert.ok(
        err.message.includes(formatPath(err.path)),
        `the message does not name the path: ${err.message}`,
      );
    }
    return err;
  } finally {
    assertNoPollution();
  }
}

const VERSION_NAMES = allVersions().map((v) => v.date);
const versionArb = fc.constantFrom(...VERSION_NAMES, 'wallaby', 'newton');

// ---------------------------------------------------------------------------------------------
// Random documents

describe('random documents', () => {
  test('random JSON values as a template', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.boolean(), (value, allowUnknownTypes) => {
        const text = JSON.stringify(value) ?? 'null';
        outcome(() => defineStackFromText(ROOT, text, { allowUnknownTypes, types: TYPES }));
      }),
      runs(300),
    );
  });

  test('random JSON values in the sections of a template', () => {
    const section = fc.option(fc.jsonValue({ maxDepth: 4 }), { nil: undefined });
    const arb = fc.record(
      {
        heat_template_version: versionArb,
        description: section,
        parameter_groups: section,
        parameters: section,
        conditions: section,
        resources: fc.oneof(
          section,
          fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
          fc.dictionary(
            fc.constantFrom('a', 'b', 'c'),
            fc.record({
              type: fc.oneof(fc.constant('Test::Thing'), fc.jsonValue({ maxDepth: 1 })),
              properties: fc.jsonValue({ maxDepth: 3 }),
              depends_on: fc.jsonValue({ maxDepth: 2 }),
            }),
            { maxKeys: 3 },
          ),
        ),
        outputs: section,
      },
      { requiredKeys: ['heat_template_version'] },
    );
    fc.assert(
      fc.property(arb, fc.boolean(), (template, allowUnknownTypes) => {
        const text = JSON.stringify(template);
        outcome(() => defineStackFromText(ROOT, text, { allowUnknownTypes, types: TYPES }));
      }),
      runs(300),
    );
  });

  const YAML_TOKENS = [
    '{',
    '}',
    '[',
    ']',
    ': ',
    ', ',
    '- ',
    '\n',
    '  ',
    '    ',
    '&a ',
    '*a',
    '*b',
    '!!binary ',
    '!!set ',
    '!!omap ',
    '!!pairs ',
    '!!timestamp ',
    '!!str ',
    '!!int ',
    '!!float ',
    '!!bool ',
    '!!null ',
    '!!python/object:os.system ',
    '!custom ',
    '<<: ',
    '? ',
    '|',
    '>-',
    '"',
    "'",
    '# c',
    '%YAML 1.1\n',
    '---\n',
    '...\n',
    '\t',
    '\\',
    '@',
    '`',
    'heat_template_version',
    '2018-08-31',
    '2013-05-23',
    'resources',
    'parameters',
    'outputs',
    'conditions',
    'type',
    'properties',
    'value',
    'get_param',
    'get_resource',
    'get_attr',
    'if',
    'Test::Thing',
    'x',
    'y',
    '1',
    '-1',
    '0x1F',
    '1e400',
    '.inf',
    '.nan',
    '~',
    'null',
    'yes',
    'no',
    'on',
    '2001-12-14t21:59:43.10-05:00',
    '__proto__',
    'constructor',
    '\u0000',
    '\ufeff',
    '\u2028',
    '😀',
  ];
  const yamlish = fc.array(fc.constantFrom(...YAML_TOKENS), { maxLength: 40 }).map((parts) => parts.join(''));

  test('random YAML-like text as a template', () => {
    fc.assert(
      fc.property(yamlish, fc.boolean(), (text, allowUnknownTypes) => {
        outcome(() => defineStackFromText(ROOT, text, { allowUnknownTypes, types: TYPES }));
      }),
      runs(400),
    );
  });

  const VALID = `heat_template_version: 2021-04-16
parameters:
  p: {type: string, default: a}
conditions:
  c: {equals: [{get_param: p}, a]}
resources:
  r:
    type: Test::Thing
    properties:
      x: {get_param: p}
      y: [1, {if: [c, 2]}]
  s:
    type: Test::Thing
    depends_on: r
    properties: {z: {get_attr: [r, out]}}
outputs:
  o: {value: {get_resource: s}}
`;

  test('a valid template with random text spliced in', () => {
    assert.equal(
      outcome(() => defineStackFromText(ROOT, VALID, { types: TYPES })),
      'ok',
    );
    const arb = fc.tuple(fc.nat({ max: VALID.length }), fc.nat({ max: 20 }), yamlish);
    fc.assert(
      fc.property(arb, fc.boolean(), ([at, cut, insert], allowUnknownTypes) => {
        const text = VALID.slice(0, at) + insert + VALID.slice(Math.min(VALID.length, at + cut));
        outcome(() => defineStackFromText(ROOT, text, { allowUnknownTypes, types: TYPES }));
      }),
      runs(400),
    );
  });

  test('random strings through parseSource', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), yamlish), (text) => {
        outcome(() => parseSource(ROOT, text));
      }),
      runs(300),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Random function trees

const RESOURCE_NAMES = ['r1', 'r2', 'r3'];
const PARAM_NAMES = ['p1', 'p2', 'p3'];
const CONDITION_NAMES = ['c1', 'c2'];
/** Names that exist, names that do not, and strings functions look for. */
const LEAF_STRINGS = [
  ...RESOURCE_NAMES,
  ...PARAM_NAMES,
  ...CONDITION_NAMES,
  'nope',
  'out',
  'show',
  'metadata',
  'deletion_policy',
  'update_policy',
  '$.data',
  '$.data.x.select($ * 2)',
  '$.data.len(',
  '',
  'a',
  'a,b',
  ',',
  '%s',
  'sha256',
  'md5',
  'http',
  'file.txt',
  'nested.yaml',
  'OS::stack_name',
  'OS::stack_id',
  '__proto__',
  'constructor',
  'toString',
];
/** Keys the map-argument functions read (str_replace, repeat, make_url, yaql, map_replace ...). */
const ARG_KEYS = [
  'template',
  'params',
  'for_each',
  'permutations',
  'expression',
  'data',
  'keys',
  'values',
  'on_duplicate',
  'scheme',
  'host',
  'port',
  'path',
  'query',
  'fragment',
  'username',
  'password',
  'ipv6',
  'Metadata',
  'a',
];
const PARAM_TYPES = ['string', 'number', 'json', 'comma_delimited_list', 'boolean', 'list', 'bogus'];
/** Declarations that are valid, with and without defaults (those without are unknown when validating). */
const GOOD_PARAMETERS = [
  { type: 'string' },
  { type: 'string', default: 'r1' },
  { type: 'number', default: 1 },
  { type: 'json', default: { x: [1, 2], out: 'r2' } },
  { type: 'json' },
  { type: 'comma_delimited_list', default: 'a,b' },
  { type: 'boolean', default: true },
  { type: 'boolean' },
];
const ALL_FUNCTION_NAMES = [
  ...new Set(allVersions().flatMap((v) => [...v.functions.names(), ...v.conditionFunctions.names()])),
];

const leafArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...LEAF_STRINGS) },
  { weight: 2, arbitrary: fc.integer({ min: -3, max: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, 1.5, -0, 1e21) },
);

type Arb = fc.Arbitrary<unknown>;

/**
 * The argument shape a function documents, its slots filled with random nodes; used for about half
 * of the calls, so that generated templates get past argument checks into resolution.
 */
function wellFormedArgs(name: string, node: Arb, list: Arb, map: Arb): Arb | undefined {
  const str = fc.oneof(fc.constantFrom(...LEAF_STRINGS), node);
  const pair = fc.tuple(node, node);
  switch (name) {
    case 'get_param':
      return fc.oneof(
        fc.constantFrom(...PARAM_NAMES, 'OS::stack_name'),
        fc
          .tuple(fc.constantFrom(...PARAM_NAMES), fc.array(node, { maxLength: 2 }))
          .map(([p, path]) => [p, ...path]),
      );
    case 'get_resource':
    case 'Ref':
      return fc.constantFrom(...RESOURCE_NAMES, ...PARAM_NAMES, 'nope');
    case 'get_attr':
      return fc.oneof(
        fc.constantFrom(...RESOURCE_NAMES).map((r) => [r]),
        fc
          .tuple(
            fc.constantFrom(...RESOURCE_NAMES),
            fc.constantFrom('out', 'show', 'nope'),
            fc.array(node, { maxLength: 2 }),
          )
          .map(([r, a, path]) => [r, a, ...path]),
      );
    case 'get_file':
      return fc.constantFrom('file.txt', 'nope.txt');
    case 'resource_facade':
      return fc.constantFrom('metadata', 'deletion_policy', 'update_policy');
    case 'Fn::ResourceFacade':
      return fc.constantFrom('Metadata', 'DeletionPolicy', 'UpdatePolicy');
    case 'list_join':
    case 'Fn::Join':
      return fc
        .tuple(fc.constantFrom(',', ''), list, fc.option(list, { nil: undefined }))
        .map(([d, a, b]) => (b === undefined ? [d, a] : [d, a, b]));
    case 'str_replace':
    case 'str_replace_strict':
    case 'str_replace_vstrict':
      return fc.record({ template: str, params: map });
    case 'str_split':
    case 'Fn::Split':
      return fc
        .tuple(fc.constantFrom(',', ''), str, fc.option(node, { nil: undefined }))
        .map(([d, v, i]) => (i === undefined ? [d, v] : [d, v, i]));
    case 'digest':
      return fc.tuple(fc.constantFrom('sha256', 'md5', 'nope'), str);
    case 'repeat':
      return fc.record(
        {
          for_each: fc.dictionary(fc.constantFrom('%a%', '%b%', 'a'), fc.oneof(list, node), {
            minKeys: 1,
            maxKeys: 2,
          }),
          template: fc.oneof(fc.constantFrom('%a%-%b%', 'x'), node, map),
          permutations: fc.boolean(),
        },
        { requiredKeys: ['for_each', 'template'] },
      );
    case 'map_merge':
      return fc.array(fc.oneof(map, node), { maxLength: 3 });
    case 'map_replace':
      return fc
        .tuple(map, fc.record({ keys: map, values: map }, { requiredKeys: [] }))
        .map(([m, r]) => [m, r]);
    case 'list_concat':
    case 'list_concat_unique':
    case 'filter':
      return fc.tuple(list, list);
    case 'contains':
    case 'equals':
      return pair;
    case 'make_url':
      return fc.record(
        {
          scheme: fc.constantFrom('http', 'https'),
          host: str,
          port: node,
          path: str,
          query: map,
          fragment: str,
        },
        { requiredKeys: [] },
      );
    case 'yaql':
      return fc.record(
        {
          expression: fc.constantFrom('$.data', '$.data.x.select($ * 2)', '$.data.len(', 'len($.data)'),
          data: node,
        },
        { requiredKeys: ['expression'] },
      );
    case 'not':
      return fc.oneof(fc.constantFrom(...CONDITION_NAMES), fc.boolean(), node);
    case 'and':
    case 'or':
      return fc.array(fc.oneof(fc.constantFrom(...CONDITION_NAMES), fc.boolean(), node), {
        minLength: 2,
        maxLength: 3,
      });
    case 'if':
      return fc
        .tuple(
          fc.oneof(fc.constantFrom(...CONDITION_NAMES), fc.boolean(), node),
          node,
          fc.option(node, { nil: undefined }),
        )
        .map(([c, a, b]) => (b === undefined ? [c, a] : [c, a, b]));
    case 'Fn::Select':
      return fc.tuple(fc.oneof(fc.integer({ min: -1, max: 3 }), node), fc.oneof(list, map, node));
    case 'Fn::Replace':
      return fc.tuple(map, str);
    case 'Fn::Base64':
      return str;
    case 'Fn::MemberListToMap':
      return fc.tuple(fc.constant('Name'), fc.constant('Value'), list);
    case 'Fn::GetAZs':
      return fc.constantFrom('', 'region');
    default:
      return undefined;
  }
}

/**
 * Nestings of the functions in `names` (plus, rarely, a function of any version), with argument
 * shapes either as the function documents them or drawn at random: scalars, lists and maps whose
 * keys are the ones functions look for.
 */
function treeArb(names: string[], maxDepth: number): Arb {
  const anyVersion = fc.constantFrom(...ALL_FUNCTION_NAMES);
  const fnName =
    names.length === 0
      ? anyVersion
      : fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: anyVersion });
  const { node } = fc.letrec<{ node: unknown; list: unknown[]; map: Record<string, unknown>; call: unknown }>(
    (tie) => {
      const node = tie('node');
      const list = tie('list');
      const map = tie('map');
      return {
        node: fc.oneof(
          { maxDepth, depthSize: 'small', depthIdentifier: 'tree' },
          { weight: 3, arbitrary: leafArb },
          { weight: 2, arbitrary: tie('call') },
          { weight: 1, arbitrary: list },
          { weight: 1, arbitrary: map },
        ),
        list: fc.array(node, { maxLength: 3, depthIdentifier: 'tree' }),
        map: fc.dictionary(fc.constantFrom(...ARG_KEYS, ...LEAF_STRINGS), node, {
          maxKeys: 3,
          depthIdentifier: 'tree',
        }),
        call: fnName.chain((name) => {
          const shaped = wellFormedArgs(name, node, list, map);
          const args = shaped
            ? fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: node })
            : node;
          return args.map((a) => ({ [name]: a }));
        }),
      };
    },
  );
  return node;
}

interface Generated {
  version: string;
  template: Record<string, unknown>;
  nested: Record<string, unknown>;
  yaml: boolean;
  allowUnknownTypes: boolean;
  strict: boolean;
  parameterValues: Record<string, unknown>;
}

function templateArb(version: string, depth: number, resourceTypes: string[]) {
  const v = findVersion(version)!;
  const values = treeArb(v.functions.names(), depth);
  const conditions = treeArb(v.conditionFunctions.names(), depth);
  const conditionRef = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...CONDITION_NAMES, true) },
    { weight: 1, arbitrary: fc.constantFrom('nope', false) },
    { weight: 2, arbitrary: conditions },
  );
  const paramDecl = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...GOOD_PARAMETERS) },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          type: fc.constantFrom(...PARAM_TYPES),
          default: fc.oneof(leafArb, fc.jsonValue({ maxDepth: 2 }), fc.constant('1,2')),
          hidden: fc.boolean(),
        },
        { requiredKeys: ['type'] },
      ),
    },
  );
  const resource = fc.record(
    {
      type: fc.constantFrom(...resourceTypes),
      properties: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.dictionary(fc.constantFrom(...ARG_KEYS, ...PARAM_NAMES), values, { maxKeys: 3 }),
        },
        { weight: 1, arbitrary: values },
      ),
      metadata: fc.dictionary(fc.constantFrom(...ARG_KEYS), values, { maxKeys: 2 }),
      depends_on: fc.oneof(
        fc.constantFrom(...RESOURCE_NAMES, 'nope'),
        fc.array(fc.constantFrom(...RESOURCE_NAMES)),
      ),
      deletion_policy: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('Delete', 'Retain', 'Snapshot', 'retain') },
        { weight: 1, arbitrary: fc.constant('Keep') },
        { weight: 1, arbitrary: values },
      ),
      update_policy: fc.dictionary(fc.constantFrom(...ARG_KEYS), values, { maxKeys: 2 }),
      ...(v.hasConditions ? { condition: conditionRef, external_id: values } : {}),
    },
    { requiredKeys: ['type'] },
  );
  const output = fc.record(
    {
      value: values,
      description: fc.constantFrom('d'),
      ...(v.hasConditions ? { condition: conditionRef } : {}),
    },
    { requiredKeys: ['value'] },
  );
  return fc.record(
    {
      heat_template_version: fc.constant(version),
      parameters: fc.dictionary(fc.constantFrom(...PARAM_NAMES), paramDecl, { maxKeys: 3 }),
      ...(v.hasConditions
        ? { conditions: fc.dictionary(fc.constantFrom(...CONDITION_NAMES), conditions, { maxKeys: 2 }) }
        : {}),
      resources: fc.dictionary(fc.constantFrom(...RESOURCE_NAMES), resource, { maxKeys: 3 }),
      outputs: fc.dictionary(fc.constantFrom('o1', 'o2'), output, { maxKeys: 2 }),
    },
    { requiredKeys: ['heat_template_version'] },
  );
}

const generatedArb: fc.Arbitrary<Generated> = fc.constantFrom(...VERSION_NAMES).chain((version) =>
  fc.record({
    version: fc.constant(version),
    template: templateArb(version, 4, ['Test::Thing', 'Test::Thing', 'Other::Type', 'nested.yaml']),
    nested: fc
      .constantFrom(...VERSION_NAMES)
      .chain((nestedVersion) => templateArb(nestedVersion, 2, ['Test::Thing', 'nested.yaml'])),
    yaml: fc.boolean(),
    allowUnknownTypes: fc.boolean(),
    strict: fc.oneof(
      { weight: 4, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    parameterValues: fc.dictionary(fc.constantFrom(...PARAM_NAMES, 'nope'), leafArb, { maxKeys: 2 }),
  }),
);

function serialise(value: unknown, yaml: boolean): string {
  return yaml ? toYaml(value) : JSON.stringify(value);
}

function defineGenerated(g: Generated) {
  const options: DefineOptions = {
    types: TYPES,
    allowUnknownTypes: g.allowUnknownTypes,
    strict: g.strict,
    files: { [NESTED_URL]: serialise(g.nested, g.yaml), 'file:///t/file.txt': 'content' },
    environment: { ...emptyEnvironment(), parameters: g.parameterValues as Record<string, Json> },
  };
  return defineStackFromText(ROOT, serialise(g.template, g.yaml), options);
}

describe('random function trees', () => {
  test('every version: the engine returns or throws a positioned TemplateError', () => {
    let ok = 0;
    fc.assert(
      fc.property(generatedArb, (g) => {
        if (outcome(() => defineGenerated(g), true) === 'ok') ok++;
      }),
      runs(600),
    );
    // The generator must reach past the first error now and then to be worth anything.
    assert.ok(ok > 0, 'no generated template was valid');
  });

  for (const version of ['2013-05-23', '2016-10-14', '2021-04-16']) {
    test(`${version}: function trees in outputs only`, () => {
      const v = findVersion(version)!;
      const arb = fc.record({
        value: treeArb(v.functions.names(), 5),
        params: fc.dictionary(fc.constantFrom(...PARAM_NAMES), fc.constantFrom('string', 'json', 'number'), {
          maxKeys: 3,
        }),
      });
      fc.assert(
        fc.property(arb, ({ value, params }) => {
          const template = {
            heat_template_version: version,
            parameters: Object.fromEntries(Object.entries(params).map(([name, type]) => [name, { type }])),
            resources: { r1: { type: 'Test::Thing' }, r2: { type: 'Test::Thing', depends_on: 'r1' } },
            outputs: { o: { value } },
          };
          outcome(() => defineStackFromText(ROOT, JSON.stringify(template), { types: TYPES }), true);
        }),
        runs(250),
      );
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Prototype names

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('prototype names are ordinary names', () => {
  test('as resource, parameter, condition and output names and property keys', () => {
    for (const format of ['yaml', 'json'] as const) {
      const text =
        format === 'yaml'
          ? `heat_template_version: 2018-08-31
parameters:
  __proto__: {type: json, default: {polluted: yes}}
  constructor: {type: string, default: y}
  toString: {type: json, default: {__proto__: {polluted: 1}}}
conditions:
  __proto__: true
  constructor: {equals: [{get_param: constructor}, y]}
  toString: {and: [__proto__, constructor]}
resources:
  __proto__:
    type: Test::Thing
    condition: toString
    properties:
      __proto__: {polluted: 1}
      constructor: {get_param: __proto__}
      prototype: {get_param: [toString, __proto__]}
  constructor:
    type: Test::Thing
    depends_on: __proto__
    properties: {toString: {get_resource: __proto__}, __proto__: {get_attr: [__proto__, out]}}
outputs:
  __proto__: {value: {get_attr: [constructor, out]}}
  toString: {value: {get_param: [__proto__, polluted]}, condition: constructor}
`
          : `{"heat_template_version": "2018-08-31",
 "parameters": {"__proto__": {"type": "json", "default": {"polluted": 1}},
                "constructor": {"type": "string", "default": "y"}},
 "conditions": {"__proto__": true, "toString": {"equals": [{"get_param": "constructor"}, "y"]}},
 "resources": {"__proto__": {"type": "Test::Thing", "condition": "toString",
                             "properties": {"__proto__": {"polluted": 1}}},
               "constructor": {"type": "Test::Thing", "properties": {"x": {"get_resource": "__proto__"}}}},
 "outputs": {"__proto__": {"value": {"get_param": ["__proto__", "polluted"]}}}}`;
      const stack = defineStackFromText(`file:///t/t.${format}`, text, { types: TYPES });
      assertNoPollution();
      assert.deepEqual([...stack.resources.keys()], ['__proto__', 'constructor']);
      assert.deepEqual(stack.resources.get('constructor')!.requires, ['__proto__']);
      assert.equal(stack.conditions.get('__proto__'), true);
      assert.ok(stack.parameters.has('__proto__'));
      assert.ok(stack.outputs.has('__proto__'));
      assert.equal(stack.graph.topologicalOrder()[0], '__proto__');
    }
  });

  test('references to prototype names that do not exist are reference errors', () => {
    for (const name of PROTO_NAMES) {
      const cases: [string, string][] = [
        [
          `resources:\n  a: {type: Test::Thing, properties: {x: {get_resource: ${name}}}}\n`,
          'resources.a.properties.x',
        ],
        [`outputs:\n  o: {value: {get_attr: [${name}, out]}}\n`, 'outputs.o.value'],
        [`outputs:\n  o: {value: {get_param: ${name}}}\n`, 'outputs.o.value'],
        [`resources:\n  a: {type: Test::Thing, condition: ${name}}\n`, 'resources.a.condition'],
        [`resources:\n  a: {type: Test::Thing, depends_on: ${name}}\n`, 'resources.a.depends_on'],
      ];
      for (const [body, path] of cases) {
        const err = errorOf(() =>
          defineStackFromText(ROOT, `heat_template_version: 2018-08-31\n${body}`, { types: TYPES }),
        );
        assert.equal(err.kind, 'reference', err.message);
        assert.ok(err.message.includes(`${path}: `), err.message);
        assertNoPollution();
      }
    }
  });

  test('get_resource: constructor is a reference error, not a crash', () => {
    const err = errorOf(() =>
      defineStackFromText(
        ROOT,
        'heat_template_version: 2018-08-31\nresources:\n  a: {type: Test::Thing, properties: {x: {get_resource: constructor}}}\n',
        { types: TYPES },
      ),
    );
    assert.equal(err.kind, 'reference');
    assert.equal(
      err.message,
      'file:///t/root.yaml:3:39: resources.a.properties.x: the specified reference "constructor" is not a resource of this template',
    );
  });

  test('property: prototype names anywhere never pollute', () => {
    const name = fc.constantFrom(...PROTO_NAMES, 'x');
    const leaf = fc.oneof(name, fc.integer(), fc.constant({ polluted: 1 }));
    const value = fc.oneof(
      leaf,
      name.map((n) => ({ get_param: n })),
      name.map((n) => ({ get_resource: n })),
      fc.tuple(name, name).map(([r, a]) => ({ get_attr: [r, a] })),
      fc.tuple(name, leaf).map(([k, v]) => ({ map_merge: [{ [k]: v }, { [k]: v }] })),
      fc.tuple(name, leaf).map(([k, v]) => ({ map_replace: [{ [k]: v }, { keys: { [k]: 'polluted' } }] })),
      fc.tuple(name, leaf).map(([k, v]) => ({ str_replace: { template: k, params: { [k]: v } } })),
      fc
        .tuple(name, leaf)
        .map(([k, v]) => ({ repeat: { template: { [k]: '%v%' }, for_each: { '%v%': [v] } } })),
      fc.tuple(name, leaf).map(([k, v]) => ({ yaql: { expression: `$.data`, data: { [k]: v } } })),
      fc.tuple(name, name).map(([a, b]) => ({ if: [a, { [b]: 1 }, { [a]: 2 }] })),
    );
    const arb = fc.record({
      parameters: fc.dictionary(name, fc.constant({ type: 'json', default: { polluted: 1 } }), {
        maxKeys: 2,
      }),
      conditions: fc.dictionary(name, fc.oneof(fc.boolean(), name), { maxKeys: 2 }),
      resources: fc.dictionary(
        name,
        fc.record({
          type: fc.constant('Test::Thing'),
          properties: fc.dictionary(name, value, { maxKeys: 3 }),
        }),
        { maxKeys: 2 },
      ),
      outputs: fc.dictionary(name, fc.record({ value }), { maxKeys: 2 }),
    });
    fc.assert(
      fc.property(arb, fc.boolean(), (sections, yaml) => {
        const template = { heat_template_version: '2021-04-16', ...sections };
        outcome(() => defineStackFromText(ROOT, serialise(template, yaml), { types: TYPES }), true);
      }),
      runs(300),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Limits

function limitError(text: string, limits: Partial<TemplateLimits>, files: Record<string, string> = {}) {
  return outcome(() => defineStackFromText(ROOT, text, { types: TYPES, files, limits: withLimits(limits) }));
}

function assertLimit(result: 'ok' | TemplateError, pattern: RegExp): void {
  assert.ok(result instanceof TemplateError, 'expected a limit error');
  assert.equal(result.kind, 'limit', result.message);
  assert.match(result.message, pattern);
}

/** A template whose output value is `depth` nested lists. */
function deepTemplate(depth: number): string {
  return `{"heat_template_version": "2018-08-31", "outputs": {"o": {"value": ${'['.repeat(depth)}1${']'.repeat(depth)}}}}`;
}

function manyResources(count: number, type = 'Test::Thing'): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < count; i++) lines.push(`  r${i}: {type: ${type}}`);
  return `${lines.join('\n')}\n`;
}

describe('limits', () => {
  test('maxDocumentDepth', () => {
    // The document root and the sections down to the value are 4 levels.
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 40 }), fc.integer({ min: 0, max: 40 }), (limit, depth) => {
        const result = limitError(deepTemplate(depth), { maxDocumentDepth: limit });
        if (depth + 3 > limit) assertLimit(result, new RegExp(`nested deeper than ${limit} levels`));
        else assert.equal(result, 'ok');
      }),
      runs(60),
    );
    // Far deeper than any stack: still a limit error, not a RangeError.
    assertLimit(limitError(deepTemplate(200_000), {}), /nested (too )?deep/);
    assertLimit(
      limitError(`heat_template_version: 2018-08-31\nx: ${'['.repeat(100_000)}`, {}),
      /nested (too )?deep/,
    );
  });

  test('maxDocumentNodes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 60 }), (limit, items) => {
        // root, version, outputs, o, value list, and the items.
        const text = `{"heat_template_version": "2018-08-31", "outputs": {"o": {"value": [${Array(items).fill(1).join(',')}]}}}`;
        const result = limitError(text, { maxDocumentNodes: limit });
        if (items + 5 > limit) assertLimit(result, new RegExp(`more than ${limit} nodes`));
        else assert.equal(result, 'ok');
      }),
      runs(60),
    );
  });

  test('maxResourcesPerStack, counting nested stacks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), (limit, count) => {
        const result = limitError(manyResources(count), { maxResourcesPerStack: limit });
        if (count > limit) {
          assertLimit(result, new RegExp(`more than ${limit} resources`));
          assert.ok(result instanceof TemplateError && result.message.includes(': resources: '));
        } else assert.equal(result, 'ok');
      }),
      runs(40),
    );
    // 2 in the root + 3 in each of the 2 nested stacks = 8.
    const files = { [NESTED_URL]: manyResources(3) };
    assert.equal(limitError(manyResources(2, 'nested.yaml'), { maxResourcesPerStack: 8 }, files), 'ok');
    assertLimit(
      limitError(manyResources(2, 'nested.yaml'), { maxResourcesPerStack: 7 }, files),
      /more than 7 resources/,
    );
  });

  test('maxNestingDepth', () => {
    const chain = (length: number): Record<string, string> => {
      const files: Record<string, string> = {};
      for (let i = 1; i <= length; i++) {
        files[`file:///t/n${i}.yaml`] =
          i < length ? manyResources(1, `n${i + 1}.yaml`) : manyResources(1, 'Test::Thing');
      }
      return files;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 8 }), (limit, length) => {
        const result = limitError(manyResources(1, 'n1.yaml'), { maxNestingDepth: limit }, chain(length));
        if (length > limit) assertLimit(result, new RegExp(`deeper than the limit of ${limit} levels`));
        else assert.equal(result, 'ok');
      }),
      runs(40),
    );
  });

  test('maxDocumentBytes and maxAliasCount', () => {
    assertLimit(
      limitError(manyResources(10), { maxDocumentBytes: 100 }),
      /exceeds maximum allowed size \(100 bytes\)/,
    );
    const laughs = [
      'heat_template_version: 2018-08-31',
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      '',
    ].join('\n');
    assertLimit(limitError(laughs, { maxAliasCount: 50 }), /alias/i);
  });
});

// ---------------------------------------------------------------------------------------------
// Crashes these properties led to (each was a RangeError or a lost value); pinned as regressions.

describe('regressions: large values, long chains, __proto__ parameters', () => {
  const output = (value: string) =>
    `heat_template_version: 2017-09-01\noutputs:\n  o:\n    value: ${value}\n`;

  // Once `items.push(...list)`: a list this long overflowed the argument limit.
  test('list_concat of a 200,000-item list', () => {
    const text = output(`{list_concat: [{yaql: {expression: 'range(200000)'}}]}`);
    assert.equal(
      outcome(() => defineStackFromText(ROOT, text)),
      'ok',
    );
  });

  test('list_join of a 200,000-item list', () => {
    const text = output(`{list_join: [',', {yaql: {expression: "[''] * 200000"}}]}`);
    assert.equal(
      outcome(() => defineStackFromText(ROOT, text)),
      'ok',
    );
  });

  /** 200,000 placeholders each replaced by 3,000 characters: beyond V8's longest string. */
  function assertTooLarge(value: string, fn: string, path: string): void {
    const result = outcome(() => defineStackFromText(ROOT, output(value)), true);
    assert.ok(result instanceof TemplateError, 'expected a TemplateError');
    assert.equal(result.kind, 'limit', result.message);
    assert.equal(formatPath(result.path), path);
    assert.match(result.detail, new RegExp(`^${fn}: `));
  }

  test('str_replace building a string longer than the engine can hold is a limit error', () => {
    assertTooLarge(
      `{str_replace: {template: {yaql: {expression: "'%a%' * 200000"}}, params: {'%a%': {yaql: {expression: "'x' * 3000"}}}}}`,
      'str_replace',
      'outputs.o.value',
    );
  });

  test('repeat building a string longer than the engine can hold is a limit error', () => {
    assertTooLarge(
      `{repeat: {for_each: {'%a%': [{yaql: {expression: "'x' * 3000"}}]}, template: {yaql: {expression: "'%a%' * 200000"}}}}`,
      'repeat',
      'outputs.o.value',
    );
  });

  // Once a RangeError: each link of the chain was a level of recursion.
  test('a chain of 3,000 named conditions', () => {
    const lines = ['heat_template_version: 2016-10-14', 'conditions:'];
    for (let i = 0; i < 3000; i++) lines.push(`  c${i}: {not: c${i + 1}}`);
    lines.push('  c3000: true');
    const stack = defineStackFromText(ROOT, `${lines.join('\n')}\n`);
    assert.equal(stack.conditions.get('c0'), true);
    assert.equal(stack.conditions.get('c1'), false);
    assert.equal(stack.conditions.get('c2999'), false);
  });

  test('a long chain of conditions with a loop at its end is still a cycle', () => {
    const lines = ['heat_template_version: 2016-10-14', 'conditions:'];
    for (let i = 0; i < 3000; i++) lines.push(`  c${i}: {and: [true, c${i + 1}]}`);
    lines.push('  c3000: {or: [false, c2990]}');
    // Reported where it is used (Heat resolves a condition only then).
    lines.push('outputs:', '  o: {value: 1, condition: c0}');
    const result = outcome(() => defineStackFromText(ROOT, `${lines.join('\n')}\n`), true);
    assert.ok(result instanceof TemplateError, 'expected a TemplateError');
    assert.equal(result.kind, 'cycle', result.message);
    assert.match(result.detail, /^condition "c\d+" refers to itself: /);
  });

  // Once dropped: `out[name] = value` with name "__proto__" sets a prototype, not a key.
  const PROTO_PARAM = `heat_template_version: 2018-08-31
parameters:
  __proto__: {type: string}
outputs:
  o: {value: {get_param: __proto__}}
`;
  const given = () => JSON.parse('{"__proto__": "given"}') as Record<string, Json>;

  test('a parameter named __proto__ given by the environment', () => {
    const stack = defineStackFromText(ROOT, PROTO_PARAM, {
      strict: true,
      environment: { ...emptyEnvironment(), parameters: given() },
    });
    assert.equal(stack.parameters.get('__proto__'), 'given');
    assertNoPollution();
  });

  test('a parameter named __proto__ given by parameter_defaults', () => {
    const stack = defineStackFromText(ROOT, PROTO_PARAM, {
      environment: { ...emptyEnvironment(), parameterDefaults: given() },
    });
    assert.equal(stack.parameters.get('__proto__'), 'given');
    assertNoPollution();
  });

  test('a nested template parameter named __proto__ given by the parent', () => {
    const root = `heat_template_version: 2018-08-31
resources:
  n:
    type: nested.yaml
    properties: {__proto__: given}
`;
    const stack = defineStackFromText(ROOT, root, { strict: true, files: { [NESTED_URL]: PROTO_PARAM } });
    const implementation = stack.resources.get('n')!.implementation;
    assert.equal(implementation.kind, 'template');
    assert.equal(
      implementation.kind === 'template' && implementation.stack.parameters.get('__proto__'),
      'given',
    );
    assertNoPollution();
  });
});
