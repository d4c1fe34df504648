import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Store } from '../store/contract.js';

/**
 * The deployment key (Heat's auth_encryption_key): configured, or generated for the store on first
 * use and shared by every process using it. Signal tokens are signed with it; stored credentials
 * (a stack's Keystone trust id) are sealed with a key derived from it.
 */

const KEY_SETTING = 'signal_token_key';

export async function loadDeploymentKey(store: Store, configuredKey: string): Promise<Buffer> {
  if (configuredKey !== '') return Buffer.from(configuredKey, 'utf8');
  const stored = await store.tx((tx) =>
    tx.settings.getOrInit(KEY_SETTING, randomBytes(32).toString('base64')),
  );
  return Buffer.from(stored, 'base64');
}

const VERSION = 'v1';

/** A value that cannot be opened: sealed with another key, bound to another context, or altered. */
export class SealError extends Error {
  override readonly name = 'SealError';
}

/**
 * AES-256-GCM with a key derived from the deployment key (HKDF-SHA256, one key per purpose). The
 * context (e.g. the owning project) is authenticated with the value: a sealed value copied to
 * another project's row does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(deploymentKey: Buffer, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', deploymentKey, Buffer.alloc(0), `hearth ${purpose}`, 32));
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string, context: string): string {
    const [version, iv, body, extra] = sealed.split('.');
    if (version !== VERSION || iv === undefined || body === undefined || extra !== undefined) {
      throw new SealError('not a sealed value of this Hearth');
    }
    const bytes = Buffer.from(body, 'base64url');
    if (bytes.length < 16) throw new SealError('the sealed value is truncated');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SealError(
        'the sealed value does not open with this deployment key (auth_encryption_key changed?) or was altered',
      );
    }
  }
}

/** The box stacks' credentials are sealed in (their context: the owning project's id). */
export function credentialBox(deploymentKey: Buffer): SecretBox {
  return new SecretBox(deploymentKey, 'stack credentials');
}
