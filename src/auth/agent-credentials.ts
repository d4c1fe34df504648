import { createHmac } from 'node:crypto';
import type { AgentCredentials } from '../resources/contract.js';
import type { Store } from '../store/contract.js';
import { loadDeploymentKey } from './deployment-key.js';
import { decodePayload, encodePayload, signedPayload } from './signed-token.js';

/**
 * Agent credentials: what Heat's per-server stack user (its EC2 keypair or password) is for. The
 * in-guest agent of a server whose user_data_format is SOFTWARE_CONFIG polls the server's
 * metadata and signals its deployments with a token `hagt_<payload>.<hmac>`, the payload naming
 * the server resource and a nonce kept in the resource row's data. The signature proves the token
 * is this deployment's; the nonce makes it revocable: once the row is gone (deleted, replaced and
 * cleaned up) or holds another nonce (a replacement), the token is refused.
 */

export interface AgentTarget {
  projectId: string;
  stackId: string;
  /** The server resource's name in its stack. */
  resourceName: string;
  /** Must equal the row's data `agent_nonce`. */
  nonce: string;
}

export const AGENT_TOKEN_PREFIX = 'hagt_';

/** The token split as the CFN transport hands it out: an access key id and its secret. */
export interface AgentKeypair {
  /** `hagt_<payload>`. */
  accessKey: string;
  /** The HMAC part: the EC2 signature's key. */
  secretKey: string;
}

export class AgentSigner {
  constructor(private readonly key: Buffer) {}

  /** Keyed like the signal tokens (auth_encryption_key, else the store's generated key). */
  static async load(store: Store, configuredKey: string): Promise<AgentSigner> {
    return new AgentSigner(await loadDeploymentKey(store, configuredKey));
  }

  token(target: AgentTarget): string {
    const { accessKey, secretKey } = this.keypair(target);
    return `${accessKey}.${secretKey}`;
  }

  keypair(target: AgentTarget): AgentKeypair {
    const payload = encodePayload([target.projectId, target.stackId, target.resourceName, target.nonce]);
    return { accessKey: `${AGENT_TOKEN_PREFIX}${payload}`, secretKey: this.sign(payload) };
  }

  /** The secret key of an access key id (undefined when it is not shaped as ours). */
  secretFor(accessKey: string): string | undefined {
    if (!accessKey.startsWith(AGENT_TOKEN_PREFIX)) return undefined;
    const payload = accessKey.slice(AGENT_TOKEN_PREFIX.length);
    return payload === '' || payload.includes('.') ? undefined : this.sign(payload);
  }

  /**
   * The target a token was signed for, or undefined when the signature is not this deployment's.
   * Says nothing of revocation: checkAgentTarget looks at the row.
   */
  verify(token: string): AgentTarget | undefined {
    const payload = signedPayload(token, AGENT_TOKEN_PREFIX, (p) => this.sign(p));
    return payload === undefined ? undefined : parsePayload(payload);
  }

  /** The target of an access key id whose secret the caller proved (an EC2 signature). */
  targetOf(accessKey: string): AgentTarget | undefined {
    if (this.secretFor(accessKey) === undefined) return undefined;
    return parsePayload(accessKey.slice(AGENT_TOKEN_PREFIX.length));
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(`agent:${payload}`).digest('base64url');
  }
}

function parsePayload(payload: string): AgentTarget | undefined {
  const parts = decodePayload(payload, 4);
  if (!parts) return undefined;
  const [projectId, stackId, resourceName, nonce] = parts;
  return { projectId: projectId!, stackId: stackId!, resourceName: resourceName!, nonce: nonce! };
}

/** The row an agent token is checked against: the server resource's, by stack and name. */
export interface AgentRow {
  physicalId: string | null;
  data: Readonly<Record<string, unknown>>;
}

/**
 * The row the token still belongs to, among the resource's rows (an old row and its replacement
 * share a name): the one whose `agent_nonce` is the token's. Undefined: revoked.
 */
export function agentRowOf<R extends AgentRow>(target: AgentTarget, rows: readonly R[]): R | undefined {
  return rows.find((row) => row.data.agent_nonce === target.nonce);
}

/** A server agent's credentials, pointing at the API's public URL. */
export function agentCredentials(
  signer: AgentSigner,
  publicUrl: string,
  target: AgentTarget,
): AgentCredentials {
  const { accessKey, secretKey } = signer.keypair(target);
  return {
    token: `${accessKey}.${secretKey}`,
    accessKey,
    secretKey,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    projectId: target.projectId,
  };
}
