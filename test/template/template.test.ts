import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TemplateError, type TemplateErrorKind } from '../../src/template/errors.js';
import { FnCall } from '../../src/template/functions/types.js';
import { parseSource } from '../../src/template/source.js';
import { parseTemplate, type Template } from '../../src/template/template.js';

const FILE = 'file:///t/t.yaml';

function load(text: string, file = FILE): Template {
  return parseTemplate(parseSource(file, text));
}

/** Asserts that parsing `text` fails with exactly this kind, path and message. */
function assertError(
  text: string,
  kind: TemplateErrorKind,
  path: (string | number)[],
  message: string,
): void {
  assert.throws(
    () => load(text),
    (err: unknown) => {
      assert.ok(err instanceof TemplateError, `expected a TemplateError, got ${String(err)}`);
      assert.equal(err.message, message);
      assert.equal(err.kind, kind);
      assert.deepEqual(err.path, path);
      assert.equal(err.file, FILE);
      return true;
    },
  );
}

const V = 'heat_template_version: 2015-10-15\n';

describe('parseTemplate: document and sections', () => {
  test('a template that is not a map', () => {
    const message = 'file:///t/t.yaml:1:1: the template is not a JSON object or YAML mapping';
    assertError('- a\n- b\n', 'syntax', [], message);
    assertError('just text\n', 'syntax', [], message);
  });

  test('a missing, unsupported or CloudFormation version', () => {
    assertError(
      'resources: {}\n',
      'version',
      [],
      'file:///t/t.yaml:1:1: template format version not found: the "heat_template_version" key is missing',
    );
    assert.throws(
      () => load('heat_template_version: 2012-01-01\n'),
      (err: unknown) =>
        err instanceof TemplateError &&
        err.kind === 'version' &&
        err.message.startsWith(
          'file:///t/t.yaml:1:1: heat_template_version: "2012-01-01" is not a supported heat_template_version; supported: 2013-05-23, ',
        ),
    );
    // CloudFormation-format versions: test/template/cfn-template.test.ts.
    assert.equal(load('AWSTemplateFormatVersion: 2010-09-09\n').version.format, 'cfn');
  });

  test('an unknown section', () => {
    assertError(
      `${V}resources: {}\nconditions: {}\n`,
      'schema',
      ['conditions'],
      'file:///t/t.yaml:3:1: conditions: "conditions" is not a valid section in heat_template_version 2015-10-15',
    );
    assertError(
      `${V}Resources: {}\n`,
      'schema',
      ['Resources'],
      'file:///t/t.yaml:2:1: Resources: "Resources" is not a valid section in heat_template_version 2015-10-15',
    );
  });

  test('sections of the wrong shape', () => {
    assertError(
      `${V}resources: [1]\n`,
      'schema',
      ['resources'],
      'file:///t/t.yaml:2:1: resources: the "resources" section must be a map, got list',
    );
    assertError(
      `${V}outputs: text\n`,
      'schema',
      ['outputs'],
      'file:///t/t.yaml:2:1: outputs: the "outputs" section must be a map, got string',
    );
    assertError(
      `${V}description: [1]\n`,
      'schema',
      ['description'],
      'file:///t/t.yaml:2:1: description: "description" must be a string, got list',
    );
  });

  test('empty sections are allowed', () => {
    const t = load(`${V}parameters:\nresources:\noutputs:\n`);
    assert.equal(t.resources.size, 0);
    assert.equal(t.outputs.size, 0);
    assert.equal(t.parameters.size, 0);
    assert.equal(t.version.date, '2015-10-15');
  });
});

