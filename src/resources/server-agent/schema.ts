import { attr, C, P } from '../../template/properties/index.js';
import { TRANSPORTS } from './transport.js';

/** The properties and attribute a server configured by deployments has (Nova's and DeployedServer's). */

export const SOFTWARE_CONFIG_TRANSPORT = P.string({
  description:
    'How the server should receive the metadata required for software configuration. POLL_SERVER_CFN will allow calls to the cfn API action DescribeStackResource authenticated with the provided keypair. POLL_SERVER_HEAT will allow calls to the Heat API resource-show using the provided keystone credentials. POLL_TEMP_URL will create and populate a Swift TempURL with metadata for polling. ZAQAR_MESSAGE will create a dedicated zaqar queue and post the metadata for polling.',
  default: 'POLL_SERVER_CFN',
  updateAllowed: true,
  constraints: [C.allowedValues([...TRANSPORTS])],
});

export const DEPLOYMENT_SWIFT_DATA = P.map({
  description:
    'Swift container and object to use for storing deployment data for the server resource. The parameter is a map value with the keys "container" and "object", and the values are the corresponding container and object names. The software_config_transport parameter must be set to POLL_TEMP_URL for swift to be used. If not specified, and software_config_transport is set to POLL_TEMP_URL, a container will be automatically created from the resource name, and the object name will be a generated uuid.',
  default: {},
  updateAllowed: true,
  schema: {
    container: P.string({ description: 'Name of the container.', constraints: [C.length({ min: 1 })] }),
    object: P.string({ description: 'Name of the object.', constraints: [C.length({ min: 1 })] }),
  },
});

export const OS_COLLECT_CONFIG = attr(
  "The os-collect-config configuration for the server's local agent to be configured to connect to Heat to retrieve deployment data.",
  'map',
);
