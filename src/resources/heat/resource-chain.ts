import { type DocPath, TemplateError, unknownResourceType } from '../../template/errors.js';
import { isTemplateType } from '../../template/environment/index.js';
import { isUnknown, type Value } from '../../template/functions/types.js';
import { attr, P } from '../../template/properties/index.js';
import type { TypeCatalog } from '../../template/types.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../nested-type.js';
import { memberAttributes } from './member-attributes.js';

const TYPE = 'OS::Heat::ResourceChain';

/** The chain's own attributes; any other name is the list of a member attribute. */
const OWN: readonly string[] = ['refs', 'refs_map', 'attributes'];

const members = memberAttributes([]);

function typesOf(properties: Record<string, Value>): Value[] {
  return Array.isArray(properties.resources) ? properties.resources : [];
}

/** Each listed type must be one the catalog knows or a template (Heat checks them when validating). */
function checkTypes(properties: Record<string, Value>, path: DocPath, types: TypeCatalog): void {
  typesOf(properties).forEach((type, i) => {
    if (isUnknown(type)) return;
    if (typeof type !== 'string' || type === '') {
      throw new TemplateError('property', 'each entry of "resources" must be a resource type name', [
        ...path,
        'resources',
        i,
      ]);
    }
    if (isTemplateType(type) || types.get(type)) return;
    throw unknownResourceType(type, [...path, 'resources', i]);
  });
}

/**
 * OS::Heat::ResourceChain: one member per type in `resources` (named "0".."n-1" by position), each
 * given `resource_properties`, in a generated child stack. Unless `concurrent`, each member
 * depends on the one before it, so they are created in order (and deleted in reverse). Changing
 * the list updates the child: a member whose type changed is replaced, members past the end go.
 */
export const resourceChainPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: TYPE,
  description:
    'Creates one or more resources with the same configuration. The types of resources to be ' +
    'created are passed into the chain through the `resources` property. One resource will be ' +
    'created for each type listed. Each is passed the configuration specified under ' +
    '`resource_properties`.',
  supportStatus: { version: '6.0.0' },
  properties: {
    resources: P.list({
      description:
        'The list of resource types to create. This list may contain type names or aliases ' +
        'defined in the resource registry. Specific template names are not supported.',
      required: true,
      updateAllowed: true,
    }),
    concurrent: P.boolean({
      description:
        'If true, the resources in the chain will be created concurrently. If false or omitted, ' +
        'each resource will be treated as having a dependency on the previous resource in the list.',
      default: false,
    }),
    resource_properties: P.map({
      description: 'Properties to pass to each resource being created in the chain.',
    }),
  },
  attributes: {
    refs: attr('A list of resource IDs for the resources in the chain.', 'list'),
    refs_map: attr('A map of resource names to IDs for the resources in the chain.', 'map'),
    attributes: attr(
      'A map of resource names to the specified attribute of each individual resource.',
      'map',
    ),
  },
  dynamicAttribute: (name) => !OWN.includes(name),
  readAttribute: members.read,

  validate(properties: Record<string, Value>, path: DocPath, types?: TypeCatalog): void {
    if (types) checkTypes(properties, path, types);
  },

  nested: {
    child(properties) {
      const shared = isPlainObject(properties.resource_properties)
        ? properties.resource_properties
        : undefined;
      const resources: JsonObject = {};
      typesOf(properties).forEach((type, i) => {
        const member: JsonObject = { type: String(type) };
        if (shared) member.properties = shared as Json;
        if (i > 0 && properties.concurrent !== true) member.depends_on = [String(i - 1)];
        setOwn(resources, String(i), member);
      });
      const template = { heat_template_version: '2015-04-30', resources };
      return { template: JSON.stringify(template), parameters: {}, data: {} };
    },
    attributes: (view) => members.cache(view),
  },
};
