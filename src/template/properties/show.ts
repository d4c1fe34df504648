import type { Json, JsonObject } from '../../util/json.js';
import type { Constraint } from '../parameters/types.js';
import {
  type AttributeSchema,
  type AttributesSchema,
  BASE_ATTRIBUTES,
  type PropertiesSchema,
  type PropertySchema,
  type SupportStatus,
} from './schema.js';
import type { SchemaTypeInfo } from './type-info.js';

export interface ShowOptions {
  supportStatus?: SupportStatus;
  /** Added as `description` (Heat adds the type's docstring when asked `with_description`). */
  description?: string;
}

/**
 * The body of Heat's `GET /resource_types/{type}`: the type's properties and attributes (with the
 * base `show` attribute) in Heat's serialisation, and its support status. HIDDEN properties and
 * attributes are left out, as Heat does.
 */
export function schemaToHeatJSON(
  type: string,
  properties: PropertiesSchema,
  attributes: AttributesSchema,
  options: ShowOptions = {},
): JsonObject {
  const props: JsonObject = {};
  for (const [name, prop] of Object.entries(properties)) {
    if (prop.supportStatus?.status !== 'HIDDEN') props[name] = propertyJSON(prop);
  }
  const attrs: JsonObject = {};
  for (const [name, attr] of [...Object.entries(attributes), ...Object.entries(BASE_ATTRIBUTES)]) {
    if (attr.supportStatus?.status !== 'HIDDEN') attrs[name] = attributeJSON(attr);
  }
  const body: JsonObject = {
    resource_type: type,
    properties: props,
    attributes: attrs,
    support_status: supportStatusJSON(options.supportStatus ?? {}),
  };
  if (options.description !== undefined) body.description = options.description;
  return body;
}

/** schemaToHeatJSON for a type declared with typeInfo. */
export function typeInfoToHeatJSON(
  info: SchemaTypeInfo,
  options: { withDescription?: boolean } = {},
): JsonObject {
  return schemaToHeatJSON(info.type, info.properties, info.attributes, {
    supportStatus: info.supportStatus,
    ...(options.withDescription ? { description: info.description ?? '' } : {}),
  });
}

/** Heat's key order: type, description, default, schema, required, constraints, update_allowed, immutable. */
export function propertyJSON(prop: PropertySchema): JsonObject {
  const out: JsonObject = { type: prop.type };
  if (prop.description !== undefined) out.description = prop.description;
  if (prop.default !== undefined && prop.default !== null) out.default = prop.default;
  if (prop.type === 'map' && prop.schema) {
    const entries: JsonObject = {};
    for (const [name, sub] of Object.entries(prop.schema)) entries[name] = propertyJSON(sub);
    out.schema = entries;
  }
  // Heat shows a list's member schema under the key "*" (any index).
  if (prop.type === 'list' && prop.items) out.schema = { '*': propertyJSON(prop.items) };
  out.required = prop.required ?? false;
  if (prop.constraints?.length) out.constraints = prop.constraints.map(constraintJSON);
  out.update_allowed = prop.updateAllowed ?? false;
  out.immutable = prop.immutable ?? false;
  return out;
}

/** `{description?, <kind>: <body>}`, as HOT parameter constraints are written. */
export function constraintJSON(c: Constraint): JsonObject {
  const out: JsonObject = {};
  if (c.description !== undefined) out.description = c.description;
  out[c.kind] = constraintBody(c);
  return out;
}

function constraintBody(c: Constraint): Json {
  switch (c.kind) {
    case 'range':
    case 'length': {
      const bounds: JsonObject = {};
      if (c.min !== undefined) bounds.min = c.min;
      if (c.max !== undefined) bounds.max = c.max;
      return bounds;
    }
    case 'modulo':
      return { step: c.step ?? null, offset: c.offset ?? null };
    case 'allowed_values':
      return c.values ?? [];
    case 'allowed_pattern':
      return c.pattern ?? '';
    case 'custom_constraint':
      return c.name ?? '';
  }
}

function attributeJSON(attr: AttributeSchema): JsonObject {
  const out: JsonObject = {};
  if (attr.description !== undefined) out.description = attr.description;
  if (attr.type !== undefined) out.type = attr.type;
  return out;
}

function supportStatusJSON(s: SupportStatus): JsonObject {
  return {
    status: s.status ?? 'SUPPORTED',
    message: s.message ?? null,
    version: s.version ?? null,
    previous_status: s.previousStatus ? supportStatusJSON(s.previousStatus) : null,
  };
}
