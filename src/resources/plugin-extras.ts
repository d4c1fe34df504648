import type { DocPath } from '../template/errors.js';
import type { Value } from '../template/functions/types.js';
import type { SupportStatus } from '../template/properties/index.js';
import type { BindingScope, ResourceTypeInfo, TypeCatalog } from '../template/types.js';
import type { ResourcePlugin } from './contract.js';

/**
 * What a plugin may declare beyond the contract. The catalog reads these when present; a plugin
 * that declares none of them is an ordinary ResourcePlugin.
 */
export interface PluginExtras {
  /** Shown by `resource_types show`; SUPPORTED (no version) when absent. */
  readonly supportStatus?: SupportStatus;
  /** Any property names and values are accepted unchecked (OS::Heat::None). */
  readonly anyProperties?: boolean;
  /**
   * Checks beyond the schema, as Heat's Resource.validate does (e.g. a RandomString whose length is
   * below its minimums). Given the properties as the schema converted them, defaults applied; any
   * part may still be UNKNOWN during template validation. Throws TemplateError('property').
   * `types` is the catalog itself, for types naming other types (a ResourceGroup's members).
   */
  validate?(
    properties: Record<string, Value>,
    path: DocPath,
    types?: TypeCatalog,
    scope?: BindingScope,
  ): void;
  /** See ResourceTypeInfo.readAttribute: attributes cached in a compact form, read back. */
  readAttribute?: ResourceTypeInfo['readAttribute'];
  /** See ResourceTypeInfo.secretAttributes (masked in the views of the resource). */
  readonly secretAttributes?: ResourceTypeInfo['secretAttributes'];
  /** See ResourceTypeInfo.implicitDependencies (Heat's add_dependencies). */
  readonly implicitDependencies?: ResourceTypeInfo['implicitDependencies'];
  /** See ResourceTypeInfo.crossCheck (checks against the template's other resources). */
  readonly crossCheck?: ResourceTypeInfo['crossCheck'];
  /**
   * Known values the type's own checks need a cloud for (OS::Heat::Stack's region), added to its
   * schema's custom-constraint uses: checked after binding, before a create or update is stored.
   */
  constraintUses?: ResourceTypeInfo['constraintUses'];
}

export type CatalogPlugin = ResourcePlugin & PluginExtras;
