import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outputValues, params, parseJson, Workdir } from './workdir.js';

// A CloudFormation-format template end to end through the CLI (issue 23): parameters, mappings,
// conditions and outputs across a create, an update and a delete, with a HOT template nested in
// it, a CFN template nested in that, and an OS::Heat::Stack whose template is CFN.

const PARENT = `{
  "AWSTemplateFormatVersion": "2010-09-09",
  "Description": "CFN end to end",
  "Parameters": {
    "Env": {"Type": "String", "Default": "dev", "AllowedValues": ["dev", "prod"]},
    "Word": {"Type": "String", "Default": "hi", "MinLength": 1},
    "Secret": {"Type": "String", "Default": "hush", "NoEcho": "true"}
  },
  "Mappings": {"Sizes": {"dev": {"len": 8}, "prod": {"len": 12}}},
  "Conditions": {
    "IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]},
    "IsDev": {"Fn::Not": ["IsProd"]}
  },
  "Resources": {
    "Rand": {
      "Type": "OS::Heat::RandomString",
      "Properties": {"length": {"Fn::FindInMap": ["Sizes", {"Ref": "Env"}, "len"]}}
    },
    "ProdOnly": {"Type": "OS::Heat::TestResource", "Condition": "IsProd", "Properties": {"value": "prod"}},
    "Joined": {
      "Type": "OS::Heat::TestResource",
      "DependsOn": "Rand",
      "Properties": {"value": {"Fn::Join": ["-", [
        {"Ref": "AWS::StackName"}, {"Fn::If": ["IsDev", "d", "p"]}, {"Fn::Select": [1, ["a", "b"]]}
      ]]}}
    },
    "Hot": {"Type": "child.yaml", "Properties": {"word": {"Ref": "Word"}}},
    "Inline": {
      "Type": "OS::Heat::Stack",
      "Properties": {
        "template": "HeatTemplateFormatVersion: '2012-12-12'\\nParameters: {W: {Type: String}}\\nResources: {T: {Type: OS::Heat::TestResource, Properties: {value: {'Fn::Join': ['', [inline-, {Ref: W}]]}}}}\\nOutputs: {Out: {Value: {'Fn::GetAtt': [T, output]}}}\\n",
        "parameters": {"W": {"Ref": "Word"}}
      }
    }
  },
  "Outputs": {
    "Joined": {"Value": {"Fn::GetAtt": ["Joined", "output"]}, "Description": "joined"},
    "Length": {"Value": {"Fn::Join": ["", [{"Fn::GetAtt": ["Rand", "value"]}]]}},
    "Prod": {"Value": {"Fn::GetAtt": ["ProdOnly", "output"]}, "Condition": "IsProd"},
    "Region": {"Value": {"Ref": "AWS::Region"}},
    "FromHot": {"Value": {"Fn::GetAtt": ["Hot", "leaf"]}},
    "Inline": {"Value": {"Fn::Select": ["Out", {"Fn::GetAtt": ["Inline", "outputs"]}]}}
  }
}
`;

const CHILD = `heat_template_version: 2016-10-14
parameters:
  word: {type: string}
resources:
  leaf: {type: leaf.template, properties: {Word: {get_param: word}}}
outputs:
  leaf: {value: {get_attr: [leaf, Out]}}
`;

const LEAF = `HeatTemplateFormatVersion: '2012-12-12'
Parameters:
  Word: {Type: String}
Resources:
  T: {Type: OS::Heat::TestResource, Properties: {value: {'Fn::Replace': [{'%w%': {Ref: Word}}, 'leaf-%w%']}}}
Outputs:
  Out: {Value: {'Fn::GetAtt': [T, output]}}
`;

describe('a CloudFormation-format stack through the CLI', () => {
  it('validates, creates, updates (conditions switch) and deletes, with HOT and CFN nested', async () => {
    const w = new Workdir({ 'parent.template': PARENT, 'child.yaml': CHILD, 'leaf.template': LEAF });

    const validated = parseJson<{ Description: string; Parameters: Record<string, Record<string, unknown>> }>(
      await w.ok(['template', 'validate', '-t', 'parent.template', '-f', 'json']),
    );
    assert.equal(validated.Description, 'CFN end to end');
    assert.deepEqual(validated.Parameters.Env, {
      Type: 'String',
      Description: '',
      NoEcho: 'false',
      Label: 'Env',
      Default: 'dev',
      AllowedValues: ['dev', 'prod'],
    });
    assert.equal(validated.Parameters.Secret!.NoEcho, 'true');

    const preview = parseJson<{ resources: { resource_name: string; parent_resource: string | null }[] }>(
      await w.ok(['stack', 'create', 's', '-t', 'parent.template', '--dry-run', '-f', 'json']),
    );
    assert.deepEqual(preview.resources.map((r) => `${r.parent_resource ?? ''}/${r.resource_name}`).sort(), [
      '/Hot',
      '/Inline',
      '/Joined',
      '/Rand',
      'Hot/leaf',
      'Inline/T',
      'leaf/T',
    ]);

    await w.ok(['stack', 'create', 's', '-t', 'parent.template', '--wait']);
    const dev = await w.show('s');
    assert.equal(dev.stack_status, 'CREATE_COMPLETE');
    const devOut = outputValues(dev);
    assert.equal(devOut.Joined, 's-d-b');
    assert.equal((devOut.Length as string).length, 8);
    assert.equal(devOut.Prod, null);
    assert.equal(devOut.Region, 'ap-southeast-1');
    assert.equal(devOut.FromHot, 'leaf-hi');
    assert.equal(devOut.Inline, 'inline-hi');
    const devIds = await w.ids('s');
    assert.deepEqual(Object.keys(devIds).sort(), ['Hot', 'Inline', 'Joined', 'Rand']);

    await w.ok(['stack', 'update', 's', '--existing', ...params({ Env: 'prod', Word: 'yo' }), '--wait']);
    const prod = await w.show('s');
    assert.equal(prod.stack_status, 'UPDATE_COMPLETE');
    const prodOut = outputValues(prod);
    assert.equal(prodOut.Joined, 's-p-b');
    assert.equal((prodOut.Length as string).length, 12);
    assert.equal(prodOut.Prod, 'prod');
    assert.equal(prodOut.FromHot, 'leaf-yo');
    assert.equal(prodOut.Inline, 'inline-yo');
    assert.deepEqual(Object.keys(await w.ids('s')).sort(), ['Hot', 'Inline', 'Joined', 'ProdOnly', 'Rand']);

    const refused = await w.run(['stack', 'update', 's', '--existing', ...params({ Env: 'test' })]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Env/);

    await w.ok(['stack', 'delete', 's', '--yes', '--wait']);
    const gone = await w.run(['stack', 'show', 's']);
    assert.notEqual(gone.code, 0);
  });
});
