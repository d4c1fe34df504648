import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignalCredentials } from '../resources/contract.js';
import type { Store } from '../store/contract.js';
import { pyQuote, resourceArn } from '../util/heat-arn.js';
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

/** What a pre-signed URL names: every part of the resource's ARN. */
export type UrlTarget = SignalTarget & { stackName: string };

/** Where a pre-signed wait condition URL points (Heat's CFN API `/waitcondition/<arn>`). */
export const WAIT_CONDITION_PATH = '/cfn/v1/waitcondition/';
/** Where an AWS scaling policy's pre-signed AlarmUrl points (Heat's CFN API `/v1/signal/<arn>`). */
export const CFN_SIGNAL_PATH = '/cfn/v1/signal/';

/** What a pre-signed URL is for: each signs differently, so one never passes for the other. */
export type UrlPurpose = 'waitcondition' | 'signal';

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

  /**
   * The signature of a pre-signed wait condition URL: the resource's ARN and the handle's access
   * key (its physical id, so a replaced handle gets a new URL and the old one stops working).
   */
  urlSignature(target: UrlTarget, accessKey: string, purpose: UrlPurpose = 'waitcondition'): string {
    return this.sign(urlPayload(target, accessKey, purpose));
  }

  /** Whether `signature` is urlSignature(target, accessKey, purpose) (compared in constant time). */
  verifyUrlSignature(
    target: UrlTarget,
    accessKey: string,
    signature: string,
    purpose: UrlPurpose = 'waitcondition',
  ): boolean {
    const expected = Buffer.from(this.urlSignature(target, accessKey, purpose));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

/** A URL signature signs something no token does (a token's payload has three parts). */
function urlPayload(target: UrlTarget, accessKey: string, purpose: UrlPurpose): string {
  const { projectId, stackName, stackId, resourceName } = target;
  return encodePayload([purpose, projectId, stackName, stackId, resourceName, accessKey]);
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
    waitConditionUrl: (accessKey) => presignedUrl(signer, base, target, accessKey, 'waitcondition'),
    cfnSignalUrl: (accessKey) => presignedUrl(signer, base, target, accessKey, 'signal'),
  };
}

/** `<base><path><quoted resource arn>?AWSAccessKeyId=<accessKey>&Signature=<signature>`. */
function presignedUrl(
  signer: SignalSigner,
  base: string,
  target: UrlTarget,
  accessKey: string,
  purpose: UrlPurpose,
): string {
  const arn = resourceArn(target.projectId, target.stackName, target.stackId, target.resourceName);
  const query = new URLSearchParams({
    AWSAccessKeyId: accessKey,
    Signature: signer.urlSignature(target, accessKey, purpose),
  });
  const path = purpose === 'signal' ? CFN_SIGNAL_PATH : WAIT_CONDITION_PATH;
  return `${base}${path}${pyQuote(arn)}?${query.toString()}`;
}
