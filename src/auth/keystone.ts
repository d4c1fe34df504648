import type { Config } from '../config/options.js';
import { AuthenticationUnavailableError, type Identity } from './identity.js';
import { hashToken } from './standalone.js';
import { TokenCache } from './token-cache.js';

/**
 * Keystone v3 as the API's identity service, as Heat's keystonemiddleware uses it: Hearth logs in
 * with its own service credentials (`POST /v3/auth/tokens`) and validates each request's token
 * with that service token (`GET /v3/auth/tokens`, the request's token as X-Subject-Token).
 * Answers are cached briefly; tokens and the password never appear in messages or logs.
 */

export interface KeystoneSettings {
  /** The v3 endpoint (`.../v3` is added when the URL lacks it, as Heat's www_authenticate_uri often does). */
  readonly url: string;
  readonly user: string;
  readonly password: string;
  readonly project: string;
  readonly userDomain: string;
  readonly projectDomain: string;
  /** How long a valid token's identity is reused, in ms (never past the token's expiry). */
  readonly cacheMs: number;
  /** How long Keystone may take to answer, in ms. */
  readonly timeoutMs: number;
}

export interface KeystoneClientOptions {
  now?: () => number;
  /** Where problems with Keystone are reported (the server's log). */
  warn?: (message: string) => void;
  /** How long a rejected token's answer is reused, in ms (capped by `cacheMs`). */
  rejectedCacheMs?: number;
}

/** A user's password login (the web console's form); the domain is the user's and the project's. */
export interface PasswordLogin {
  readonly user: string;
  readonly password: string;
  readonly project: string;
  readonly domain: string;
}

/** A token's identity, or why it was refused (the API answers 401 with that message). */
export type TokenCheck = { identity: Identity; expiresAt: number } | { rejected: string };

const REJECTED_CACHE_MS = 5000;
/** A service token this close to its expiry is renewed before use. */
const SERVICE_TOKEN_MARGIN_MS = 30_000;
const UNAVAILABLE = 'The identity service (Keystone) cannot validate tokens now; try again later';

export function keystoneSettings(config: Config): KeystoneSettings {
  return {
    url: config.keystone_url,
    user: config.keystone_service_user,
    password: config.keystone_service_password,
    project: config.keystone_service_project,
    userDomain: config.keystone_service_user_domain,
    projectDomain: config.keystone_service_project_domain,
    cacheMs: config.keystone_token_cache_time * 1000,
    timeoutMs: config.keystone_timeout * 1000,
  };
}

/** `http://host:5000` and `http://host:5000/v3/` both become `http://host:5000/v3`. */
export function v3Endpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/v3$/.test(trimmed) ? trimmed : `${trimmed}/v3`;
}

interface ServiceToken {
  readonly token: string;
  readonly expiresAt: number;
  /** The service user's id: the trustee of the trusts stacks are made with. */
  readonly userId: string;
}

export class KeystoneClient {
  private readonly endpoint: string;
  /** The endpoint as logs show it (without any user:password@). */
  private readonly shownEndpoint: string;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly rejectedCacheMs: number;
  private readonly cache: TokenCache<TokenCheck>;
  private service: ServiceToken | undefined;
  private pendingService: Promise<ServiceToken> | undefined;

  constructor(
    private readonly settings: KeystoneSettings,
    options: KeystoneClientOptions = {},
  ) {
    this.endpoint = v3Endpoint(settings.url);
    const shown = new URL(this.endpoint);
    shown.username = '';
    shown.password = '';
    this.shownEndpoint = shown.toString().replace(/\/$/, '');
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? (() => {});
    this.rejectedCacheMs = Math.min(options.rejectedCacheMs ?? REJECTED_CACHE_MS, settings.cacheMs);
    this.cache = new TokenCache(this.now);
  }

  /**
   * Who a token stands for, or why it is refused. Throws AuthenticationUnavailableError when
   * Keystone cannot be asked (unreachable, too slow, failing, or refusing Hearth's credentials).
   */
  validate(token: string): Promise<TokenCheck> {
    return this.cache.get(
      hashToken(token),
      () => this.ask(token),
      (check, now) =>
        'identity' in check
          ? Math.min(now + this.settings.cacheMs, check.expiresAt)
          : now + this.rejectedCacheMs,
    );
  }

  private async ask(token: string): Promise<TokenCheck> {
    let service = await this.serviceToken();
    let res = await this.call('GET', '/auth/tokens?nocatalog', {
      'x-auth-token': service.token,
      'x-subject-token': token,
    });
    if (res.status === 401) {
      // The service token was revoked or expired early: log in again, once.
      await res.body?.cancel();
      if (this.service === service) this.service = undefined;
      service = await this.serviceToken();
      res = await this.call('GET', '/auth/tokens?nocatalog', {
        'x-auth-token': service.token,
        'x-subject-token': token,
      });
    }
    if (res.status === 200) return this.identityOf(await this.json(res));
    await res.body?.cancel();
    if (res.status === 404 || res.status === 400) return { rejected: 'The token is unknown or has expired' };
    if (res.status === 401) throw this.unavailable('Keystone refused a fresh service token');
    if (res.status === 403) {
      throw this.unavailable(
        `Keystone does not let ${this.settings.user} validate tokens (it needs the service or admin role)`,
      );
    }
    throw this.unavailable(`Keystone answered a token validation with HTTP ${res.status}`);
  }