describe('parseTemplate: resources', () => {
  const res = (body: string) => `${V}resources:\n  web:\n${body}`;

  test('a resource that is not a map', () => {
    assertError(
      res('    [a]\n'),
      'schema',
      ['resources', 'web'],
      'file:///t/t.yaml:3:3: resources.web: a resource definition must be a map, got list',
    );
    assertError(
      res(''),
      'schema',
      ['resources', 'web'],
      'file:///t/t.yaml:3:3: resources.web: a resource definition must be a map, got null',
    );
  });

  test('a missing type', () => {
    assertError(
      res('    properties: {}\n'),
      'schema',
      ['resources', 'web'],
      'file:///t/t.yaml:3:3: resources.web: the resource has no "type"',
    );
  });

  test('a type that is not a non-empty string', () => {
    assertError(
      res('    type: [a]\n'),
      'schema',
      ['resources', 'web', 'type'],
      'file:///t/t.yaml:4:5: resources.web.type: "type" must be a non-empty string, got list',
    );
    assertError(
      res('    type: 42\n'),
      'schema',
      ['resources', 'web', 'type'],
      'file:///t/t.yaml:4:5: resources.web.type: "type" must be a non-empty string, got number',
    );
    assertError(
      res("    type: ''\n"),
      'schema',
      ['resources', 'web', 'type'],
      'file:///t/t.yaml:4:5: resources.web.type: "type" must be a non-empty string, got string',
    );
  });

  test('an unknown resource key (condition is not a key before 2016-10-14)', () => {
    assertError(
      res('    type: A\n    Properties: {}\n'),
      'schema',
      ['resources', 'web', 'Properties'],
      'file:///t/t.yaml:5:5: resources.web.Properties: "Properties" is not a valid keyword inside a resource definition in heat_template_version 2015-10-15',
    );
    assertError(
      res('    type: A\n    condition: x\n'),
      'schema',
      ['resources', 'web', 'condition'],
      'file:///t/t.yaml:5:5: resources.web.condition: "condition" is not a valid keyword inside a resource definition in heat_template_version 2015-10-15',
    );
  });

  test('a name with "/"', () => {
    assertError(
      `${V}resources:\n  ok: {type: A}\n  a/b:\n    type: A\n`,
      'schema',
      ['resources', 'a/b'],
      'file:///t/t.yaml:4:3: resources.a/b: a resource name may not contain "/"',
    );
  });

  test('properties, metadata and update_policy must be maps (or functions)', () => {
    assertError(
      res('    type: A\n    properties: [1]\n'),
      'schema',
      ['resources', 'web', 'properties'],
      'file:///t/t.yaml:5:5: resources.web.properties: "properties" must be a map, got list',
    );
    assertError(
      res('    type: A\n    metadata: 1\n'),
      'schema',
      ['resources', 'web', 'metadata'],
      'file:///t/t.yaml:5:5: resources.web.metadata: "metadata" must be a map, got number',
    );
    assertError(
      res('    type: A\n    update_policy: x\n'),
      'schema',
      ['resources', 'web', 'update_policy'],
      'file:///t/t.yaml:5:5: resources.web.update_policy: "update_policy" must be a map, got string',
    );
    const t = load(res('    type: A\n    properties: {get_param: p}\n    metadata: {}\n'));
    assert.ok(t.resources.get('web')!.properties instanceof FnCall);
  });

  test('depends_on must name resources', () => {
    assertError(
      res('    type: A\n    depends_on: [a, 3]\n'),
      'schema',
      ['resources', 'web', 'depends_on', 1],
      'file:///t/t.yaml:5:21: resources.web.depends_on[1]: depends_on must name resources (strings), got number',
    );
    assertError(
      res('    type: A\n    depends_on: {a: 1}\n'),
      'schema',
      ['resources', 'web', 'depends_on'],
      'file:///t/t.yaml:5:5: resources.web.depends_on: depends_on must name resources (strings), got map',
    );
    assert.deepEqual(load(res('    type: A\n    depends_on: a\n')).resources.get('web')!.dependsOn, ['a']);
    assert.deepEqual(load(res('    type: A\n    depends_on: [a, b]\n')).resources.get('web')!.dependsOn, [
      'a',
      'b',
    ]);
    assert.deepEqual(load(res('    type: A\n    depends_on:\n')).resources.get('web')!.dependsOn, []);
  });

  test('a bad deletion policy; lower case only from 2016-10-14', () => {
    assertError(
      res('    type: A\n    deletion_policy: delete\n'),
      'schema',
      ['resources', 'web', 'deletion_policy'],
      'file:///t/t.yaml:5:5: resources.web.deletion_policy: invalid deletion policy "delete"; expected one of Delete, Retain, Snapshot',
    );
    assert.equal(
      load(
        `heat_template_version: 2016-10-14\nresources:\n  web:\n    type: A\n    deletion_policy: delete\n`,
      ).resources.get('web')!.deletionPolicy,
      'delete',
    );
    assert.throws(
      () =>
        load(
          `heat_template_version: 2016-10-14\nresources:\n  web:\n    type: A\n    deletion_policy: Keep\n`,
        ),
      {
        name: 'TemplateError',
        message:
          'file:///t/t.yaml:5:5: resources.web.deletion_policy: invalid deletion policy "Keep"; expected one of Delete, Retain, Snapshot, delete, retain, snapshot',
      },
    );
    // A function is checked once it is resolved (stack-definition.ts), not here.
    assert.ok(
      load(res('    type: A\n    deletion_policy: {get_param: p}\n')).resources.get('web')!
        .deletionPolicy instanceof FnCall,
    );
  });

  test('a resource description must be a string', () => {
    assertError(
      res('    type: A\n    description: {a: 1}\n'),
      'schema',
      ['resources', 'web', 'description'],
      'file:///t/t.yaml:5:5: resources.web.description: "description" must be a string, got map',
    );
  });

  test('the parsed definition', () => {
    const t = load(`heat_template_version: 2016-10-14
conditions:
  c: true
resources:
  web:
    type: OS::Nova::Server
    description: the web server
    properties: {name: {get_param: n}, image: cirros}
    metadata: {m: 1}
    depends_on: db
    deletion_policy: Retain
    update_policy: {u: 1}
    condition: c
    external_id: abc
  db: {type: A}
`);
    const web = t.resources.get('web')!;
    assert.equal(web.name, 'web');
    assert.equal(web.type, 'OS::Nova::Server');
    assert.equal(web.description, 'the web server');
    assert.deepEqual(web.path, ['resources', 'web']);
    const props = web.properties as { name: FnCall; image: string };
    assert.ok(props.name instanceof FnCall);
    assert.equal(props.name.name, 'get_param');
    assert.deepEqual(props.name.path, ['resources', 'web', 'properties', 'name']);
    assert.equal(props.image, 'cirros');
    assert.deepEqual(web.metadata, { m: 1 });
    assert.deepEqual(web.dependsOn, ['db']);
    assert.equal(web.deletionPolicy, 'Retain');
    assert.deepEqual(web.updatePolicy, { u: 1 });
    assert.equal(web.condition, 'c');
    assert.equal(web.externalId, 'abc');
    const db = t.resources.get('db')!;
    assert.equal(db.properties, null);
    assert.equal(db.metadata, null);
    assert.equal(db.deletionPolicy, undefined);
    assert.equal(db.condition, undefined);
    assert.deepEqual([...t.resources.keys()], ['web', 'db']);
  });
});

