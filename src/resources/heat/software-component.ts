import type { DocPath } from '../../template/errors.js';
import { TemplateError } from '../../template/errors.js';
import { isUnknown, type Value } from '../../template/functions/types.js';
import { attr, C, P } from '../../template/properties/index.js';
import type { ConfigInput, ConfigOutput } from '../../software/contract.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { CONFIG_SCHEMA_PROPERTIES } from './software-config.js';
import { physicalResourceName, uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';

/** The config a component stores: `{configs: [...]}`, group `component` (as Heat). */
function componentConfig(properties: Record<string, Value>): JsonObject {
  return { configs: (Array.isArray(properties.configs) ? properties.configs : []) as Json };
}

/** Heat's IO dicts: `type` defaulted, `replace_on_change`/`error_output` present. */
export function ioInputs(list: Value): ConfigInput[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isPlainObject).map((i) => {
    const out: ConfigInput = {
      name: String(i.name),
      type: typeof i.type === 'string' ? i.type : 'String',
      replace_on_change: i.replace_on_change === true,
    };
    if (typeof i.description === 'string') out.description = i.description;
    if (i.default !== undefined && i.default !== null) out.default = i.default as Json;
    return out;
  });
}

export function ioOutputs(list: Value): ConfigOutput[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isPlainObject).map((o) => {
    const out: ConfigOutput = {
      name: String(o.name),
      type: typeof o.type === 'string' ? o.type : 'String',
      error_output: o.error_output === true,
    };
    if (typeof o.description === 'string') out.description = o.description;
    return out;
  });
}

/**
 * OS::Heat::SoftwareComponent: a software config (group `component`) holding one config per set
 * of lifecycle actions; a deployment of it runs the config whose `actions` include its action.
 */
export const softwareComponentPlugin: CatalogPlugin = {
  type: 'OS::Heat::SoftwareComponent',
  isSoftwareConfig: true,
  description:
    'A resource for describing and storing a software component. In contrast to SoftwareConfig ' +
    'which allows for storing only one configuration (e.g. one script), SoftwareComponent allows ' +
    'for storing multiple configurations to address handling of all lifecycle hooks (CREATE, ' +
    'UPDATE, SUSPEND, RESUME, DELETE) for a software component in one place.',
  supportStatus: { version: '2014.2' },
  properties: {
    configs: P.list({
      description:
        'The list of configurations for the different lifecycle actions of the represented software component.',
      required: true,
      constraints: [C.length({ min: 1 })],
      items: P.map({
        schema: {
          actions: P.list({
            description:
              'Lifecycle actions to which the configuration applies. The string values provided for ' +
              'this property can include the standard resource actions CREATE, DELETE, UPDATE, ' +
              'SUSPEND and RESUME supported by Heat.',
            default: ['CREATE', 'UPDATE'],
            constraints: [C.length({ min: 1 })],
            items: P.string({}),
          }),
          config: P.string({
            description:
              'Configuration script or manifest which specifies what actual configuration is performed.',
          }),
          tool: P.string({
            description:
              'The configuration tool used to actually apply the configuration on a server. This ' +
              'string property has to be understood by in-instance tools running inside deployed servers.',
            required: true,
          }),
        },
      }),
    }),
    inputs: CONFIG_SCHEMA_PROPERTIES.inputs!,
    outputs: CONFIG_SCHEMA_PROPERTIES.outputs!,
    options: CONFIG_SCHEMA_PROPERTIES.options!,
  },
  attributes: { config: attr('The config value of the software config.', 'string') },

  /** Heat's validate: one config per action. */
  validate(properties: Record<string, Value>, path: DocPath): void {
    const seen = new Set<string>();
    if (!Array.isArray(properties.configs)) return;
    for (const config of properties.configs) {
      const actions = isPlainObject(config) && Array.isArray(config.actions) ? config.actions : [];
      for (const action of actions) {
        if (isUnknown(action)) continue;
        if (seen.has(String(action))) {
          throw new TemplateError(
            'property',
            'Defining more than one configuration for the same action in SoftwareComponent ' +
              `"${String(path[path.length - 2] ?? path[path.length - 1] ?? '')}" is not allowed.`,
            [...path, 'configs'],
          );
        }
      }
      for (const action of actions) if (!isUnknown(action)) seen.add(String(action));
    }
  },

  async create(ctx, properties) {
    const id = uuidFrom(ctx.idempotencyKey);
    await ctx.software.createConfig({
      id,
      name: physicalResourceName(ctx),
      group: 'component',
      config: componentConfig(properties),
      inputs: ioInputs(properties.inputs ?? null),
      outputs: ioOutputs(properties.outputs ?? null),
      options: isPlainObject(properties.options) ? (properties.options as JsonObject) : null,
    });
    return { physicalId: id };
  },

  async update() {
    // No property is update_allowed: the engine replaces instead of calling this.
    return {};
  },

  async delete(ctx) {
    if (ctx.physicalId !== null) await ctx.software.deleteConfig(ctx.physicalId);
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute(_ctx, name, properties) {
    return name === 'config' ? (componentConfig(properties) as Value) : null;
  },
};