  private identityOf(body: unknown): TokenCheck {
    const token = (body as { token?: KeystoneToken } | null)?.token;
    if (typeof token !== 'object' || token === null) throw this.unavailable('Keystone sent no token body');
    const projectId = token.project?.id;
    if (typeof projectId !== 'string' || projectId === '') {
      return { rejected: 'The token is not scoped to a project' };
    }
    const expiresAt = Date.parse(token.expires_at ?? '');
    if (expiresAt <= this.now()) return { rejected: 'The token is unknown or has expired' };
    const roles = Array.isArray(token.roles)
      ? token.roles.map((r) => r?.name).filter((n): n is string => typeof n === 'string')
      : [];
    const userId = typeof token.user?.id === 'string' ? token.user.id : '';
    const userName = typeof token.user?.name === 'string' ? token.user.name : userId;
    // A token without a readable expiry (NaN) serves this request only: the cache keeps nothing.
    // Frozen: one cached identity serves many requests.
    const identity = Object.freeze({ projectId, userId, userName, roles: Object.freeze(roles) as string[] });
    return { identity, expiresAt };
  }

  /** The id of Hearth's service user (logging in if needed). */
  async serviceUserId(): Promise<string> {
    const { userId } = await this.serviceToken();
    if (userId === '') throw this.unavailable('Keystone named no user in the service login');
    return userId;
  }

  /**
   * A user's own login, for the web console: Keystone's password method scoped to a project by
   * name. The token and its project, or undefined when Keystone refuses the credentials.
   */
  async passwordLogin(login: PasswordLogin): Promise<{ token: string; projectId: string } | undefined> {
    const res = await this.passwordToken(
      { name: login.user, domain: login.domain, password: login.password },
      { name: login.project, domain: login.domain },
    );
    if (res.status === 401 || res.status === 404 || res.status === 400) {
      await res.body?.cancel();
      return undefined;
    }
    const token = res.headers.get('x-subject-token');
    const body = (await this.json(res)) as { token?: KeystoneToken } | null;
    const projectId = body?.token?.project?.id;
    if ((res.status !== 201 && res.status !== 200) || !token || typeof projectId !== 'string')
      throw this.unavailable(`Keystone answered a user's password login with HTTP ${res.status}`);
    return { token, projectId };
  }

  /** Keystone's password method scoped to a project by name (names within their domains). */
  private passwordToken(
    user: { name: string; domain: string; password: string },
    project: { name: string; domain: string },
  ): Promise<Response> {
    return this.call(
      'POST',
      '/auth/tokens?nocatalog',
      { 'content-type': 'application/json' },
      JSON.stringify({
        auth: {
          identity: {
            methods: ['password'],
            password: { user: { name: user.name, domain: { name: user.domain }, password: user.password } },
          },
          scope: { project: { name: project.name, domain: { name: project.domain } } },
        },
      }),
    );
  }

  /** The service token, logging in when there is none or it is about to expire (one login at a time). */
  private async serviceToken(): Promise<ServiceToken> {
    const current = this.service;
    if (current !== undefined && current.expiresAt - SERVICE_TOKEN_MARGIN_MS > this.now()) return current;
    this.pendingService ??= this.login().finally(() => {
      this.pendingService = undefined;
    });
    const fresh = await this.pendingService;
    this.service = fresh;
    return fresh;
  }

  private async login(): Promise<ServiceToken> {
    const s = this.settings;
    const res = await this.passwordToken(
      { name: s.user, domain: s.userDomain, password: s.password },
      { name: s.project, domain: s.projectDomain },
    );
    if (res.status !== 201 && res.status !== 200) {
      await res.body?.cancel();
      const who = `user ${s.user} (domain ${s.userDomain}) in project ${s.project} (domain ${s.projectDomain})`;
      throw this.unavailable(
        res.status === 401
          ? `Keystone refused Hearth's service credentials: ${who}`
          : `Keystone answered the service login of ${who} with HTTP ${res.status}`,
      );
    }
    const token = res.headers.get('x-subject-token');
    const body = (await this.json(res)) as {
      token?: { expires_at?: string; user?: { id?: unknown } };
    } | null;
    if (!token) throw this.unavailable('Keystone sent no X-Subject-Token for the service login');
    const expiresAt = Date.parse(body?.token?.expires_at ?? '');
    const userId = typeof body?.token?.user?.id === 'string' ? body.token.user.id : '';
    // Without a readable expiry the token is kept until Keystone refuses it (a 401 renews it).
    return { token, userId, expiresAt: Number.isNaN(expiresAt) ? Number.POSITIVE_INFINITY : expiresAt };
  }

  private async call(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Response> {
    try {
      return await fetch(`${this.endpoint}${path}`, {
        method,
        headers: { accept: 'application/json', ...headers },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      throw this.unavailable(`Keystone at ${this.shownEndpoint} could not be reached: ${reason(err)}`);
    }
  }

  private async json(res: Response): Promise<unknown> {
    try {
      return await res.json();
    } catch (err) {
      throw this.unavailable(`Keystone's answer could not be read: ${reason(err)}`);
    }
  }

  /** Logs the detail; the client gets a message that says nothing of Hearth's network. */
  private unavailable(detail: string): AuthenticationUnavailableError {
    this.warn(detail);
    return new AuthenticationUnavailableError(UNAVAILABLE);
  }
}

/** The parts of Keystone's token body Hearth reads. */
interface KeystoneToken {
  expires_at?: string;
  project?: { id?: unknown };
  user?: { id?: unknown; name?: unknown };
  roles?: { name?: unknown }[];
}

/** A network error's reason: the timeout, or the system error code (ECONNREFUSED, ...). */
function reason(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'no answer in time';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}
