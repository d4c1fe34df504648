import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TemplateErrorKind } from '../../src/template/errors.js';
import { parseEnvironment } from '../../src/template/environment/index.js';
import { FnCall } from '../../src/template/functions/types.js';
import { parseSource } from '../../src/template/source.js';
import { defineStackFromText } from '../../src/template/stack-definition.js';
import { parseTemplate, type Template } from '../../src/template/template.js';
import { validateResult } from '../../src/template/validate-result.js';
import { errorOf, recorder } from './support.js';

// CloudFormation-format templates (heat/engine/cfn/template.py): both versions, their sections and
// keys, parameters, and errors placed in the document as HOT's are.

const FILE = 'file:///t/t.template';
const AWS = "AWSTemplateFormatVersion: '2010-09-09'\n";
const HEAT = "HeatTemplateFormatVersion: '2012-12-12'\n";

function load(text: string): Template {
  return parseTemplate(parseSource(FILE, text));
}

function define(text: string, options: { strict?: boolean; parameters?: Record<string, string> } = {}) {
  const { parameters, ...rest } = options;
  return defineStackFromText(FILE, text, {
    types: recorder(),
    stackName: 'st',
    stackId: 'id-1',
    projectId: 'p 1',
    ...(parameters ? { environment: { parameters } as never } : {}),
    ...rest,
  });
}

function assertError(
  run: () => unknown,
  kind: TemplateErrorKind,
  path: (string | number)[],
  message: string,
) {
  const err = errorOf(run);
  assert.equal(err.message, message);
  assert.equal(err.kind, kind);
  assert.deepEqual(err.path, path);
}

describe('CloudFormation-format templates: versions and sections', () => {
  test('both versions, in JSON or YAML; conditions only in 2010-09-09', () => {
    const aws = load(`${AWS}Conditions: {c: true}\nResources: {}\n`);
    assert.equal(aws.version.format, 'cfn');
    assert.equal(aws.version.key, 'AWSTemplateFormatVersion');
    assert.equal(aws.conditions.size, 1);
    const json = load('{"HeatTemplateFormatVersion": "2012-12-12", "Description": "d", "Resources": {}}');
    assert.equal(json.version.date, '2012-12-12');
    assert.equal(json.description, 'd');
    assertError(
      () => load(`${HEAT}Conditions: {c: true}\n`),
      'schema',
      ['Conditions'],
      'file:///t/t.template:2:1: Conditions: The template section is invalid: Conditions',
    );
  });

  test('unknown versions, several version keys and unknown sections are refused with Heat’s messages', () => {
    assertError(
      () => load("AWSTemplateFormatVersion: '2011-01-01'\n"),
      'version',
      ['AWSTemplateFormatVersion'],
      'file:///t/t.template:1:1: AWSTemplateFormatVersion: The template version is invalid: ' +
        '"AWSTemplateFormatVersion: 2011-01-01". "AWSTemplateFormatVersion" should be: 2010-09-09',
    );
    assertError(
      () => load(`${AWS}${HEAT}`),
      'version',
      ['HeatTemplateFormatVersion'],
      'file:///t/t.template:2:1: HeatTemplateFormatVersion: Ambiguous versions (AWSTemplateFormatVersion, HeatTemplateFormatVersion)',
    );
    assertError(
      () => load(`${AWS}resources: {}\n`),
      'schema',
      ['resources'],
      'file:///t/t.template:2:1: resources: The template section is invalid: resources',
    );
  });

  test('resources: every key read into the model; functions of the version only', () => {
    const t = load(`${AWS}Conditions: {enabled: true}
Resources:
  a:
    Type: Test::Thing
    Properties: {x: {Ref: b}, y: {get_param: p}}
    Metadata: {m: 1}
    DependsOn: b
    DeletionPolicy: Retain
    UpdatePolicy: {u: 1}
    Description: the a
    Condition: enabled
    Whatever: ignored, as Heat ignores it
  b: {Type: Test::Thing, DependsOn: [a]}
`);
    const a = t.resources.get('a')!;
    assert.equal(a.type, 'Test::Thing');
    const props = a.properties as Record<string, unknown>;
    assert.ok(props.x instanceof FnCall && props.x.name === 'Ref');
    // get_param is no CloudFormation function: plain data, as in Heat.
    assert.deepEqual(props.y, { get_param: 'p' });
    assert.deepEqual(a.dependsOn, ['b']);
    assert.equal(a.deletionPolicy, 'Retain');
    assert.deepEqual(a.metadata, { m: 1 });
    assert.deepEqual(a.updatePolicy, { u: 1 });
    assert.equal(a.description, 'the a');
    assert.equal(a.condition, 'enabled');
    assert.deepEqual(t.resources.get('b')!.dependsOn, ['a']);
    assert.deepEqual(a.path, ['Resources', 'a']);
  });

  test('malformed resources get Heat’s messages, placed in the document', () => {
    const cases: [string, (string | number)[], string][] = [
      ['a: {Properties: {}}', ['Resources', 'a'], 'Each Resource must contain a Type key.'],
      ['a: [1]', ['Resources', 'a'], "Resources must contain Resource. Found a [<class 'list'>] instead"],
      ['a: {Type: [x]}', ['Resources', 'a', 'Type'], 'Resource a Type type must be string'],
      [
        'a: {Type: T, Properties: [1]}',
        ['Resources', 'a', 'Properties'],
        'Resource a Properties type must be object',
      ],
      [
        'a: {Type: T, DependsOn: [1]}',
        ['Resources', 'a', 'DependsOn', 0],
        'Resource a DependsOn must be a list of strings',
      ],
      [
        'a: {Type: T, DeletionPolicy: Keep}',
        ['Resources', 'a', 'DeletionPolicy'],
        'Invalid deletion policy "Keep"',
      ],
      [
        'a: {Type: T, Condition: [x]}',
        ['Resources', 'a', 'Condition'],
        'Resource a Condition type must be string or boolean',
      ],
    ];
    for (const [body, path, message] of cases) {
      const err = errorOf(() => load(`${AWS}Resources:\n  ${body}\n`));
      assert.equal(err.detail, message, body);
      assert.deepEqual(err.path, path, body);
      assert.equal(err.position?.line, path.length > 2 ? 3 : 3, body);
    }
  });

  test('outputs: Value required, Description and Condition read', () => {
    const t = load(`${AWS}Conditions: {enabled: false}
Outputs:
  o: {Value: {Ref: 'AWS::StackName'}, Description: the o, Condition: enabled}
`);
    const o = t.outputs.get('o')!;
    assert.ok(o.value instanceof FnCall);
    assert.equal(o.description, 'the o');
    assert.equal(o.condition, 'enabled');
    assertError(
      () => load(`${AWS}Outputs:\n  o: {Description: x}\n`),
      'schema',
      ['Outputs', 'o'],
      'file:///t/t.template:3:3: Outputs.o: Each output definition must contain a Value key.',
    );
    assertError(
      () => load(`${AWS}Outputs:\n  o: text\n`),
      'schema',
      ['Outputs', 'o'],
      'file:///t/t.template:3:3: Outputs.o: Output definitions must be a map. Found a str instead',
    );
  });
});

