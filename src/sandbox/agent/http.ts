import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../util/json.js';

/**
 * The guest's HTTP: plain fetch with a timeout (os-collect-config's 10 s), and Keystone v3 password
 * authentication with the catalog lookup the heat collector and heat-config-notify do.
 */

export const HTTP_TIMEOUT_MS = 10_000;

/** A request that got an answer Hearth refused: its status says whether a retry may help. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A URL as messages show it: no query (signatures), and no credential in the path (a pre-signed
 * signal URL or a temp URL carries its token there).
 */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname
      .split('/')
      .map((part) => (/^(hagt|hsig)_/.test(part) || part.length >= 40 ? '<secret>' : part))
      .join('/');
    return `${parsed.origin}${path}`;
  } catch {
    return '<a bad URL>';
  }
}

export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    throw new HttpError(
      response.status,
      `${init.method ?? 'GET'} ${shownUrl(url)}: ${response.status} ${text}`,
    );
  }
  return response;
}

export async function json(response: Response): Promise<JsonObject> {
  const value: unknown = await response.json();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${shownUrl(response.url)}: the answer is not a JSON object`);
  }
  return value as JsonObject;
}

export interface Session {
  token: string;
  /** The endpoint of a service type from the token's catalog (public interface, the region if given). */
  endpoint(type: string, region?: string | null): string;
}

/** Keystone v3 password auth scoped to a project (user by id), as keystoneclient does it. */
export async function keystone(
  authUrl: string,
  userId: string,
  password: string,
  projectId: string,
): Promise<Session> {
  const base = authUrl.replace(/\/+$/, '');
  const url = `${/\/v3$/.test(base) ? base : `${base}/v3`}/auth/tokens`;
  const body = {
    auth: {
      identity: { methods: ['password'], password: { user: { id: userId, password } } },
      scope: { project: { id: projectId } },
    },
  };
  const response = await request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const token = response.headers.get('x-subject-token');
  if (!token) throw new Error(`${shownUrl(url)}: no X-Subject-Token in the answer`);
  const document = await json(response);
  const catalog = ((document.token as JsonObject | undefined)?.catalog ?? []) as JsonObject[];
  return {
    token,
    endpoint(type, region) {
      const service = catalog.find((s) => s.type === type);
      const endpoints = ((service?.endpoints ?? []) as JsonObject[]).filter(
        (e) => (e.interface ?? 'public') === 'public',
      );
      // A catalog whose endpoints name no region serves every region.
      const regionless = endpoints.every((e) => e.region == null && e.region_id == null);
      const found =
        region && !regionless
          ? endpoints.find((e) => e.region === region || e.region_id === region)
          : endpoints[0];
      if (typeof found?.url !== 'string') {
        throw new Error(`no ${type} endpoint${region ? ` in region ${region}` : ''} in the catalog`);
      }
      return found.url.replace(/\/+$/, '');
    },
  };
}

/** This agent's Zaqar Client-ID (zaqarclient makes one per client; one per process is as good). */
const CLIENT_ID = randomUUID();

/** The headers zaqarclient sends with a Keystone token: the token, the project, a Client-ID. */
export function zaqarHeaders(session: Session, projectId: string): Record<string, string> {
  return {
    'X-Auth-Token': session.token,
    'X-Project-Id': projectId,
    'Client-ID': CLIENT_ID,
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };
}

/** Whether a failed delivery may succeed later: no answer, a server error, or too many requests. */
export function retryable(error: unknown): boolean {
  if (error instanceof HttpError) return error.status >= 500 || error.status === 429;
  return true;
}
