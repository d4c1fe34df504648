import { createHmac } from 'node:crypto';
import type { JsonObject } from '../../util/json.js';
import { HttpError, json, keystone, request, type Session, zaqarHeaders } from './http.js';

/**
 * os-collect-config's collectors, each fetching the server's metadata by the transport its
 * `os-collect-config` section configures: `cfn` (Heat's CFN API, DescribeStackResource signed with
 * EC2 signature v2), `heat` (Keystone v3 password auth, then the orchestration API's resource
 * metadata), `zaqar` (the same auth, then a pop from the server's queue at the catalog's
 * `messaging` endpoint) and `request` (a plain GET of a URL, as Swift's temp URL is read).
 */

export type Transport = 'cfn' | 'heat' | 'zaqar' | 'request';

const REQUIRED: Record<Transport, readonly string[]> = {
  cfn: ['metadata_url', 'access_key_id', 'secret_access_key', 'stack_name', 'path'],
  heat: ['auth_url', 'user_id', 'password', 'project_id', 'stack_id', 'resource_name'],
  zaqar: ['auth_url', 'user_id', 'password', 'project_id', 'queue_id'],
  request: ['metadata_url'],
};

function section(occ: JsonObject, name: string): JsonObject | undefined {
  const value = occ[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

/**
 * The collector to poll with: the first of `collectors` (then any) whose section has every
 * setting; Heat nulls a section's values when the server's transport changes.
 */
export function chooseTransport(occ: JsonObject): Transport | undefined {
  const listed = Array.isArray(occ.collectors) ? occ.collectors.filter((c) => typeof c === 'string') : [];
  const candidates = [...listed, 'cfn', 'heat', 'zaqar', 'request'] as string[];
  for (const name of candidates) {
    if (!(name in REQUIRED)) continue;
    const settings = section(occ, name);
    const needed = REQUIRED[name as Transport];
    if (settings && needed.every((key) => settings[key] !== null && settings[key] !== undefined)) {
      return name as Transport;
    }
  }
  return undefined;
}

/** Python's quote(value, safe='-_~'): every byte but the unreserved characters percent-encoded. */
function awsQuote(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** EC2 signature v2 (keystoneclient's Ec2Signer with HmacSHA256) of a request's parameters. */
export function ec2Signature(
  secret: string,
  verb: string,
  host: string,
  path: string,
  params: Record<string, string>,
): string {
  const query = Object.keys(params)
    .sort()
    .map((key) => `${awsQuote(key)}=${awsQuote(params[key]!)}`)
    .join('&');
  return createHmac('sha256', secret).update(`${verb}\n${host}\n${path}\n${query}`).digest('base64');
}

function xmlText(xml: string, element: string): string | undefined {
  const match = new RegExp(`<${element}>([\\s\\S]*?)</${element}>`).exec(xml);
  if (!match) return undefined;
  return match[1]!
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-fA-F]+);/g, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');
}

/** A StackResourceDetail field: from Heat's XML answer (os-collect-config parses that) or its JSON one. */
async function detailField(response: Response, field: string): Promise<unknown> {
  const text = await response.text();
  if (/json/i.test(response.headers.get('content-type') ?? '') || text.trimStart().startsWith('{')) {
    const document = JSON.parse(text) as Record<string, Record<string, Record<string, unknown>>>;
    const detail = document.DescribeStackResourceResponse?.DescribeStackResourceResult
      ?.StackResourceDetail as Record<string, unknown> | undefined;
    const value = detail?.[field];
    return typeof value === 'string' ? JSON.parse(value) : value;
  }
  // Heat writes empty metadata as an empty element.
  if (new RegExp(`<${field}\\s*/>`).test(text)) return {};
  const value = xmlText(text, field);
  if (value === undefined) return undefined;
  return value.trim() === '' ? {} : JSON.parse(value);
}

async function collectCfn(settings: JsonObject): Promise<JsonObject> {
  const url = new URL(String(settings.metadata_url));
  const paths = Array.isArray(settings.path) ? settings.path.map(String) : [String(settings.path)];
  let content: JsonObject = {};
  for (const path of paths) {
    if (!path.includes('.')) throw new Error(`cfn path not in format resource.field[.x.y]: ${path}`);
    const [resource, field, ...subPath] = path.split('.');
    const params: Record<string, string> = {
      Action: 'DescribeStackResource',
      StackName: String(settings.stack_name),
      LogicalResourceId: resource!,
      AWSAccessKeyId: String(settings.access_key_id),
      SignatureVersion: '2',
      SignatureMethod: 'HmacSHA256',
    };
    params.Signature = ec2Signature(
      String(settings.secret_access_key),
      'GET',
      url.host,
      url.pathname,
      params,
    );
    const target = new URL(url);
    for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
    const response = await request(target.toString(), { headers: { 'Content-Type': 'application/json' } });
    let value = await detailField(response, field!);
    for (const key of subPath) value = (value as Record<string, unknown> | undefined)?.[key];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new Error(`cfn path ${path} is not an object in the answer`);
    }
    content = { ...content, ...(value as JsonObject) };
  }
  return content;
}

/** Keystone sessions an agent keeps between polls (os-collect-config caches its auth for 30 min). */
export type SessionCache = Map<string, { session: Session; at: number }>;

const SESSION_TTL_MS = 30 * 60_000;

/**
 * A Keystone session for the section's user, kept between polls; `use` runs with it, and a 401
 * drops it so that the next poll logs in again (a token revoked or expired early).
 */
async function withSession<T>(
  settings: JsonObject,
  sessions: SessionCache,
  use: (session: Session, region: string | null) => Promise<T>,
): Promise<T> {
  const key = JSON.stringify([settings.auth_url, settings.user_id, settings.password, settings.project_id]);
  const cached = sessions.get(key);
  const fresh = cached !== undefined && Date.now() - cached.at < SESSION_TTL_MS;
  const session = fresh
    ? cached.session
    : await keystone(
        String(settings.auth_url),
        String(settings.user_id),
        String(settings.password),
        String(settings.project_id),
      );
  sessions.set(key, { session, at: fresh ? cached.at : Date.now() });
  const region = typeof settings.region_name === 'string' ? settings.region_name : null;
  try {
    return await use(session, region);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) sessions.delete(key);
    throw error;
  }
}

