import type { CloudSettings } from './config.js';
import { isNotFound, LookupError, OpenStackError } from './errors.js';
import {
  DEFAULT_RETRY,
  defaultRuntime,
  type HttpResponse,
  type HttpRuntime,
  type RetryPolicy,
  sendRequest,
} from './http.js';
import type { RateLimits } from './rate-limit.js';
import { type CatalogService, Session, type SessionOptions } from './session.js';

/**
 * A connection to one OpenStack cloud for Hearth's resource types: requests by service type and
 * path (the endpoint from the catalog, the token added and renewed), and the lookups many types
 * share.
 */

export {
  type CloudSettings,
  CloudConfigError,
  cloudsYamlSearchPath,
  describeCloud,
  loadCloudSettings,
} from './config.js';
export {
  clientExceptionName,
  extractErrorMessage,
  isNotFound,
  LookupError,
  OpenStackError,
} from './errors.js';
export { DEFAULT_RETRY, type HttpResponse, type RetryPolicy } from './http.js';
export { Session } from './session.js';
export { type CloudRateShare, RateLimits } from './rate-limit.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Added to the path's query string (undefined values left out). */
  query?: Record<string, string | number | boolean | undefined>;
  /** A POST/PATCH that may be sent again after a failure (it carries an idempotency key). */
  safeToRepeat?: boolean;
  /** The microversion asked for, e.g. `2.79` for compute (OpenStack-API-Version). */
  microversion?: string;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
}

export interface FoundObject extends Record<string, unknown> {
  id: string;
}

export interface Cloud {
  readonly settings: CloudSettings;
  readonly session: Session;
  /** A request to the service's endpoint; `path` is relative to it (or an absolute URL, e.g. a `next` link). */
  request<T = unknown>(
    serviceType: string,
    method: Method,
    path: string,
    body?: unknown,
    options?: RequestOptions,
  ): Promise<HttpResponse<T>>;
  /**
   * The object `ref` names, by id or else by name: `GET collection/ref`, then the list filtered by
   * name (matched exactly here too, for APIs without the filter); none or several is a LookupError.
   */
  findByNameOrId(serviceType: string, collectionPath: string, key: string, ref: string): Promise<FoundObject>;
  /** The project the login is scoped to (logging in if needed). */
  projectId(): Promise<string>;
  /**
   * The same login's calls to another region's endpoints (the catalog's; one token, one identity):
   * nothing is checked until a request finds, or fails to find, that region's endpoint.
   */
  inRegion(region: string): Cloud;
  /** The regions the login's catalog lists endpoints in (logging in if needed), in catalog order. */
  regions(): Promise<string[]>;
  /** Logs out (revokes the token). */
  close(): Promise<void>;
}

/**
 * A cloud whose connection is found asynchronously (the owner's credentials are looked up in the
 * store) but is needed synchronously: every call waits for `opening`, and fails with its error.
 * `settings` and `session` exist once it has opened.
 */
export function deferredCloud(opening: Promise<Cloud>): Cloud {
  let opened: Cloud | undefined;
  const ready = opening.then((cloud) => (opened = cloud));
  // An unawaited rejection is not a crash: it is reported to each caller.
  ready.catch(() => undefined);
  const now = (what: string): Cloud => {
    if (!opened) throw new Error(`the cloud's ${what} is not known before its first request`);
    return opened;
  };
  return {
    get settings() {
      return now('settings').settings;
    },
    get session() {
      return now('session').session;
    },
    async request<T>(...args: Parameters<Cloud['request']>): Promise<HttpResponse<T>> {
      return (await ready).request<T>(...args);
    },
    findByNameOrId: async (...args) => (await ready).findByNameOrId(...args),
    projectId: async () => (await ready).projectId(),
    inRegion: (region) => deferredCloud(ready.then((cloud) => cloud.inRegion(region))),
    regions: async () => (await ready).regions(),
    close: async () => {
      const cloud = await ready.catch(() => undefined);
      await cloud?.close();
    },
  };
}

export interface OpenCloudOptions extends SessionOptions {
  retry?: RetryPolicy;
  /** The per-endpoint rate limits every request waits on (shared by the clouds a process opens). */
  rateLimits?: RateLimits;
}

/** The header names the API-version header uses for each service type. */
const MICROVERSION_SERVICE: Record<string, string> = {
  compute: 'compute',
  'block-storage': 'volume',
  volumev3: 'volume',
  volume: 'volume',
  placement: 'placement',
  'load-balancer': 'load-balancer',
};

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const entries = Object.entries(query).filter(
    (e): e is [string, string | number | boolean] => e[1] !== undefined,
  );
  if (!entries.length) return path;
  const params = new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)]));
  return `${path}${path.includes('?') ? '&' : '?'}${params.toString()}`;
}

const joinUrl = (endpoint: string, path: string) =>
  /^https?:\/\//.test(path) ? path : `${endpoint}${path.startsWith('/') ? '' : '/'}${path}`;

