import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import { nonePlugin } from '../../src/resources/heat/none.js';
import * as resources from '../../src/resources/index.js';
import { TemplateError } from '../../src/template/errors.js';
import { typeInfoToHeatJSON } from '../../src/template/properties/index.js';
import { defineStackFromText } from '../../src/template/stack-definition.js';
import { API_SAMPLES } from '../support/shared.js';

const catalog = pluginCatalog(builtinPlugins());

/** Binds as template validate does, or (`strict`) as a stack create does. */
function define(text: string, strict = false) {
  return defineStackFromText('file:///t.yaml', text, { types: catalog.typeCatalog, strict });
}

function defineError(text: string, strict = false): TemplateError {
  try {
    define(text, strict);
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
  assert.fail('expected a TemplateError');
}

const SAMPLE = readFileSync(`${API_SAMPLES}/sample-template.yaml`, 'utf8');

describe('plugin catalog', () => {
  it('has the built-in types', () => {
    assert.deepEqual(catalog.types(), [
      'AWS::AutoScaling::AutoScalingGroup',
      'AWS::AutoScaling::LaunchConfiguration',
      'AWS::AutoScaling::ScalingPolicy',
      'AWS::CloudFormation::Stack',
      'AWS::CloudFormation::WaitCondition',
      'AWS::CloudFormation::WaitConditionHandle',
      'AWS::CloudWatch::Alarm',
      'AWS::EC2::EIP',
      'AWS::EC2::EIPAssociation',
      'AWS::EC2::Instance',
      'AWS::EC2::InternetGateway',
      'AWS::EC2::NetworkInterface',
      'AWS::EC2::RouteTable',
      'AWS::EC2::SecurityGroup',
      'AWS::EC2::Subnet',
      'AWS::EC2::SubnetRouteTableAssociation',
      'AWS::EC2::VPC',
      'AWS::EC2::VPCGatewayAttachment',
      'AWS::EC2::Volume',
      'AWS::EC2::VolumeAttachment',
      'AWS::ElasticLoadBalancing::LoadBalancer',
      'AWS::IAM::AccessKey',
      'AWS::IAM::User',
      'AWS::RDS::DBInstance',
      'AWS::S3::Bucket',
      'OS::Cinder::Volume',
      'OS::Cinder::VolumeAttachment',
      'OS::Heat::AccessPolicy',
      'OS::Heat::AutoScalingGroup',
      'OS::Heat::CloudConfig',
      'OS::Heat::Delay',
      'OS::Heat::DeployedServer',
      'OS::Heat::InstanceGroup',
      'OS::Heat::MultipartMime',
      'OS::Heat::None',
      'OS::Heat::RandomString',
      'OS::Heat::ResourceChain',
      'OS::Heat::ResourceGroup',
      'OS::Heat::ScalingPolicy',
      'OS::Heat::SoftwareComponent',
      'OS::Heat::SoftwareConfig',
      'OS::Heat::SoftwareDeployment',
      'OS::Heat::SoftwareDeploymentGroup',
      'OS::Heat::SoftwareDeployments',
      'OS::Heat::Stack',
      'OS::Heat::StructuredConfig',
      'OS::Heat::StructuredDeployment',
      'OS::Heat::StructuredDeploymentGroup',
      'OS::Heat::StructuredDeployments',
      'OS::Heat::TestResource',
      'OS::Heat::UpdateWaitConditionHandle',
      'OS::Heat::Value',
      'OS::Heat::WaitCondition',
      'OS::Heat::WaitConditionHandle',
      'OS::Neutron::FloatingIP',
      'OS::Neutron::FloatingIPAssociation',
      'OS::Neutron::Net',
      'OS::Neutron::Port',
      'OS::Neutron::Router',
      'OS::Neutron::RouterInterface',
      'OS::Neutron::SecurityGroup',
      'OS::Neutron::SecurityGroupRule',
      'OS::Neutron::Subnet',
      'OS::Nova::Flavor',
      'OS::Nova::KeyPair',
      'OS::Nova::Server',
      'OS::Swift::Container',
    ]);
    assert.equal(catalog.plugin('OS::Heat::None'), nonePlugin);
    assert.equal(catalog.plugin('OS::Sahara::Cluster'), undefined);
    assert.equal(catalog.typeCatalog.get('OS::Sahara::Cluster'), undefined);
    assert.equal(resources.pluginCatalog, pluginCatalog);
  });

  it('refuses two plugins for one type', () => {
    assert.throws(
      () => pluginCatalog([nonePlugin, nonePlugin]),
      /Two plugins implement the resource type OS::Heat::None/,
    );
  });

  it('shows a type as Heat’s resource_types show does', () => {
    const text = readFileSync(`${API_SAMPLES}/resource-type-show.txt`, 'utf8');
    const expected = JSON.parse(text.slice(text.indexOf('{')));
    assert.deepEqual(typeInfoToHeatJSON(catalog.typeCatalog.get('OS::Heat::TestResource')!), expected);
    const none = typeInfoToHeatJSON(catalog.typeCatalog.get('OS::Heat::None')!, { withDescription: true });
    assert.deepEqual(none.properties, {});
    assert.deepEqual(none.support_status, {
      status: 'SUPPORTED',
      message: null,
      version: '5.0.0',
      previous_status: null,
    });
    assert.match(String(none.description), /stub out any other resource/);
  });

  it('validates the recorded sample template', () => {
    const stack = define(SAMPLE);
    assert.deepEqual([...stack.resources.keys()].sort(), ['r1', 'r2', 'rs', 'val']);
    assert.deepEqual(stack.resources.get('r2')?.requires, ['r1']);
  });

  it('checks property names at validate, values against each type’s schema at create', () => {
    const err = defineError(`
heat_template_version: 2018-08-31
resources:
  t:
    type: OS::Heat::TestResource
    properties: {valu: x}
`);
    assert.equal(err.kind, 'property');
    assert.match(
      err.message,
      /^Property error: : resources\.t\.properties: : Unknown Property valu \(.*resources\.t\.properties\.valu; did you mean "value"\?\)$/,
    );
    const badValue = `
heat_template_version: 2018-08-31
resources:
  t:
    type: OS::Heat::TestResource
    properties: {action_wait_secs: {create: soon}}
`;
    // Heat's validate looks at names only (Properties.validate(with_value=False)).
    define(badValue);
    const wait = defineError(badValue, true);
    assert.match(wait.message, /action_wait_secs\.create: Value "soon" is not a number/);
  });

  it('checks attribute names, except on OS::Heat::None', () => {
    const err = defineError(`
heat_template_version: 2018-08-31
resources:
  t:
    type: OS::Heat::TestResource
outputs:
  o: {value: {get_attr: [t, nope]}}
`);
    assert.equal(err.kind, 'reference');
    define(`
heat_template_version: 2018-08-31
resources:
  t:
    type: OS::Heat::TestResource
  n:
    type: OS::Heat::None
    properties: {image: cirros, flavor: {get_attr: [t, output]}, nested: [1, {a: b}]}
outputs:
  o: {value: {get_attr: [n, anything, at, all]}}
  s: {value: {get_attr: [t, show]}}
`);
  });

  it('runs the types’ own checks beyond the schema at create, not at validate', () => {
    const tooShort = `
heat_template_version: 2018-08-31
resources:
  rs:
    type: OS::Heat::RandomString
    properties:
      length: 2
      character_classes: [{class: digits, min: 2}, {class: letters}]
`;
    define(tooShort);
    const short = defineError(tooShort, true);
    assert.equal(short.kind, 'property');
    assert.match(short.message, /resources\.rs\.properties: Length property cannot be smaller/);
    const typed = defineError(
      `
heat_template_version: 2018-08-31
resources:
  v:
    type: OS::Heat::Value
    properties: {value: [1, 2], type: number}
`,
      true,
    );
    assert.match(typed.message, /resources\.v\.properties\.value: Value \[1, 2\] is not a number/);
  });

  it('leaves values that are not known yet to run time', () => {
    define(`
heat_template_version: 2018-08-31
parameters:
  n: {type: number}
resources:
  t:
    type: OS::Heat::TestResource
  rs:
    type: OS::Heat::RandomString
    properties:
      length: {get_param: n}
      character_classes: [{class: digits, min: 30}]
  v:
    type: OS::Heat::Value
    properties: {value: {get_attr: [t, output]}, type: number}
`);
  });
});