async function collectHeat(settings: JsonObject, sessions: SessionCache): Promise<JsonObject> {
  return withSession(settings, sessions, async (session, region) => {
    const endpoint = session.endpoint('orchestration', region);
    const stack = String(settings.stack_id).split('/').map(encodeURIComponent).join('/');
    const resource = encodeURIComponent(String(settings.resource_name));
    const response = await request(`${endpoint}/stacks/${stack}/resources/${resource}/metadata`, {
      headers: { 'X-Auth-Token': session.token, Accept: 'application/json' },
    });
    const metadata = (await json(response)).metadata;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      throw new Error('the metadata answer has no metadata object');
    }
    return metadata;
  });
}

/** zaqarclient's `next(queue.pop())`: the first popped message's body (none: an error, as there). */
async function collectZaqar(settings: JsonObject, sessions: SessionCache): Promise<JsonObject> {
  return withSession(settings, sessions, async (session, region) => {
    const endpoint = session.endpoint('messaging', region);
    const queue = encodeURIComponent(String(settings.queue_id));
    const response = await request(`${endpoint}/v2/queues/${queue}/messages?pop=1`, {
      method: 'DELETE',
      headers: zaqarHeaders(session, String(settings.project_id)),
    });
    const messages = (await json(response)).messages;
    const body = Array.isArray(messages) ? (messages[0] as JsonObject | undefined)?.body : undefined;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new Error(`queue ${String(settings.queue_id)} has no metadata message`);
    }
    return body;
  });
}

async function collectRequest(settings: JsonObject): Promise<JsonObject> {
  return json(await request(String(settings.metadata_url), { headers: { Accept: 'application/json' } }));
}

/** The server's metadata now, through the transport's collector. */
export function collect(transport: Transport, occ: JsonObject, sessions: SessionCache): Promise<JsonObject> {
  const settings = section(occ, transport)!;
  if (transport === 'cfn') return collectCfn(settings);
  if (transport === 'heat') return collectHeat(settings, sessions);
  if (transport === 'zaqar') return collectZaqar(settings, sessions);
  return collectRequest(settings);
}
