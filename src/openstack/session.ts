import type { CloudSettings, Interface } from './config.js';
import { OpenStackError } from './errors.js';
import { DEFAULT_RETRY, defaultRuntime, type HttpRuntime, type RetryPolicy, sendRequest } from './http.js';

/**
 * A Keystone v3 login kept for the life of a cloud connection: a project-scoped token, renewed
 * shortly before it expires (or when a service refuses it), and the catalog that came with it.
 */

export interface CatalogEndpoint {
  interface: string;
  region?: string | null;
  region_id?: string | null;
  url: string;
}
export interface CatalogService {
  type: string;
  name?: string;
  endpoints: CatalogEndpoint[];
}

export interface Login {
  token: string;
  expiresAt: number;
  userId: string;
  projectId: string;
  /** The names the token gives (Swift ACLs name a user as `<project name>:<user name>`). */
  userName: string;
  projectName: string;
  catalog: CatalogService[];
}

export interface SessionOptions {
  retry?: RetryPolicy;
  runtime?: HttpRuntime;
  /** A token this close to its expiry is replaced before use (default 5 minutes). */
  renewBeforeMs?: number;
}

/** Catalog types that name the same API, in the order they are tried. */
const ALIASES: readonly (readonly string[])[] = [
  ['block-storage', 'volumev3', 'volume', 'volumev2', 'block-store'],
  ['compute'],
  ['network'],
  ['image'],
  ['identity'],
  ['orchestration'],
  ['object-store'],
  ['load-balancer'],
  ['placement'],
];

