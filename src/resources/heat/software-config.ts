import type { Value } from '../../template/functions/types.js';
import { attr, C, P, type PropertySchema } from '../../template/properties/index.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import type { PluginContext } from '../contract.js';
import type { Json, JsonObject } from '../../util/json.js';
import { physicalResourceName, uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';

/** The types an input or output of a software config may declare (Heat's SoftwareConfig). */
const IO_TYPES = ['String', 'Number', 'CommaDelimitedList', 'Json', 'Boolean'];

/** The properties of SoftwareConfig and StructuredConfig besides their `config`. */
export const CONFIG_SCHEMA_PROPERTIES: Readonly<Record<string, PropertySchema>> = {
  group: P.string({
    description:
      'Namespace to group this software config by when delivered to a server. This may imply what ' +
      'configuration tool is going to perform the configuration.',
    default: 'Heat::Ungrouped',
  }),
  options: P.map({
    description:
      'Map containing options specific to the configuration management tool used by this resource.',
  }),
  inputs: P.list({
    description: 'Schema representing the inputs that this software config is expecting.',
    items: P.map({
      schema: {
        name: P.string({ description: 'Name of the input.', required: true }),
        description: P.string({ description: 'Description of the input.' }),
        type: P.string({
          description: 'Type of the value of the input.',
          default: 'String',
          constraints: [C.allowedValues(IO_TYPES)],
        }),
        default: P.any({ description: 'Default value for the input if none is specified.' }),
        replace_on_change: P.boolean({
          description: 'Replace the deployment instead of updating it when the input value changes.',
          default: false,
        }),
      },
    }),
  }),
  outputs: P.list({
    description: 'Schema representing the outputs that this software config will produce.',
    items: P.map({
      schema: {
        name: P.string({ description: 'Name of the output.', required: true }),
        description: P.string({ description: 'Description of the output.' }),
        type: P.string({
          description: 'Type of the value of the output.',
          default: 'String',
          constraints: [C.allowedValues(IO_TYPES)],
        }),
        error_output: P.boolean({
          description: 'Denotes that the deployment is in an error state if this output has a value.',
          default: false,
        }),
      },
    }),
  }),
};

/**
 * Stores a config type's config (Heat's create_software_config, named with the resource's
 * physical name) under an id derived from the idempotency key: a create run again finds the
 * one it made. Returns that id, the resource's physical id.
 */
export async function storeConfig(
  ctx: PluginContext,
  properties: Record<string, Value>,
  config: Value,
  // An adopted config keeps the id the adopt document gave (stored if it is not yet).
  id: string = ctx.physicalId ?? uuidFrom(ctx.idempotencyKey),
): Promise<string> {
  const options = properties.options;
  await ctx.software.createConfig({
    id,
    name: physicalResourceName(ctx),
    group: typeof properties.group === 'string' ? properties.group : 'Heat::Ungrouped',
    config: (config ?? null) as Json,
    inputs: (properties.inputs ?? []) as never,
    outputs: (properties.outputs ?? []) as never,
    options: options && typeof options === 'object' ? (options as JsonObject) : {},
  });
  return id;
}

/** Deletes a config type's stored config (Heat ignores one already gone). */
export async function dropConfig(ctx: PluginContext): Promise<void> {
  if (ctx.physicalId) await ctx.software.deleteConfig(ctx.physicalId);
}

/**
 * A software config type: immutable data (no property updates in place: a change makes a new
 * config, as in Heat), stored as a software config (storeConfig) whose id is its physical id.
 * `render` gives the config (and the `config` attribute) from the properties.
 */
export function configPlugin(spec: {
  type: string;
  description: string;
  properties: Readonly<Record<string, PropertySchema>>;
  render: (properties: Record<string, Value>) => Value;
}): CatalogPlugin {
  return {
    type: spec.type,
    inRow: true,
    isSoftwareConfig: true,
    description: spec.description,
    supportStatus: { version: '2014.1' },
    properties: spec.properties,
    attributes: { config: attr('The config value of the software config.', 'string') },

    async create(ctx: PluginContext, properties: Record<string, Value>) {
      const id = uuidFrom(ctx.idempotencyKey);
      return { physicalId: await storeConfig(ctx, properties, spec.render(properties), id) };
    },

    async adopt(ctx: PluginContext, properties: Record<string, Value>) {
      await storeConfig(ctx, properties, spec.render(properties));
    },

    async update() {
      // No property is update_allowed: the engine replaces instead of calling this.
      return {};
    },

    async delete(ctx: PluginContext) {
      await dropConfig(ctx);
      return {};
    },

    observes: false,
    getReality: rowReality,

    async attribute(_ctx: PluginContext, name: string, properties: Record<string, Value>) {
      return name === 'config' ? spec.render(properties) : null;
    },
  };
}

/** OS::Heat::SoftwareConfig: a configuration script or manifest, delivered to servers by deployments. */
export const softwareConfigPlugin = configPlugin({
  type: 'OS::Heat::SoftwareConfig',
  description:
    'A resource for describing and storing software configuration. The software_configs API which ' +
    'backs this resource creates immutable configs, so any change to the template resource ' +
    'definition will result in a new config being created, and the old one being deleted.',
  properties: {
    ...CONFIG_SCHEMA_PROPERTIES,
    config: P.string({
      description: 'Configuration script or manifest which specifies what actual configuration is performed.',
    }),
  },
  render: (properties) => properties.config ?? null,
});
