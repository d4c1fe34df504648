import { attr, P } from '../../template/properties/index.js';
import type { Value } from '../../template/functions/types.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import type { PluginContext } from '../contract.js';
import {
  DEPLOYMENT_SWIFT_DATA,
  OS_COLLECT_CONFIG,
  SOFTWARE_CONFIG_TRANSPORT,
} from '../server-agent/schema.js';
import { agentBootstrap, agentTransportChange, osCollectConfig } from '../server-agent/transport.js';
import { physicalResourceName, uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';

/**
 * OS::Heat::DeployedServer: a server Hearth does not boot (made elsewhere), configured by software
 * deployments through the same transports as a Nova server. Its physical id is the id its
 * deployments name as their server; its row keeps the agent credential's nonce. Nothing lives
 * outside the row: whoever runs the server gives its agent the `os_collect_config` attribute.
 */

/** Heat's max_server_name_length, as for Nova servers. */
const NAME_LIMIT = 53;

/** The key the resource was created with (the nonce derives from it). */
const createdKey = (ctx: PluginContext): string => (ctx.data.key as string | undefined) ?? ctx.idempotencyKey;

export const deployedServerPlugin: CatalogPlugin = {
  type: 'OS::Heat::DeployedServer',
  description:
    'A resource for managing servers that are already deployed. A DeployedServer resource manages resources for servers that have been deployed externally from OpenStack. These servers can be associated with SoftwareDeployments for further orchestration via Heat.',
  inRow: true,
  properties: {
    name: P.string({ description: 'Server name.', updateAllowed: true }),
    metadata: P.map({
      description:
        'Arbitrary key/value metadata to store for this server. Both keys and values must be 255 characters or less. Non-string values will be serialized to JSON (and the serialized string must be 255 characters or less).',
      updateAllowed: true,
      supportStatus: {
        status: 'DEPRECATED',
        version: '9.0.0',
        message: 'This property will be ignored',
        previousStatus: { version: '8.0.0' },
      },
    }),
    software_config_transport: SOFTWARE_CONFIG_TRANSPORT,
    deployment_swift_data: { ...DEPLOYMENT_SWIFT_DATA, supportStatus: { version: '9.0.0' } },
  },
  attributes: {
    name: attr('Name of the server.', 'string'),
    os_collect_config: { ...OS_COLLECT_CONFIG, supportStatus: { version: '9.0.0' } },
  },

  async create(ctx, properties) {
    const key = ctx.idempotencyKey;
    const { state } = agentBootstrap(ctx, key, String(properties.software_config_transport), []);
    return { physicalId: uuidFrom(key), data: { key, ...state } };
  },

  async update(ctx, properties, _previous, changed) {
    if (!changed.includes('software_config_transport')) return {};
    const state = agentTransportChange(ctx, createdKey(ctx), String(properties.software_config_transport));
    return state ? { data: state } : {};
  },

  // The row goes with the delete: the credential, checked against it, is refused from then on.
  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute(ctx, name, properties) {
    if (!ctx.physicalId) return null;
    if (name === 'os_collect_config') return osCollectConfig(ctx, []) as Value;
    if (name === 'name') {
      const given = properties.name as string | null | undefined;
      return given ? given : physicalResourceName({ ...ctx, idempotencyKey: createdKey(ctx) }, NAME_LIMIT);
    }
    return null;
  },
};
