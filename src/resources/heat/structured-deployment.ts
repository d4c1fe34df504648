import { deploymentPlugin } from './software-deployment.js';

/**
 * OS::Heat::StructuredDeployment: a SoftwareDeployment whose derived config is the structured
 * config with every `{get_input: name}` (or `input_key`) replaced by the input's value.
 */
export const structuredDeploymentPlugin = deploymentPlugin({
  type: 'OS::Heat::StructuredDeployment',
  description:
    'A deployment resource like OS::Heat::SoftwareDeployment, but which performs input value ' +
    'substitution on the config defined by a OS::Heat::StructuredConfig resource. Where the config ' +
    'contains {get_input: input_name} this will be substituted with the value of input_name in ' +
    "this resource's input_values.",
  structured: true,
});
