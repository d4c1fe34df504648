import { createHmac } from 'node:crypto';
import type { StackUserKeypair } from '../resources/contract.js';
import type { Store } from '../store/contract.js';
import { loadDeploymentKey } from './deployment-key.js';
import { decodePayload, encodePayload } from './signed-token.js';

/**
 * The EC2 keypairs of AWS::IAM::AccessKey resources (Heat's stack users' keypairs, kept in
 * Keystone by Heat). The access key id `hiak_<payload>` names the key resource and a nonce kept
 * in its row; the secret is an HMAC of it with the deployment key, so no secret is stored. The
 * key is valid while its row holds that nonce, is Active, and its user's row still holds the user
 * nonce the key recorded (api/agent/stack-user-access.ts checks the rows).
 */

export interface StackUserKeyTarget {
  projectId: string;
  stackId: string;
  /** The AWS::IAM::AccessKey resource's name in its stack. */
  resourceName: string;
  /** Must equal the key row's data `key_nonce`. */
  nonce: string;
}

export const STACK_USER_KEY_PREFIX = 'hiak_';

export class StackUserKeys {
  constructor(private readonly key: Buffer) {}

  static async load(store: Store, configuredKey: string): Promise<StackUserKeys> {
    return new StackUserKeys(await loadDeploymentKey(store, configuredKey));
  }

  keypair(target: StackUserKeyTarget): StackUserKeypair {
    const payload = encodePayload([target.projectId, target.stackId, target.resourceName, target.nonce]);
    return { accessKey: `${STACK_USER_KEY_PREFIX}${payload}`, secretKey: this.sign(payload) };
  }

  /** The secret of an access key id and the key it names; undefined when it is not shaped as ours. */
  open(accessKey: string): { secret: string; target: StackUserKeyTarget } | undefined {
    if (!accessKey.startsWith(STACK_USER_KEY_PREFIX)) return undefined;
    const payload = accessKey.slice(STACK_USER_KEY_PREFIX.length);
    const parts = decodePayload(payload, 4);
    if (!parts) return undefined;
    const [projectId, stackId, resourceName, nonce] = parts as [string, string, string, string];
    return { secret: this.sign(payload), target: { projectId, stackId, resourceName, nonce } };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(`stack-user-key:${payload}`).digest('base64url');
  }
}
