import type { DocPath } from '../errors.js';
import type { Value } from '../functions/types.js';
import type { PropertyCheckOptions, ResourceTypeInfo } from '../types.js';
import { checkPropertiesSchema } from './check-schema.js';
import {
  type AttributesSchema,
  BASE_ATTRIBUTES,
  type PropertiesSchema,
  type SupportStatus,
} from './schema.js';
import { customConstraintUses, hasCustomConstraints } from './constraint-uses.js';
import { checkPropertyNames, validateProperties } from './validate.js';

export interface TypeInfoOptions {
  /** For types whose attributes depend on the resource (e.g. a nested stack's outputs). */
  dynamicAttribute?: (name: string) => boolean;
  supportStatus?: SupportStatus;
  /** The type's description, shown by `resource_types show` with descriptions. */
  description?: string;
  /** Any properties are accepted unchecked, whatever their names (OS::Heat::None, a stub for any type). */
  anyProperties?: boolean;
  /** See ResourceTypeInfo.readAttribute. */
  readAttribute?: ResourceTypeInfo['readAttribute'];
  /** See ResourceTypeInfo.implicitDependencies. */
  implicitDependencies?: ResourceTypeInfo['implicitDependencies'];
}

/** A resource type described by schemas: what the template layer needs, plus the schemas themselves. */
export interface SchemaTypeInfo extends ResourceTypeInfo {
  readonly properties: PropertiesSchema;
  readonly attributes: AttributesSchema;
  readonly supportStatus: SupportStatus;
  readonly description: string | undefined;
  readonly anyProperties: boolean;
}

/**
 * Declares a resource type from its schemas. The properties schema is checked here, so that a
 * mistake in a plugin fails when the plugin loads (PropertySchemaError), not when a template uses it.
 */
export function typeInfo(
  type: string,
  properties: PropertiesSchema,
  attributes: AttributesSchema,
  options: TypeInfoOptions = {},
): SchemaTypeInfo {
  checkPropertiesSchema(type, properties);
  const dynamic = options.dynamicAttribute;
  return {
    type,
    properties,
    attributes,
    supportStatus: options.supportStatus ?? { status: 'SUPPORTED' },
    description: options.description,
    anyProperties: options.anyProperties ?? false,
    validateProperties(value: Value, path: DocPath, check: PropertyCheckOptions = {}): void {
      if (options.anyProperties) return;
      if (check.phase === 'validate') checkPropertyNames(properties, value, path);
      else validateProperties(properties, value, path);
    },
    ...(options.readAttribute ? { readAttribute: options.readAttribute } : {}),
    ...(options.implicitDependencies ? { implicitDependencies: options.implicitDependencies } : {}),
    ...(!options.anyProperties && hasCustomConstraints(properties)
      ? {
          constraintUses: (value: Value, path: DocPath, wanted: (constraint: string) => boolean) =>
            customConstraintUses(properties, value, path, wanted),
        }
      : {}),
    hasAttribute(name: string): boolean {
      return (
        Object.hasOwn(attributes, name) || Object.hasOwn(BASE_ATTRIBUTES, name) || (dynamic?.(name) ?? false)
      );
    },
  };
}