/** The types to look for in the catalog for `serviceType`: itself first, then its aliases. */
export function catalogTypes(serviceType: string): string[] {
  const group = ALIASES.find((names) => names.includes(serviceType)) ?? [];
  return [serviceType, ...group.filter((name) => name !== serviceType)];
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The URL paths are appended to: what the catalog says, with the version openstacksdk adds where
 * catalogs usually hold the unversioned root (Neutron v2.0, Glance v2, Keystone v3).
 */
export function versionedEndpoint(serviceType: string, url: string): string {
  const base = trimSlash(url);
  const type = serviceType;
  if (type === 'network') return /\/v2\.0$/.test(base) ? base : `${base}/v2.0`;
  if (type === 'image') return /\/v2(\.\d+)?$/.test(base) ? base : `${base}/v2`;
  if (type === 'identity') return /\/v3(\.\d+)?$/.test(base) ? base : `${base}/v3`;
  return base;
}

/** Keystone's v3 root from an auth_url written with or without the version. */
export function identityRoot(authUrl: string): string {
  return versionedEndpoint('identity', authUrl);
}

export interface EndpointQuery {
  interface?: Interface;
  region?: string;
}

/** The catalogued URL of a service, or an error listing what the catalog holds. */
export function findEndpoint(
  catalog: CatalogService[],
  serviceType: string,
  query: EndpointQuery = {},
): string {
  const wanted = query.interface ?? 'public';
  for (const type of catalogTypes(serviceType)) {
    for (const service of catalog.filter((s) => s.type === type)) {
      const endpoint = service.endpoints.find(
        (e) =>
          e.interface.replace(/URL$/, '') === wanted &&
          (query.region === undefined || e.region_id === query.region || e.region === query.region),
      );
      if (endpoint) return endpoint.url;
    }
  }
  const where = `${wanted} interface${query.region ? ` in region ${query.region}` : ''}`;
  const types = [...new Set(catalog.map((s) => s.type))].sort().join(', ');
  throw new Error(
    `no ${serviceType} endpoint for the ${where} in the catalog (it lists ${types || 'nothing'})`,
  );
}

type Body = Record<string, unknown>;

/** The body of POST /v3/auth/tokens for the settings' auth type. */
export function authRequestBody(settings: CloudSettings): Body {
  const { auth } = settings;
  const domain = (id?: string, name?: string) => (id ? { id } : { name });
  const user = () =>
    auth.userId
      ? { id: auth.userId }
      : { name: auth.username, domain: domain(auth.userDomainId, auth.userDomainName) };
  const scope = () =>
    auth.trustId
      ? { 'OS-TRUST:trust': { id: auth.trustId } }
      : auth.projectId
        ? { project: { id: auth.projectId } }
        : {
            project: { name: auth.projectName, domain: domain(auth.projectDomainId, auth.projectDomainName) },
          };
  switch (settings.authType) {
    case 'password':
      return {
        auth: {
          identity: { methods: ['password'], password: { user: { ...user(), password: auth.password } } },
          scope: scope(),
        },
      };
    case 'token':
      return { auth: { identity: { methods: ['token'], token: { id: auth.token } }, scope: scope() } };
    case 'v3applicationcredential': {
      // An application credential carries its own project: no scope may be asked for.
      const credential = auth.applicationCredentialId
        ? { id: auth.applicationCredentialId, secret: auth.applicationCredentialSecret }
        : { name: auth.applicationCredentialName, secret: auth.applicationCredentialSecret, user: user() };
      return {
        auth: { identity: { methods: ['application_credential'], application_credential: credential } },
      };
    }
  }
}

export class Session {
  private readonly retry: RetryPolicy;
  private readonly runtime: HttpRuntime;
  private readonly renewBeforeMs: number;
  private current: Login | undefined;
  private pending: Promise<Login> | undefined;

  constructor(
    readonly settings: CloudSettings,
    options: SessionOptions = {},
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.runtime = options.runtime ?? defaultRuntime();
    this.renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
  }

  /** A valid login, made (once, however many callers wait) when there is none or it is about to expire. */
  async login(): Promise<Login> {
    const current = this.current;
    if (current && current.expiresAt - this.runtime.now() > this.renewBeforeMs) return current;
    this.pending ??= this.authenticate().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  async token(): Promise<string> {
    return (await this.login()).token;
  }

  /** Forgets `token` (a service refused it), so the next call logs in again. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  /** The URL to append a service's paths to (interface and region from the settings by default). */
  async endpoint(serviceType: string, query: EndpointQuery = {}): Promise<string> {
    const { catalog } = await this.login();
    const url = findEndpoint(catalog, serviceType, {
      interface: query.interface ?? this.settings.interface,
      ...((query.region ?? this.settings.regionName) !== undefined
        ? { region: query.region ?? this.settings.regionName! }
        : {}),
    });
    return versionedEndpoint(serviceType, url);
  }

  /** Revokes the current token (at shutdown); errors are ignored, the token expires anyway. */
  async revoke(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (!current) return;
    await sendRequest(
      {
        service: 'identity',
        method: 'DELETE',
        url: `${identityRoot(this.settings.auth.authUrl)}/auth/tokens`,
        endpoint: identityRoot(this.settings.auth.authUrl),
        headers: { 'X-Auth-Token': current.token, 'X-Subject-Token': current.token },
        retry: { attempts: 1 },
      },
      this.retry,
      this.runtime,
    ).catch(() => undefined);
  }

  private async authenticate(): Promise<Login> {
    const endpoint = identityRoot(this.settings.auth.authUrl);
    const url = `${endpoint}/auth/tokens`;
    const response = await sendRequest<Body>(
      {
        service: 'identity',
        method: 'POST',
        url,
        endpoint,
        body: authRequestBody(this.settings),
        safeToRepeat: true,
      },
      this.retry,
      this.runtime,
    );
    const token = response.headers.get('x-subject-token');
    const body = response.body?.token as Body | undefined;
    const invalid = (detail: string) =>
      new OpenStackError({
        status: response.status,
        service: 'identity',
        method: 'POST',
        url,
        detail,
        attempts: response.attempts,
        ...(response.requestId !== undefined ? { requestId: response.requestId } : {}),
      });
    if (!token) throw invalid('Keystone answered the login without an X-Subject-Token header');
    const project = body?.project as Body | undefined;
    if (!body || typeof project?.id !== 'string')
      throw invalid('Keystone issued a token without a project scope');
    const expiresAt = Date.parse(String(body.expires_at));
    const login: Login = {
      token,
      expiresAt: Number.isNaN(expiresAt) ? this.runtime.now() + 3600_000 : expiresAt,
      userId: String((body.user as Body | undefined)?.id ?? ''),
      projectId: project.id,
      userName: String((body.user as Body | undefined)?.name ?? ''),
      projectName: String(project.name ?? ''),
      catalog: Array.isArray(body.catalog) ? (body.catalog as CatalogService[]) : [],
    };
    this.current = login;
    return login;
  }
}