describe('parseTemplate: outputs', () => {
  test('an output without value', () => {
    assertError(
      `${V}outputs:\n  o:\n    description: x\n`,
      'schema',
      ['outputs', 'o'],
      'file:///t/t.yaml:3:3: outputs.o: each output definition must contain a "value" key',
    );
  });

  test('an output that is not a map', () => {
    assertError(
      `${V}outputs:\n  o: 1\n`,
      'schema',
      ['outputs', 'o'],
      'file:///t/t.yaml:3:3: outputs.o: an output definition must be a map, got number',
    );
  });

  test('an unknown output key', () => {
    assertError(
      `${V}outputs:\n  o:\n    value: 1\n    condition: c\n`,
      'schema',
      ['outputs', 'o', 'condition'],
      'file:///t/t.yaml:5:5: outputs.o.condition: "condition" is not a valid keyword inside an output definition in heat_template_version 2015-10-15',
    );
    assertError(
      `${V}outputs:\n  o:\n    Value: 1\n`,
      'schema',
      ['outputs', 'o', 'Value'],
      'file:///t/t.yaml:4:5: outputs.o.Value: "Value" is not a valid keyword inside an output definition in heat_template_version 2015-10-15',
    );
  });

  test('CFN’s `Description` in an output: accepted in every version and, as in Heat, ignored', () => {
    for (const version of ['2013-05-23', '2015-10-15', '2021-04-16']) {
      const t = load(
        `heat_template_version: ${version}\noutputs:\n  o:\n    Description: cfn\n    value: 1\n`,
      );
      assert.equal(t.outputs.get('o')!.value, 1);
      assert.equal(t.outputs.get('o')!.description, undefined, version);
    }
  });

  test('an output description must be a string', () => {
    assertError(
      `${V}outputs:\n  o:\n    value: 1\n    description: [1]\n`,
      'schema',
      ['outputs', 'o', 'description'],
      'file:///t/t.yaml:5:5: outputs.o.description: "description" must be a string, got list',
    );
  });

  test('a null value is a value; a condition from 2016-10-14', () => {
    const t = load(`heat_template_version: 2016-10-14
outputs:
  o:
    value:
    description: nothing
    condition: {not: true}
`);
    const o = t.outputs.get('o')!;
    assert.equal(o.value, null);
    assert.equal(o.description, 'nothing');
    assert.ok(o.condition instanceof FnCall);
    assert.equal(o.condition.name, 'not');
    assert.deepEqual(o.path, ['outputs', 'o']);
  });
});