/** The one object in a GET's answer: bare (Glance) or under its singular key (Nova, Neutron, Cinder). */
function unwrap(body: unknown): FoundObject | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.id === 'string') return record as FoundObject;
  const values = Object.values(record);
  const inner = values.length === 1 ? values[0] : undefined;
  if (
    typeof inner === 'object' &&
    inner !== null &&
    typeof (inner as Record<string, unknown>).id === 'string'
  ) {
    return inner as FoundObject;
  }
  return undefined;
}

export function openCloud(settings: CloudSettings, options: OpenCloudOptions = {}): Cloud {
  const retry = options.retry ?? DEFAULT_RETRY;
  const runtime = { ...(options.runtime ?? defaultRuntime()) };
  if (options.rateLimits) runtime.limits = options.rateLimits;
  const session = new Session(settings, { ...options, retry, runtime });
  return cloudOn(session, retry, runtime, settings.regionName);
}

/** The regions a catalog lists endpoints in, each once, in catalog order. */
export function catalogRegions(catalog: readonly CatalogService[]): string[] {
  const regions = new Set<string>();
  for (const service of catalog) {
    for (const endpoint of service.endpoints) {
      const region = endpoint.region_id ?? endpoint.region;
      if (region) regions.add(region);
    }
  }
  return [...regions];
}

/** A cloud whose requests go to `region`'s endpoints (undefined: whichever the catalog lists first). */
function cloudOn(
  session: Session,
  retry: RetryPolicy,
  runtime: HttpRuntime,
  region: string | undefined,
): Cloud {
  const settings: CloudSettings =
    region === session.settings.regionName ? session.settings : { ...session.settings, regionName: region! };

  async function request<T>(
    serviceType: string,
    method: Method,
    path: string,
    body?: unknown,
    requestOptions: RequestOptions = {},
  ): Promise<HttpResponse<T>> {
    const endpoint = await session.endpoint(serviceType, region !== undefined ? { region } : {});
    const url = joinUrl(endpoint, withQuery(path, requestOptions.query));
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (requestOptions.microversion) {
      const name = MICROVERSION_SERVICE[serviceType] ?? serviceType;
      headers['OpenStack-API-Version'] = `${name} ${requestOptions.microversion}`;
      if (name === 'compute') headers['X-OpenStack-Nova-API-Version'] = requestOptions.microversion;
    }
    const send = async (token: string) =>
      sendRequest<T>(
        {
          service: serviceType,
          method,
          url,
          endpoint,
          headers: { ...headers, 'X-Auth-Token': token },
          ...(body !== undefined ? { body } : {}),
          ...(requestOptions.safeToRepeat ? { safeToRepeat: true } : {}),
          ...(requestOptions.retry ? { retry: requestOptions.retry } : {}),
          ...(requestOptions.signal ? { signal: requestOptions.signal } : {}),
        },
        retry,
        runtime,
      );
    const token = await session.token();
    try {
      return await send(token);
    } catch (error) {
      // The token was revoked or expired early: log in again, once. A 401 means nothing was done.
      if (!(error instanceof OpenStackError) || error.status !== 401) throw error;
      session.invalidate(token);
      return send(await session.token());
    }
  }

  async function findByNameOrId(
    serviceType: string,
    collectionPath: string,
    key: string,
    ref: string,
  ): Promise<FoundObject> {
    const collection = collectionPath.replace(/\/+$/, '');
    try {
      const direct = await request(serviceType, 'GET', `${collection}/${encodeURIComponent(ref)}`);
      const found = unwrap(direct.body);
      if (found) return found;
    } catch (error) {
      // Not an id (some APIs answer a malformed one with 400).
      if (!isNotFound(error) && !(error instanceof OpenStackError && error.status === 400)) throw error;
    }
    const listed = await request<Record<string, unknown>>(serviceType, 'GET', collection, undefined, {
      query: { name: ref },
    });
    const items = listed.body?.[key];
    if (!Array.isArray(items)) {
      throw new OpenStackError({
        status: listed.status,
        service: serviceType,
        method: 'GET',
        url: collection,
        detail: `the list has no '${key}' array`,
        attempts: listed.attempts,
      });
    }
    const matches = (items as FoundObject[]).filter((item) => item.name === ref);
    const what = key.replace(/ies$/, 'y').replace(/s$/, '');
    if (matches.length === 0) {
      throw new LookupError('none', serviceType, ref, `No ${what} found with name or id '${ref}'`);
    }
    if (matches.length > 1) {
      throw new LookupError(
        'many',
        serviceType,
        ref,
        `Several ${key} (${matches.length}) are named '${ref}': use an id instead`,
      );
    }
    return matches[0]!;
  }

  return {
    settings,
    session,
    request,
    findByNameOrId,
    projectId: async () => (await session.login()).projectId,
    inRegion: (other) => cloudOn(session, retry, runtime, other),
    regions: async () => catalogRegions((await session.login()).catalog),
    close: () => session.revoke(),
  };
}
