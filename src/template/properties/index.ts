export { attr, C, P } from './builders.js';
export { checkPropertiesSchema, PropertySchemaError } from './check-schema.js';
export { type ConstraintUse, customConstraintUses, hasCustomConstraints } from './constraint-uses.js';
export { changedProperties, diffProperties, type PropertyDiff, updateRequiresReplacement } from './diff.js';
export {
  type AttributeSchema,
  type AttributesSchema,
  type AttributeType,
  BASE_ATTRIBUTES,
  type Constraint,
  type ListPropertySchema,
  type MapPropertySchema,
  PROPERTY_TYPES,
  type PropertiesSchema,
  type PropertySchema,
  type PropertyType,
  type ScalarPropertySchema,
  type SupportStatus,
  type SupportStatusName,
} from './schema.js';
export {
  constraintJSON,
  propertyJSON,
  type ShowOptions,
  schemaToHeatJSON,
  typeInfoToHeatJSON,
} from './show.js';
export { providerTemplate, type ProviderTemplateType } from './provider-template.js';
export { type SchemaTypeInfo, type TypeInfoOptions, typeInfo } from './type-info.js';
export { type ValidateOptions, validateProperties } from './validate.js';
