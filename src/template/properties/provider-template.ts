import type { Json, JsonObject } from '../../util/json.js';
import type { Constraint } from '../parameters/types.js';
import {
  type AttributesSchema,
  BASE_ATTRIBUTES,
  type PropertiesSchema,
  type PropertySchema,
  type PropertyType,
} from './schema.js';

export type ProviderTemplateType = 'hot' | 'cfn';

/**
 * The template Heat generates for a resource type (Resource.resource_to_template, what
 * `resource_types/{type}/template` answers): one resource of the type whose every property is
 * taken from a parameter of the same name, and one output per attribute (plus `OS::stack_id`, the
 * resource's reference). A provider template to start from when overriding the type. HIDDEN
 * properties and attributes are left out, and so are properties not implemented (as Heat does).
 */
export function providerTemplate(
  type: string,
  properties: PropertiesSchema,
  attributes: AttributesSchema,
  format: ProviderTemplateType,
): JsonObject {
  const name = type.split('::').at(-1) || type;
  const hot = format === 'hot';
  const params: JsonObject = {};
  const props: JsonObject = {};
  for (const [prop, schema] of Object.entries(properties)) {
    if (schema.supportStatus?.status === 'HIDDEN' || schema.implemented === false) continue;
    params[prop] = hot ? hotParameter(schema) : cfnParameter(schema);
    props[prop] = hot
      ? { get_param: prop }
      : parameterType(schema) === 'comma_delimited_list'
        ? { 'Fn::Split': [',', { Ref: prop }] }
        : { Ref: prop };
  }
  const outputs: JsonObject = {};
  for (const [attr, schema] of [...Object.entries(attributes), ...Object.entries(BASE_ATTRIBUTES)]) {
    if (schema.supportStatus?.status === 'HIDDEN') continue;
    const description = schema.description ?? null;
    outputs[attr] = hot
      ? { value: { get_attr: [name, attr] }, description }
      : { Value: { 'Fn::GetAtt': [name, attr] }, Description: description };
  }
  outputs['OS::stack_id'] = hot ? { value: { get_resource: name } } : { Value: { Ref: name } };
  const description = `Initial template of ${name}`;
  if (hot) {
    return {
      heat_template_version: '2016-10-14',
      description,
      parameters: params,
      outputs,
      resources: { [name]: { type, properties: props } },
    };
  }
  return {
    HeatTemplateFormatVersion: '2012-12-12',
    Description: description,
    Parameters: params,
    Resources: { [name]: { Type: type, Properties: props } },
    Outputs: outputs,
  };
}

/** The HOT parameter type for each property type (`any` has none in Heat: json holds anything). */
const PARAMETER_TYPES: Readonly<Record<PropertyType, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  map: 'json',
  list: 'comma_delimited_list',
  any: 'json',
};

const CFN_TYPES: Readonly<Record<string, string>> = {
  string: 'String',
  number: 'Number',
  boolean: 'Boolean',
  json: 'Json',
  comma_delimited_list: 'CommaDelimitedList',
};

/**
 * As Heat, but a list of maps or lists (a RandomString's character_classes) is a json parameter:
 * a comma-delimited list would turn its members into strings, and its default would not validate.
 */
function parameterType(schema: PropertySchema): string {
  if (schema.type === 'list' && schema.items && ['map', 'list', 'any'].includes(schema.items.type))
    return 'json';
  return PARAMETER_TYPES[schema.type];
}

function hotParameter(schema: PropertySchema): JsonObject {
  const out: JsonObject = { type: parameterType(schema) };
  if (schema.description !== undefined) out.description = schema.description;
  if (schema.default !== undefined && schema.default !== null) out.default = schema.default;
  // Only the constraints a parameter can carry as they are (custom ones name the property's checks).
  const constraints = (schema.constraints ?? []).flatMap(hotConstraint);
  if (constraints.length > 0) out.constraints = constraints;
  return out;
}

function hotConstraint(c: Constraint): JsonObject[] {
  switch (c.kind) {
    case 'length':
    case 'range':
      return [{ [c.kind]: bounds(c) }];
    case 'allowed_values':
      return [{ allowed_values: [...(c.values ?? [])] }];
    case 'allowed_pattern':
      return [{ allowed_pattern: c.pattern ?? '' }];
    default:
      return [];
  }
}

function bounds(c: Constraint): JsonObject {
  const out: JsonObject = {};
  if (c.min !== undefined) out.min = c.min;
  if (c.max !== undefined) out.max = c.max;
  return out;
}

function cfnParameter(schema: PropertySchema): JsonObject {
  const out: JsonObject = { Type: CFN_TYPES[parameterType(schema)]! };
  if (schema.description !== undefined) out.Description = schema.description;
  if (schema.default !== undefined && schema.default !== null) out.Default = schema.default;
  for (const c of schema.constraints ?? []) {
    if (c.kind === 'length' || c.kind === 'range') {
      const [min, max] = c.kind === 'length' ? ['MinLength', 'MaxLength'] : ['MinValue', 'MaxValue'];
      if (c.min !== undefined) out[min] = c.min;
      if (c.max !== undefined) out[max] = c.max;
    } else if (c.kind === 'allowed_values') {
      out.AllowedValues = [...(c.values ?? [])] as Json[];
    } else if (c.kind === 'allowed_pattern') {
      out.AllowedPattern = c.pattern ?? '';
    }
  }
  if (schema.type === 'boolean') out.AllowedValues = ['True', 'true', 'False', 'false'];
  return out;
}
