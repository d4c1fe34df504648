import { attr, C, P, type PropertySchema } from '../../template/properties/index.js';
import { DEPLOY_ACTIONS, SIGNAL_TRANSPORTS } from './deployment-config.js';

/** The properties every deployment type shares (Heat's SoftwareDeployment), `server` aside. */
export const DEPLOYMENT_PROPERTIES: Readonly<Record<string, PropertySchema>> = {
  config: P.string({
    description: 'ID of software configuration resource to execute when applying to the server.',
    updateAllowed: true,
  }),
  input_values: P.map({
    description: 'Input values to apply to the software configuration on this server.',
    updateAllowed: true,
  }),
  actions: P.list({
    description:
      'Which lifecycle actions of the deployment resource will result in this deployment being triggered.',
    updateAllowed: true,
    default: ['CREATE', 'UPDATE'],
    constraints: [C.allowedValues([...DEPLOY_ACTIONS])],
  }),
  name: P.string({
    description:
      'Name of the derived config associated with this deployment. This is used to apply a sort ' +
      'order to the list of configurations currently deployed to a server.',
    updateAllowed: true,
  }),
  signal_transport: P.string({
    description:
      'How the server should signal to heat with the deployment output values. CFN_SIGNAL will ' +
      'allow an HTTP POST to a CFN keypair signed URL. TEMP_URL_SIGNAL will create a Swift TempURL ' +
      'to be signaled via HTTP PUT. HEAT_SIGNAL will allow calls to the Heat API resource-signal ' +
      'using the provided keystone credentials. ZAQAR_SIGNAL will create a dedicated zaqar queue to ' +
      'be signaled using the provided keystone credentials. NO_SIGNAL will result in the resource ' +
      'going to the COMPLETE state without waiting for any signal.',
    default: 'CFN_SIGNAL',
    constraints: [C.allowedValues(SIGNAL_TRANSPORTS)],
  }),
};

export const SERVER_PROPERTY = P.string({
  description: 'ID of resource to apply configuration to. Normally this should be a Nova server ID.',
  required: true,
});

export const SERVERS_PROPERTY = P.map({
  description:
    'A map of names and server IDs to apply configuration to. The name is arbitrary and is used ' +
    'as the Heat resource name for the corresponding deployment.',
  required: true,
  updateAllowed: true,
});

/** StructuredDeployment's own properties. */
export const STRUCTURED_PROPERTIES: Readonly<Record<string, PropertySchema>> = {
  input_key: P.string({
    description: 'Name of key to use for substituting inputs during deployment.',
    default: 'get_input',
  }),
  input_values_validate: P.string({
    description:
      'Perform a check on the input values passed to verify that each required input has a ' +
      'corresponding value. When the property is set to STRICT and no value is passed, an ' +
      'exception is raised.',
    default: 'LAX',
    constraints: [C.allowedValues(['LAX', 'STRICT'])],
  }),
};

/**
 * The cached attribute holding the deployment's output values (hidden): any output name is an
 * attribute of a deployment, read from it (readDeploymentAttribute).
 */
export const OUTPUT_VALUES = 'deploy_output_values';

export const DEPLOYMENT_ATTRIBUTES = {
  deploy_stdout: attr('Captured stdout from the configuration execution.', 'string'),
  deploy_stderr: attr('Captured stderr from the configuration execution.', 'string'),
  deploy_status_code: attr('Returned status code from the configuration execution.', 'string'),
  [OUTPUT_VALUES]: {
    ...attr('The output values the server signalled.', 'map'),
    supportStatus: { status: 'HIDDEN' as const, version: '2014.1', message: 'Internal.' },
  },
};

export const GROUP_ATTRIBUTES = {
  deploy_stdouts: attr(
    'A map of Nova names and captured stdouts from the configuration execution to each server.',
    'map',
  ),
  deploy_stderrs: attr(
    'A map of Nova names and captured stderrs from the configuration execution to each server.',
    'map',
  ),
  deploy_status_codes: attr(
    'A map of Nova names and returned status code from the configuration execution.',
    'map',
  ),
};
