import { stringify } from 'yaml';
import { P } from '../../template/properties/index.js';
import { configPlugin } from './software-config.js';

/**
 * OS::Heat::CloudConfig: a cloud-init cloud-config document, given as a map and delivered as the
 * YAML text cloud-init reads (`#cloud-config` first, block style, as Heat writes it).
 */
export const cloudConfigPlugin = configPlugin({
  type: 'OS::Heat::CloudConfig',
  description:
    'A configuration resource for representing cloud-init cloud-config. This resource allows ' +
    'cloud-config YAML to be defined and stored by the config API.',
  properties: {
    cloud_config: P.map({
      description: 'Map representing the cloud-config data structure which will be formatted as YAML.',
    }),
  },
  render: (properties) => `#cloud-config\n${stringify(properties.cloud_config ?? {})}`,
});