describe('CloudFormation-format parameters', () => {
  test('types, constraints, NoEcho and Label read into the parameter model', () => {
    const t = load(`${AWS}Parameters:
  Size: {Type: Number, Default: '8', MinValue: '4', MaxValue: 32, ConstraintDescription: 4 to 32}
  Name: {Type: String, MinLength: 2, AllowedPattern: '[a-z]*', NoEcho: 'TRUE', Label: The name, Description: d}
  Env: {Type: String, AllowedValues: [dev, prod], Default: dev}
  List: {Type: CommaDelimitedList, Default: 'a,b'}
  Data: {Type: Json, Default: {a: 1}}
  Flag: {Type: Boolean, Default: 'yes'}
`);
    const size = t.parameters.get('Size')!;
    assert.equal(size.type, 'number');
    assert.deepEqual(size.constraints, [{ kind: 'range', min: 4, max: 32, description: '4 to 32' }]);
    const name = t.parameters.get('Name')!;
    assert.equal(name.hidden, true);
    assert.equal(name.label, 'The name');
    assert.deepEqual(
      name.constraints.map((c) => c.kind),
      ['length', 'allowed_pattern'],
    );
    assert.deepEqual(
      [...t.parameters.values()].map((p) => p.type),
      ['number', 'string', 'string', 'comma_delimited_list', 'json', 'boolean'],
    );
  });

  test('validate shows CFN parameters as Heat does', () => {
    const result = validateResult(
      define(`${AWS}Description: the stack
Parameters:
  Size: {Type: Number, Default: 8, MinValue: 4, ConstraintDescription: at least 4}
  Secret: {Type: String, NoEcho: true}
`),
    );
    assert.deepEqual(result, {
      Description: 'the stack',
      Parameters: {
        Size: {
          Type: 'Number',
          Description: '',
          NoEcho: 'false',
          Label: 'Size',
          Default: 8,
          MinValue: 4,
          ConstraintDescription: 'at least 4',
        },
        Secret: { Type: 'String', Description: '', NoEcho: 'true', Label: 'Secret' },
      },
    });
  });

  test('bad parameter definitions and defaults get Heat’s messages at the CFN key', () => {
    const cases: [string, (string | number)[], string][] = [
      ['P: {Type: Text}', ['Parameters', 'P', 'Type'], 'Invalid type (Text)'],
      ['P: {Default: 1}', ['Parameters', 'P'], 'Missing parameter type for parameter: P'],
      [
        'P: {Type: String, Secret: 1}',
        ['Parameters', 'P', 'Secret'],
        "Invalid key 'Secret' for parameter (P)",
      ],
      [
        'P: {Type: String, MinValue: 1}',
        ['Parameters', 'P', 'MinValue'],
        'Range constraint invalid for String',
      ],
      [
        'P: {Type: CommaDelimitedList, AllowedPattern: x}',
        ['Parameters', 'P', 'AllowedPattern'],
        'AllowedPattern constraint invalid for CommaDelimitedList',
      ],
      ['P: {Type: String, Label: [x]}', ['Parameters', 'P', 'Label'], 'label must be a string, not a list'],
      ['P: {Type: Number, MaxValue: x}', ['Parameters', 'P', 'MaxValue'], 'MaxValue must be a number'],
      [
        'P: {Type: Number, Default: 9, MaxValue: 5}',
        ['Parameters', 'P', 'Default'],
        'Invalid default 9 (9 is out of range (min: None, max: 5))',
      ],
      [
        "'AWS::Region': {Type: String}",
        ['Parameters', 'AWS::Region'],
        '"AWS::Region" is a pseudo parameter supplied by the engine and cannot be declared',
      ],
    ];
    for (const [body, path, message] of cases) {
      const err = errorOf(() => load(`${AWS}Parameters:\n  ${body}\n`));
      assert.equal(err.detail, message, body);
      assert.deepEqual(err.path, path, body);
      assert.equal(err.file, FILE);
      assert.equal(err.position?.line, 3, body);
    }
  });

  test('pseudo parameters: AWS::StackName, AWS::StackId (Heat’s ARN) and AWS::Region', () => {
    const stack = define(`${AWS}Resources:
  a: {Type: Test::Thing, Properties: {n: {Ref: 'AWS::StackName'}, i: {Ref: 'AWS::StackId'}, r: {Ref: 'AWS::Region'}}}
`);
    assert.equal(stack.parameters.get('AWS::StackName'), 'st');
    assert.equal(stack.parameters.get('AWS::StackId'), 'arn:openstack:heat::p%201:stacks/st/id-1');
    assert.equal(stack.parameters.get('AWS::Region'), 'ap-southeast-1');
    assert.equal(stack.parameters.has('OS::stack_name'), false);
    assert.deepEqual(stack.resources.get('a')!.requires, []);
  });
});

