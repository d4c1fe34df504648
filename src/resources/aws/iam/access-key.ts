import type { Value } from '../../../template/functions/types.js';
import { C } from '../../../template/properties/index.js';
import { type PluginContext, ResourceFailure } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { uuidFrom } from '../../heat/physical-name.js';
import { rowReality } from '../../heat/row-reality.js';
import { IAM_USER_TYPE } from './user.js';

/** What Heat answers for the secret of a key it cannot read (no signing key here: tests). */
const NO_SECRET = '000-000-000';

const secretOf = (ctx: PluginContext): string => {
  const nonce = ctx.data.key_nonce;
  return (typeof nonce === 'string' ? ctx.stackUserKeypair?.(nonce)?.secretKey : undefined) ?? NO_SECRET;
};

/**
 * AWS::IAM::AccessKey: an EC2 keypair of an AWS::IAM::User of the stack (`UserName`: the user's
 * reference), which cfn-init, cfn-hup and cfn-get-metadata sign their CFN API requests with. Its
 * reference is the access key id and `SecretAccessKey` the secret: both derived from the
 * deployment key and a `key_nonce` in the row (auth/stack-user-keys.ts), so no secret is stored;
 * the views mask the secret (`secretAttributes`). The key holds while its row does, its Status is
 * Active and its user's row holds the `user_nonce` recorded here (api/agent/stack-user-access.ts).
 * Heat refuses Status and Serial as not implemented; Hearth honours Status and refuses Serial.
 */
export const iamAccessKeyPlugin: CatalogPlugin = {
  type: 'AWS::IAM::AccessKey',
  inRow: true,
  description: 'An access key (an EC2-style keypair) of an AWS::IAM::User of the stack.',
  properties: {
    Serial: { type: 'integer', description: 'Not Implemented.', implemented: false },
    Status: {
      type: 'string',
      description: 'Active (the default) or Inactive: an Inactive key is refused.',
      constraints: [C.allowedValues(['Active', 'Inactive'])],
    },
    UserName: {
      type: 'string',
      required: true,
      description: 'The name of the user that the new key will belong to.',
    },
  },
  attributes: {
    UserName: { description: 'Username associated with the AccessKey.', type: 'string' },
    SecretAccessKey: { description: 'Keypair secret key.', type: 'string' },
  },
  secretAttributes: ['SecretAccessKey'],

  async create(ctx, properties: Record<string, Value>) {
    const userName = String(properties.UserName);
    const user = await ctx.readResource(userName);
    if (!user || user.type !== IAM_USER_TYPE || typeof user.data.user_nonce !== 'string') {
      throw new ResourceFailure(`could not find user ${userName}`, { heatClass: 'NotFound' });
    }
    const nonce = uuidFrom(`access-key:${ctx.idempotencyKey}`);
    const keypair = ctx.stackUserKeypair?.(nonce);
    return {
      physicalId: keypair?.accessKey ?? nonce,
      data: {
        user: user.name,
        user_nonce: user.data.user_nonce,
        key_nonce: nonce,
        active: properties.Status !== 'Inactive',
      },
    };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute(ctx, name, properties) {
    if (name === 'UserName') return properties.UserName ?? null;
    if (name === 'SecretAccessKey') return ctx.physicalId === null ? null : secretOf(ctx);
    return null;
  },
};