describe('parseTemplate: pass-through sections', () => {
  test('description and parameter_groups', () => {
    const t = load(`heat_template_version: 2015-10-15
description: >
  A two-line
  description.
parameter_groups:
  - label: Server
    description: about the server
    parameters: [image, flavor]
  - parameters: [key]
parameters:
  image: {type: string}
  flavor: {type: string}
  key: {type: string}
`);
    assert.equal(t.description, 'A two-line description.\n');
    assert.deepEqual(t.parameterGroups, [
      { label: 'Server', description: 'about the server', parameters: ['image', 'flavor'] },
      { parameters: ['key'] },
    ]);
    assert.deepEqual([...t.parameters.keys()], ['image', 'flavor', 'key']);
  });

  test('no description, no groups', () => {
    const t = load(V);
    assert.equal(t.description, undefined);
    assert.deepEqual(t.parameterGroups, []);
  });

  test('a parameter group naming an undeclared parameter is positioned', () => {
    assertError(
      `${V}parameter_groups:\n  - parameters: [nope]\n`,
      'schema',
      ['parameter_groups', 0, 'parameters', 0],
      'file:///t/t.yaml:3:18: parameter_groups[0].parameters[0]: The grouped parameter nope does not reference a valid parameter.',
    );
  });
});

describe('parseTemplate: JSON templates', () => {
  test('errors are positioned in JSON too', () => {
    const text = `{
  "heat_template_version": "2015-10-15",
  "resources": {
    "web": {
      "type": "A",
      "properties": [1]
    }
  }
}
`;
    assert.throws(
      () => load(text, 'file:///t/t.json'),
      (err: unknown) =>
        err instanceof TemplateError &&
        err.kind === 'schema' &&
        err.message ===
          'file:///t/t.json:6:7: resources.web.properties: "properties" must be a map, got list' &&
        err.position?.line === 6 &&
        err.position.column === 7,
    );
  });

  test('an unknown section on one line', () => {
    assert.throws(
      () => load('{"heat_template_version": "2015-10-15", "bogus": 1}', 'file:///t/t.json'),
      (err: unknown) =>
        err instanceof TemplateError &&
        err.message ===
          'file:///t/t.json:1:41: bogus: "bogus" is not a valid section in heat_template_version 2015-10-15',
    );
  });

  test('a JSON template parses like the YAML one', () => {
    const json = load(
      '{"heat_template_version": "2016-10-14", "resources": {"r": {"type": "A", "properties": {"x": {"get_resource": "s"}}}, "s": {"type": "A"}}}',
      'file:///t/t.json',
    );
    const yaml = load(`heat_template_version: 2016-10-14
resources:
  r: {type: A, properties: {x: {get_resource: s}}}
  s: {type: A}
`);
    assert.equal(json.source.format, 'json');
    assert.equal(yaml.source.format, 'yaml');
    assert.deepEqual([...json.resources.keys()], [...yaml.resources.keys()]);
    const x = (json.resources.get('r')!.properties as { x: FnCall }).x;
    assert.ok(x instanceof FnCall);
    assert.equal(x.name, 'get_resource');
  });

  test('a numeric version is read as its string form', () => {
    assertError(
      'heat_template_version: 20151015\n',
      'version',
      ['heat_template_version'],
      'file:///t/t.yaml:1:1: heat_template_version: "20151015" is not a supported heat_template_version; supported: 2013-05-23, 2014-10-16, 2015-04-30, 2015-10-15, 2016-04-08, 2016-10-14, 2017-02-24, 2017-09-01, 2018-03-02, 2018-08-31, 2021-04-16 (aliases: newton, ocata, pike, queens, rocky, wallaby)',
    );
  });
});

describe('parseTemplate: functions and versions', () => {
  test('a function of a later version names both versions', () => {
    assertError(
      `${V}outputs:\n  o:\n    value: {if: [true, 1, 2]}\n`,
      'version',
      ['outputs', 'o', 'value'],
      'file:///t/t.yaml:4:5: outputs.o.value: function "if" is not available in heat_template_version 2015-10-15; it was introduced in heat_template_version 2016-10-14',
    );
  });

  test('a removed CloudFormation function', () => {
    assertError(
      `${V}outputs:\n  o:\n    value: {Ref: x}\n`,
      'version',
      ['outputs', 'o', 'value'],
      'file:///t/t.yaml:4:5: outputs.o.value: function "Ref" is not supported in heat_template_version 2015-10-15: it was removed in 2014-10-16 or later',
    );
  });

  test('a map with several keys is data, even when one names a function', () => {
    const t = load(`${V}outputs:\n  o:\n    value: {get_param: p, other: 1}\n`);
    assert.deepEqual(t.outputs.get('o')!.value, { get_param: 'p', other: 1 });
  });

  test('release aliases are versions', () => {
    assert.equal(load('heat_template_version: wallaby\n').version.date, '2021-04-16');
    assert.equal(load('heat_template_version: newton\n').version.date, '2016-10-14');
  });
});
