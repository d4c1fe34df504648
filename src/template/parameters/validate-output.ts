import type { Json, JsonObject } from '../../util/json.js';
import { isUnknown, type Unknown } from '../functions/types.js';
import type { ParameterSchema, ParameterType } from './types.js';

/** What a hidden parameter's value and default are shown as. */
export const MASK = '******';

const API_TYPES: Readonly<Record<ParameterType, string>> = {
  string: 'String',
  number: 'Number',
  json: 'Json',
  comma_delimited_list: 'CommaDelimitedList',
  boolean: 'Boolean',
};

/**
 * One parameter as Heat's validate API describes it (heat.engine.api.format_validate_parameter):
 * Type, Description, NoEcho, Label, then Default, Value and Tags when present, then one key per
 * constraint bound (MinLength, MaxValue, Step, AllowedValues, CustomConstraint ...) and the
 * constraint descriptions joined as ConstraintDescription.
 *
 * `value` is the value supplied for the parameter, if any: a hidden parameter's is masked. Its
 * Default is the template's, shown as written, as Heat shows it: the template is the caller's own.
 */
export function validateOutputParameter(schema: ParameterSchema, value?: Json | Unknown): JsonObject {
  const out: JsonObject = {
    Type: API_TYPES[schema.type],
    Description: schema.description ?? '',
    NoEcho: schema.hidden ? 'true' : 'false',
    Label: schema.label ?? schema.name,
  };
  if (schema.hasDefault && schema.default !== undefined) out.Default = schema.default;
  if (value !== undefined && value !== null && !isUnknown(value)) out.Value = schema.hidden ? MASK : value;
  if (schema.tags && schema.tags.length > 0) out.Tags = [...schema.tags];
  const descriptions: string[] = [];
  for (const c of schema.constraints) {
    switch (c.kind) {
      case 'length':
        if (c.min !== undefined) out.MinLength = c.min;
        if (c.max !== undefined) out.MaxLength = c.max;
        break;
      case 'range':
        if (c.min !== undefined) out.MinValue = c.min;
        if (c.max !== undefined) out.MaxValue = c.max;
        break;
      case 'modulo':
        if (c.step !== undefined) out.Step = c.step;
        if (c.offset !== undefined) out.Offset = c.offset;
        break;
      case 'allowed_values':
        out.AllowedValues = [...(c.values ?? [])];
        break;
      case 'allowed_pattern':
        out.AllowedPattern = c.pattern ?? '';
        break;
      case 'custom_constraint':
        out.CustomConstraint = c.name ?? '';
        break;
    }
    if (c.description) descriptions.push(c.description);
  }
  if (descriptions.length > 0) out.ConstraintDescription = descriptions.join(' ');
  return out;
}

/**
 * The values with every hidden parameter's value replaced by MASK, for anything shown to users
 * (API responses, events, logs). UNKNOWN stays UNKNOWN: it reveals nothing.
 */
export function maskParameters(
  schemas: ReadonlyMap<string, ParameterSchema>,
  values: ReadonlyMap<string, Json | Unknown> | Readonly<Record<string, Json | Unknown>>,
): Map<string, Json | Unknown> {
  const entries = values instanceof Map ? [...values.entries()] : Object.entries(values);
  return new Map(
    entries.map(([name, value]) => {
      const hidden = schemas.get(name)?.hidden === true && !isUnknown(value);
      return [name, hidden ? MASK : value];
    }),
  );
}
