import { P } from '../../template/properties/index.js';
import { CONFIG_SCHEMA_PROPERTIES, configPlugin } from './software-config.js';

/** OS::Heat::StructuredConfig: a software config whose config is a data structure, not text. */
export const structuredConfigPlugin = configPlugin({
  type: 'OS::Heat::StructuredConfig',
  description:
    'A resource which has same logic with OS::Heat::SoftwareConfig, but whose config is a map ' +
    'serialized to JSON format when delivered.',
  properties: {
    ...CONFIG_SCHEMA_PROPERTIES,
    config: P.map({
      description:
        'Map representing the configuration data structure which will be serialized to JSON format.',
    }),
  },
  render: (properties) => properties.config ?? null,
});
