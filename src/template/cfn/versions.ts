import type { FunctionTable } from '../functions/parse.js';
import { lookupDef, type TemplateVersion } from '../versions.js';

/**
 * The two CloudFormation-format versions Heat reads (heat/engine/cfn/template.py):
 * `AWSTemplateFormatVersion: 2010-09-09`, with Conditions, and `HeatTemplateFormatVersion:
 * 2012-12-12`, without. Both parse into the model HOT templates do (cfn/parse.ts).
 */

export const CFN_PSEUDO_PARAMETERS = ['AWS::StackId', 'AWS::StackName', 'AWS::Region'] as const;

/** What AWS::Region always is in Heat (it has no region of its own to give). */
export const CFN_REGION = 'ap-southeast-1';

/** Parameter keys (heat/engine/parameters.py PARAMETER_KEYS). */
export const CFN_PARAMETER_KEYS = [
  'Type',
  'Default',
  'NoEcho',
  'AllowedValues',
  'AllowedPattern',
  'MaxLength',
  'MinLength',
  'MaxValue',
  'MinValue',
  'Description',
  'ConstraintDescription',
  'Label',
] as const;

const BASE_SECTIONS = [
  'AWSTemplateFormatVersion',
  'HeatTemplateFormatVersion',
  'Description',
  'Mappings',
  'Parameters',
  'Resources',
  'Outputs',
];
const BASE_RESOURCE_KEYS = [
  'Type',
  'Properties',
  'Metadata',
  'DependsOn',
  'DeletionPolicy',
  'UpdatePolicy',
  'Description',
];

/** Function name -> catalogue id, in Heat's order. */
const HEAT_2012: Record<string, string> = {
  'Fn::FindInMap': 'Fn::FindInMap',
  'Fn::GetAZs': 'Fn::GetAZs',
  Ref: 'Ref',
  'Fn::GetAtt': 'Fn::GetAtt',
  'Fn::Select': 'Fn::Select',
  'Fn::Join': 'Fn::Join',
  'Fn::Split': 'Fn::Split',
  'Fn::Replace': 'Fn::Replace',
  'Fn::Base64': 'Fn::Base64',
  'Fn::MemberListToMap': 'Fn::MemberListToMap',
  'Fn::ResourceFacade': 'Fn::ResourceFacade',
};
const AWS_2010 = { ...HEAT_2012, 'Fn::If': 'Fn::If' };
const AWS_2010_CONDITIONS: Record<string, string> = {
  'Fn::Equals': 'Fn::Equals',
  Ref: 'Ref@param',
  'Fn::FindInMap': 'Fn::FindInMap',
  'Fn::Not': 'Fn::Not',
  'Fn::And': 'Fn::And',
  'Fn::Or': 'Fn::Or',
};

type Table = FunctionTable & { names(): string[]; get(name: string): ReturnType<FunctionTable['lookup']> };

/** A table of exactly these functions: any other key is plain data, as in Heat. */
function table(ids: Record<string, string>, conditionScope?: FunctionTable): Table {
  const defs = new Map(Object.entries(ids).map(([name, id]) => [name, lookupDef(id)]));
  return {
    lookup: (name) => defs.get(name),
    get: (name) => defs.get(name),
    unavailable: () => undefined,
    names: () => [...defs.keys()],
    ...(conditionScope ? { conditionScope } : {}),
  };
}

function cfnVersion(key: string, date: string, conditions: boolean): TemplateVersion {
  const conditionFunctions = table(conditions ? AWS_2010_CONDITIONS : {});
  return {
    format: 'cfn',
    key,
    pseudoParameters: CFN_PSEUDO_PARAMETERS,
    date,
    alias: undefined,
    sections: conditions ? [...BASE_SECTIONS, 'Conditions'] : BASE_SECTIONS,
    resourceKeys: conditions ? [...BASE_RESOURCE_KEYS, 'Condition'] : BASE_RESOURCE_KEYS,
    outputKeys: conditions ? ['Description', 'Value', 'Condition'] : ['Description', 'Value'],
    parameterKeys: CFN_PARAMETER_KEYS,
    constraintKeys: [],
    deletionPolicies: ['Delete', 'Retain', 'Snapshot'],
    hasConditions: conditions,
    functions: table(conditions ? AWS_2010 : HEAT_2012, conditionFunctions),
    conditionFunctions,
  };
}

export const CFN_VERSIONS: readonly TemplateVersion[] = [
  cfnVersion('AWSTemplateFormatVersion', '2010-09-09', true),
  cfnVersion('HeatTemplateFormatVersion', '2012-12-12', false),
];
