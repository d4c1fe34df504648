import {
  type Cloud,
  type CloudSettings,
  isNotFound,
  openCloud,
  OpenStackError,
  type RateLimits,
} from '../openstack/index.js';
import { AuthenticationError, AuthenticationUnavailableError, type Identity } from './identity.js';
import { type KeystoneSettings, v3Endpoint } from './keystone.js';

/**
 * Keystone trusts, as Heat uses them (deferred_auth_method = trusts): at stack create, the
 * requesting user delegates roles on its project to Hearth's service user, with impersonation;
 * every later cloud call of the stack is made with a token the service user gets for that trust
 * (scope `OS-TRUST:trust`), so the cloud sees the stack's owner and enforces its tenancy. The
 * trust is deleted with the stack. Trust ids and tokens never appear in messages.
 */

export interface TrustSettings {
  readonly keystone: KeystoneSettings;
  /** Heat's trusts_delegated_roles: the role names delegated; empty, every role of the request's token. */
  readonly delegatedRoles: readonly string[];
}

/** Keystone refused the trust a stack needs (the API answers with `status`). */
export class TrustError extends Error {
  override readonly name = 'TrustError';
  constructor(
    message: string,
    readonly status: 400 | 403,
  ) {
    super(message);
  }
}

/** Most trust clouds kept open at once (each holds a token); the oldest unused one goes first. */
const MAX_OPEN = 500;

export class KeystoneTrusts {
  private readonly endpoint: string;
  private readonly clouds = new Map<string, Cloud>();

  constructor(
    private readonly settings: TrustSettings,
    /** Hearth's own Keystone login (auth/keystone.ts): the trustee's id. */
    private readonly service: { serviceUserId(): Promise<string> },
    private readonly options: { rateLimits?: RateLimits; warn?: (message: string) => void } = {},
  ) {
    this.endpoint = v3Endpoint(settings.keystone.url);
  }

  /**
   * Makes a trust from the user of `userToken` (whose identity is `trustor`) to Hearth's service
   * user on the user's project; returns its id. The request is the user's own: Keystone lets only
   * the trustor delegate its roles.
   */
  async create(userToken: string, trustor: Identity): Promise<string> {
    const roles = this.settings.delegatedRoles.length > 0 ? this.settings.delegatedRoles : trustor.roles;
    const trustee = await this.service.serviceUserId();
    const body = {
      trust: {
        trustor_user_id: trustor.userId,
        trustee_user_id: trustee,
        project_id: trustor.projectId,
        impersonation: true,
        allow_redelegation: false,
        roles: roles.map((name) => ({ name })),
      },
    };
    let res: Response;
    try {
      res = await fetch(`${this.endpoint}/OS-TRUST/trusts`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-auth-token': userToken,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.keystone.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw this.unavailable(`Keystone could not be reached to make a trust: ${(error as Error).message}`);
    }
    const answer = (await res.json().catch(() => null)) as {
      trust?: { id?: unknown };
      error?: { message?: unknown };
    } | null;
    if (res.status === 201 || res.status === 200) {
      const id = answer?.trust?.id;
      if (typeof id === 'string' && id !== '') return id;
      throw this.unavailable('Keystone answered a trust request without the trust’s id');
    }
    if (res.status >= 500)
      throw this.unavailable(`Keystone answered a trust request with HTTP ${res.status}`);
    if (res.status === 401) throw new AuthenticationError('The token is unknown or has expired');
    const said = typeof answer?.error?.message === 'string' ? `: ${answer.error.message}` : '';
    throw new TrustError(
      `Keystone refused the trust the stack needs (user ${trustor.userName} delegating roles ` +
        `${roles.join(', ') || '(none)'} on project ${trustor.projectId} to Hearth’s service user)${said}`,
      res.status === 403 ? 403 : 400,
    );
  }

  /** The cloud as the trustor, through the trust: one per trust, its token renewed before it expires. */
  cloud(trustId: string): Cloud {
    const open = this.clouds.get(trustId);
    if (open) {
      // Most recently used last: the first entry is the one to drop.
      this.clouds.delete(trustId);
      this.clouds.set(trustId, open);
      return open;
    }
    const k = this.settings.keystone;
    const settings: CloudSettings = {
      origin: 'a Keystone trust',
      authType: 'password',
      auth: {
        authUrl: this.endpoint,
        username: k.user,
        password: k.password,
        userDomainName: k.userDomain,
        trustId,
      },
      interface: 'public',
      insecure: false,
    };
    const cloud = openCloud(settings, this.options.rateLimits ? { rateLimits: this.options.rateLimits } : {});
    if (this.clouds.size >= MAX_OPEN) this.clouds.delete(this.clouds.keys().next().value!);
    this.clouds.set(trustId, cloud);
    return cloud;
  }

  /**
   * Deletes the trust, as its trustor (through the trust itself, as Heat does); true when it is
   * gone, also when it already was (a 404, or a trust Keystone no longer grants tokens for).
   */
  async delete(trustId: string): Promise<void> {
    const cloud = this.cloud(trustId);
    try {
      await cloud.request('identity', 'DELETE', `/OS-TRUST/trusts/${encodeURIComponent(trustId)}`);
    } catch (error) {
      const gone =
        isNotFound(error) ||
        (error instanceof OpenStackError && (error.status === 401 || error.status === 404));
      if (!gone) throw error;
    } finally {
      this.clouds.delete(trustId);
    }
  }

  private unavailable(detail: string): AuthenticationUnavailableError {
    this.options.warn?.(detail);
    return new AuthenticationUnavailableError(
      'The identity service (Keystone) cannot make a trust now; try again later',
    );
  }
}
