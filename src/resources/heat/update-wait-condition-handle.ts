import type { CatalogPlugin } from '../plugin-extras.js';
import { awsWaitConditionHandlePlugin } from '../aws/cloudformation/wait-condition-handle.js';
import { UPDATE_WAIT_CONDITION_HANDLE } from '../wait-condition-base.js';

/**
 * OS::Heat::UpdateWaitConditionHandle: an AWS::CloudFormation::WaitConditionHandle that every
 * stack update replaces, so that after each update it has a new URL and no signals. A wait
 * condition given its URL is then replaced too (its Handle changed) and waits for the servers to
 * signal again: the update completes only once the new configuration was applied everywhere.
 */
export const updateWaitConditionHandlePlugin: CatalogPlugin = {
  ...awsWaitConditionHandlePlugin,
  type: UPDATE_WAIT_CONDITION_HANDLE,
  description:
    'A WaitConditionHandle that is replaced on every stack update: a new URL, no signals, so ' +
    'that what signals it must do so again after each update.',
  supportStatus: { version: '2014.1' },
  replacedOnUpdate: true,
};
