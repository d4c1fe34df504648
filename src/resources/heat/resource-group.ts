import type { DocPath } from '../../template/errors.js';
import { unknownResourceType } from '../../template/errors.js';
import { isTemplateType } from '../../template/environment/index.js';
import { isUnknown, type Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import type { TypeCatalog } from '../../template/types.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../nested-type.js';
import { addBatches, batching, isPause } from './batches.js';
import { byIndex, memberAttributes } from './member-attributes.js';

const TYPE = 'OS::Heat::ResourceGroup';

/** Row data key: the member names removed by removal_policies, never reused (Heat's name blacklist). */
export const REMOVED_KEY = 'removed_members';

/** The group's own attributes; any other name is the list of a member attribute. */
const OWN = ['refs', 'refs_map', 'attributes', 'removed_rsrc_list'] as const;

function removedOf(data: Readonly<JsonObject>): string[] {
  const list = data[REMOVED_KEY];
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
}

/** The names of removal_policies' resource_list entries (names or indexes). */
function policyNames(policies: Value): string[] {
  const names: string[] = [];
  if (!Array.isArray(policies)) return names;
  for (const policy of policies) {
    const list = isPlainObject(policy) ? policy.resource_list : undefined;
    if (!Array.isArray(list)) continue;
    for (const item of list)
      if (typeof item === 'string' || typeof item === 'number') names.push(String(item));
  }
  return names;
}

/** `count` names from "0" up, skipping removed ones (as Heat's ResourceGroup._resource_names). */
export function memberNames(count: number, removed: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (let i = 0; names.length < count; i++) if (!removed.has(String(i))) names.push(String(i));
  return names;
}

/** Replaces index_var in every string of a member definition. */
function substitute(value: Value, indexVar: string, index: string): Value {
  if (typeof value === 'string') return value.split(indexVar).join(index);
  if (Array.isArray(value)) return value.map((v) => substitute(v, indexVar, index));
  if (isPlainObject(value)) {
    const out: Record<string, Value> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, substitute(v as Value, indexVar, index));
    return out;
  }
  return value;
}

/** refs, the member attribute lists and the maps derived from them (member-attributes.ts). */
const members = memberAttributes(['removed_rsrc_list']);

/** Reads an attribute from what the group cached: a list as is, a map derived from the lists. */
export const readGroupAttribute = members.read;

function checkMemberType(properties: Record<string, Value>, path: DocPath, types: TypeCatalog): void {
  const def = properties.resource_def;
  if (!isPlainObject(def)) return;
  const type = def.type;
  if (typeof type !== 'string' || isUnknown(type)) return;
  if (type === TYPE || isTemplateType(type) || types.get(type)) return;
  throw unknownResourceType(type, [...path, 'resource_def', 'type']);
}

/**
 * OS::Heat::ResourceGroup: `count` identical members (named "0".."n-1", `index_var` replaced by
 * each one's index) in a child stack generated from `resource_def`. Scaling down removes the
 * highest indexes; `removal_policies` remove the members named first, and their names are not
 * reused. Attributes are computed once the child is done, from its members' cached attributes.
 */
export const resourceGroupPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: TYPE,
  description:
    'Creates one or more identically configured nested resources. In addition to the `refs` ' +
    'attribute, this resource implements synthetic attributes that mirror those of the resources ' +
    'in the group.',
  supportStatus: { version: '2014.1' },
  properties: {
    count: P.integer({
      description: 'The number of resources to create.',
      default: 1,
      updateAllowed: true,
      constraints: [C.range({ min: 0 })],
    }),
    index_var: P.string({
      description:
        'A variable that this resource will use to replace with the current index of a given ' +
        'resource in the group.',
      default: '%index%',
      // As Heat: a new index_var makes a new group.
      constraints: [C.length({ min: 3 })],
    }),
    resource_def: P.map({
      description: 'Resource definition for the resources in the group.',
      required: true,
      updateAllowed: true,
      schema: {
        type: P.string({ description: 'The type of the resources in the group.', required: true }),
        properties: P.map({ description: 'Property values for the resources in the group.' }),
        metadata: P.map({ description: 'Supplied metadata for the resources in the group.' }),
      },
    }),
    removal_policies: P.list({
      description: 'Policies for removal of resources on update.',
      default: [],
      updateAllowed: true,
      items: P.map({
        schema: {
          resource_list: P.list({
            description: 'List of resources to be removed when doing an update.',
            default: [],
          }),
        },
      }),
    }),
    removal_policies_mode: P.string({
      description: 'How to handle changes to removal_policies on update.',
      default: 'append',
      updateAllowed: true,
      constraints: [C.allowedValues(['append', 'update'])],
    }),
  },
  attributes: {
    refs: attr('A list of resource IDs for the resources in the group.', 'list'),
    refs_map: attr('A map of resource names to IDs for the resources in the group.', 'map'),
    attributes: attr('A map of resource names to the specified attribute of each resource.', 'map'),
    removed_rsrc_list: attr('A list of removed resource names.', 'list'),
  },
  dynamicAttribute: (name) => !(OWN as readonly string[]).includes(name),
  readAttribute: readGroupAttribute,

  validate(properties: Record<string, Value>, path: DocPath, types?: TypeCatalog): void {
    if (types) checkMemberType(properties, path, types);
  },

  nested: {
    child(properties, data, options = {}) {
      const count = typeof properties.count === 'number' ? properties.count : 1;
      const indexVar = typeof properties.index_var === 'string' ? properties.index_var : '%index%';
      const def = isPlainObject(properties.resource_def) ? properties.resource_def : {};
      const asked = policyNames(properties.removal_policies ?? []);
      const kept = properties.removal_policies_mode === 'update' ? [] : removedOf(data);
      const removed = [...new Set([...kept, ...asked])].sort(byIndex);
      const resources: JsonObject = {};
      const names = memberNames(count, new Set(removed));
      for (const name of names) {
        const member: JsonObject = { type: def.type as Json };
        for (const key of ['properties', 'metadata'] as const) {
          const v = def[key];
          if (isPlainObject(v)) member[key] = substitute(v, indexVar, name) as Json;
        }
        setOwn(resources, name, member);
      }
      const batches = batching(options.updatePolicy, options.creating ?? false, names.length);
      if (batches) addBatches(resources, names, batches, def as Json);
      const template = { heat_template_version: '2015-04-30', resources };
      return { template: JSON.stringify(template), parameters: {}, data: { [REMOVED_KEY]: removed } };
    },
    attributes: (view) =>
      members.cache(
        { ...view, members: view.members.filter((m) => !isPause(m.name)) },
        { removed_rsrc_list: removedOf(view.data).sort(byIndex) },
      ),
  },
};