describe('CloudFormation-format templates bound', () => {
  const TEMPLATE = `${AWS}Parameters:
  Env: {Type: String, Default: dev}
Mappings:
  Sizes: {dev: {len: 10}, prod: {len: 20}}
Conditions:
  IsProd: {'Fn::Equals': [{Ref: Env}, prod]}
  IsDev: {'Fn::Not': [IsProd]}
Resources:
  a: {Type: Test::Thing, Properties: {len: {'Fn::FindInMap': [Sizes, {Ref: Env}, len]}}}
  b: {Type: Test::Thing, Condition: IsProd, Properties: {x: {'Fn::GetAtt': [a, out]}}}
  c: {Type: Test::Thing, DependsOn: b, Properties: {x: {'Fn::If': [IsDev, {Ref: a}, other]}}}
Outputs:
  o: {Value: {'Fn::GetAtt': [b, out]}, Condition: IsProd}
`;

  test('conditions, mappings and references make the same model HOT does', () => {
    const seen: unknown[] = [];
    const dev = defineStackFromText(FILE, TEMPLATE, { types: recorder(seen as never) });
    assert.deepEqual([...dev.resources.keys()], ['a', 'c']);
    assert.deepEqual(dev.resources.get('c')!.requires, ['a']);
    assert.deepEqual(seen[0], { len: 10 });
    assert.deepEqual(
      [...dev.conditions],
      [
        ['IsProd', false],
        ['IsDev', true],
      ],
    );
    const prod = define(TEMPLATE, { parameters: { Env: 'prod' } });
    assert.deepEqual([...prod.resources.keys()], ['a', 'b', 'c']);
    assert.deepEqual(prod.resources.get('b')!.requires, ['a']);
    assert.deepEqual(prod.resources.get('c')!.requires, ['b']);
  });

  test('errors found when binding are placed with the document’s names', () => {
    assertError(
      () => define(`${AWS}Resources:\n  a: {Type: Test::Thing, Properties: {x: {'Fn::GetAtt': [b, out]}}}\n`),
      'reference',
      ['Resources', 'a', 'Properties', 'x'],
      'file:///t/t.template:3:39: Resources.a.Properties.x: the specified reference "b" is not a resource of this template',
    );
    assertError(
      () => define(`${AWS}Resources:\n  a: {Type: Test::Thing, Condition: nope}\n`),
      'reference',
      ['Resources', 'a', 'Condition'],
      'file:///t/t.template:3:26: Resources.a.Condition: condition "nope" is not defined in the conditions section',
    );
    assertError(
      () => define(`${AWS}Resources:\n  a: {Type: Test::Thing, DependsOn: [a]}\n`),
      'cycle',
      ['Resources', 'a'],
      'file:///t/t.template:3:3: Resources.a: circular dependency between resources: a -> a',
    );
    const err = errorOf(() =>
      define(`${AWS}Parameters:\n  P: {Type: Number}\n`, { strict: true, parameters: { P: 'x' } }),
    );
    assert.deepEqual(err.path, ['Parameters', 'P']);
  });

  test('a name both a parameter and a resource is refused in CFN, as Heat’s Stack.validate does', () => {
    assertError(
      () =>
        define(`${AWS}Parameters:\n  a: {Type: String, Default: x}\nResources:\n  a: {Type: Test::Thing}\n`),
      'schema',
      ['Resources', 'a'],
      "file:///t/t.template:5:3: Resources.a: Duplicate names {'a'}",
    );
    // Not yet in HOT templates, where Heat refuses it too but no function is ambiguous.
    define('heat_template_version: 2013-05-23\nparameters: {a: {type: string, default: x}}\nresources: {a: {type: Test::Thing}}\n');
  });

  test('an output’s Ref naming nothing is left for when the output is shown, as in Heat', () => {
    const stack = define(`${AWS}Outputs:\n  o: {Value: {Ref: Nothing}}\n`);
    assert.deepEqual([...stack.outputs.keys()], ['o']);
  });

  test('a CFN template is an environment’s registry target, its outputs the type’s attributes', () => {
    const leaf = `${HEAT}Parameters:\n  Word: {Type: String}\nResources:\n  t: {Type: Test::Thing}\nOutputs:\n  Out: {Value: {Ref: Word}}\n`;
    const stack = defineStackFromText(
      'file:///t/top.yaml',
      `heat_template_version: 2016-10-14
resources:
  l: {type: My::Leaf, properties: {Word: hi}}
outputs:
  o: {value: {get_attr: [l, Out]}}
`,
      {
        types: recorder(),
        files: { 'file:///t/leaf.template': leaf },
        environment: parseEnvironment('file:///t/env.yaml', 'resource_registry: {"My::Leaf": leaf.template}'),
      },
    );
    const impl = stack.resources.get('l')!.implementation;
    assert.ok(impl.kind === 'template');
    const child = impl.stack;
    assert.equal(child.template.version.key, 'HeatTemplateFormatVersion');
    assert.equal(child.parameters.get('Word'), 'hi');
    assert.equal(child.parameters.has('AWS::Region'), true);
    const bad = errorOf(() =>
      defineStackFromText(
        'file:///t/top.yaml',
        'heat_template_version: 2016-10-14\nresources:\n  l: {type: leaf.template, properties: {Nope: 1}}\n',
        {
          types: recorder(),
          files: { 'file:///t/leaf.template': leaf },
        },
      ),
    );
    assert.match(bad.message, /Nope/);
  });
});

describe('Fn::GetAZs when bound', () => {
  test('binding records whether run-time resolution needs the zones: only where the function is used', () => {
    const plain = define(`${AWS}Resources:\n  a: {Type: Test::Thing, Properties: {x: 'Fn::GetAZs'}}\n`);
    assert.equal(plain.usesAvailabilityZones, undefined);
    for (const where of [
      "Resources:\n  a: {Type: Test::Thing, Properties: {x: {'Fn::Select': [0, {'Fn::GetAZs': ''}]}}}\n",
      "Resources:\n  a: {Type: Test::Thing, Metadata: {z: {'Fn::GetAZs': ''}}}\nOutputs:\n  o: {Value: 1}\n",
      "Resources:\n  a: {Type: Test::Thing}\nOutputs:\n  o: {Value: {'Fn::GetAZs': {Ref: 'AWS::Region'}}}\n",
    ]) {
      const used = define(`${AWS}${where}`);
      assert.equal(used.usesAvailabilityZones, true, where);
    }
  });
});
