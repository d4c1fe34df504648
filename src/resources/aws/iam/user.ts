import type { Value } from '../../../template/functions/types.js';
import type { ImplicitView } from '../../../template/types.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { ACCESS_POLICY_TYPE, namedResource } from '../../heat/access-policy.js';
import { physicalResourceName, uuidFrom } from '../../heat/physical-name.js';
import { rowReality } from '../../heat/row-reality.js';

export const IAM_USER_TYPE = 'AWS::IAM::User';

/**
 * The policies Heat applies: the names among `Policies` (an inline IAM policy, a map, is ignored
 * as Heat ignores it).
 */
export function policyNames(policies: Value | undefined): string[] {
  return Array.isArray(policies) ? policies.filter((p): p is string => typeof p === 'string') : [];
}

/** Heat's _validate_policies: each named policy is an OS::Heat::AccessPolicy of the stack. */
function policiesAreAccessPolicies(
  self: ImplicitView,
  lookup: (name: string) => ImplicitView | undefined,
): { property: string; message: string } | undefined {
  for (let i = 0; i < self.count('Policies'); i++) {
    const name = namedResource(self, 'Policies', i);
    if (name !== undefined && lookup(name)?.type !== ACCESS_POLICY_TYPE) {
      return {
        property: 'Policies',
        message: `The Referenced Attribute (${self.name} Policies) is incorrect.`,
      };
    }
  }
  return undefined;
}

/**
 * AWS::IAM::User: a user of the stack's project that holds AWS::IAM::AccessKey keypairs (Heat's
 * stack-domain Keystone user). Hearth keeps it in its row, as it keeps servers' agent
 * credentials: a `user_id`, the `policies` it is held to and a `user_nonce` every key of it
 * records, so deleting or replacing the user revokes its keys. Suspended, its keys are refused
 * (Heat disables the user). Its reference is its physical name, `<stack>-<name>-<short id>`.
 * LoginProfile's password has no use without a Keystone user and is not kept; Path and Groups are
 * not implemented, as in Heat.
 */
export const iamUserPlugin: CatalogPlugin = {
  type: IAM_USER_TYPE,
  inRow: true,
  description: 'A user of the stack whose access keys may read the stack’s resources’ metadata.',
  properties: {
    Path: { type: 'string', description: 'Not Implemented.' },
    Groups: { type: 'list', description: 'Not Implemented.' },
    LoginProfile: {
      type: 'map',
      description: 'A login profile for the user.',
      schema: { Password: { type: 'string' } },
    },
    Policies: { type: 'list', description: 'Access policies to apply to the user.' },
  },
  attributes: {},
  crossCheck: policiesAreAccessPolicies,

  async create(ctx, properties) {
    return {
      physicalId: physicalResourceName(ctx),
      data: {
        user_id: uuidFrom(`user:${ctx.idempotencyKey}`),
        user_nonce: uuidFrom(`user-nonce:${ctx.idempotencyKey}`),
        policies: policyNames(properties.Policies),
      },
    };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute() {
    return null;
  },
};
