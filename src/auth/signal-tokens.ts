import { createHmac } from 'node:crypto';
import type { SignalCredentials } from '../resources/contract.js';
import type { Store } from '../store/contract.js';
import { loadDeploymentKey } from './deployment-key.js';
import { decodePayload, encodePayload, signedPayload } from './signed-token.js';

/**
 * Signal tokens: what Heat's stack-domain users are for. A resource that is signalled from
 * outside (a wait condition handle, a scaling policy) hands out a token that lets its holder
 * signal that one resource and nothing else. The token is the target signed with a deployment
 * key (HMAC-SHA256): any API process verifies it without a lookup, a retried create computes the
 * same one (no row to leak), and it dies with its resource (signalling a deleted resource is a 404).
 */

export interface SignalTarget {
  projectId: string;
  stackId: string;
  resourceName: string;
}

export const SIGNAL_TOKEN_PREFIX = 'hsig_';

export class SignalSigner {
  constructor(private readonly key: Buffer) {}

  /**
   * The key from the configuration (auth_encryption_key) when set, else one generated for the
   * store on first use and shared by every process of the deployment.
   */
  static async load(store: Store, configuredKey: string): Promise<SignalSigner> {
    return new SignalSigner(await loadDeploymentKey(store, configuredKey));
  }

  token(target: SignalTarget): string {
    const payload = encodePayload([target.projectId, target.stackId, target.resourceName]);
    return `${SIGNAL_TOKEN_PREFIX}${payload}.${this.sign(payload)}`;
  }

  /** The target a token was made for, or undefined when it is not one of this deployment's. */
  verify(token: string): SignalTarget | undefined {
    const payload = signedPayload(token, SIGNAL_TOKEN_PREFIX, (p) => this.sign(p));
    const parts = payload === undefined ? undefined : decodePayload(payload, 3);
    if (!parts) return undefined;
    const [projectId, stackId, resourceName] = parts;
    return { projectId: projectId!, stackId: stackId!, resourceName: resourceName! };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

/** Credentials for signalling one resource, pointing at the API's public URL. */
export function signalCredentials(
  signer: SignalSigner,
  publicUrl: string,
  target: SignalTarget & { stackName: string },
): SignalCredentials {
  const base = publicUrl.replace(/\/+$/, '');
  const token = signer.token(target);
  const stack = `${encodeURIComponent(target.stackName)}/${target.stackId}`;
  return {
    endpoint: `${base}/v1/${target.projectId}/stacks/${stack}/resources/${encodeURIComponent(target.resourceName)}/signal`,
    token,
    alarmUrl: `${base}/v1/signal/${token}`,
  };
}
