/**
 * What an OpenStack API said went wrong, read from wherever that API puts it, as one error type
 * plugins can test (`isNotFound` for deletes of something already gone).
 */

export interface OpenStackErrorFields {
  /** The HTTP status; undefined when no answer came (connection refused, timeout). */
  status: number | undefined;
  /** The catalog type of the API called (compute, network, ...), or `identity` for logins. */
  service: string;
  method: string;
  /** The URL called, without credentials (tokens travel in headers, never in URLs). */
  url: string;
  /** The API's own message. */
  detail: string;
  requestId?: string;
  /** How many times the request was sent. */
  attempts: number;
}

export class OpenStackError extends Error implements OpenStackErrorFields {
  override name = 'OpenStackError';
  readonly status: number | undefined;
  readonly service: string;
  readonly method: string;
  readonly url: string;
  readonly detail: string;
  readonly requestId?: string;
  readonly attempts: number;
  /** The request and what came of it ("network: POST http://... answered 400"), for messages. */
  readonly call: string;

  constructor(fields: OpenStackErrorFields, options?: { cause?: unknown }) {
    const answered = fields.status === undefined ? 'failed' : `answered ${fields.status}`;
    const tries = fields.attempts > 1 ? `, after ${fields.attempts} attempts` : '';
    const request = fields.requestId ? `, request ${fields.requestId}` : '';
    const call = `${fields.service}: ${fields.method} ${fields.url} ${answered}${tries}${request}`;
    super(`${fields.detail} (${call})`, options);
    this.call = call;
    this.status = fields.status;
    this.service = fields.service;
    this.method = fields.method;
    this.url = fields.url;
    this.detail = fields.detail;
    if (fields.requestId !== undefined) this.requestId = fields.requestId;
    this.attempts = fields.attempts;
  }
}

/**
 * The exception class the Python OpenStack clients Heat uses (novaclient, neutronclient,
 * cinderclient) raise for an HTTP status: what Heat shows before a cloud error in a reason.
 * No answer at all is a connection failure (keystoneauth's ConnectFailure).
 */
const CLIENT_EXCEPTIONS: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  413: 'OverLimit',
  429: 'RateLimit',
  500: 'InternalServerError',
  501: 'HTTPNotImplemented',
  503: 'ServiceUnavailable',
};

export function clientExceptionName(status: number | undefined): string {
  if (status === undefined) return 'ConnectFailure';
  return CLIENT_EXCEPTIONS[status] ?? 'ClientException';
}

/** A name given for an id matched no object, or several. */
export class LookupError extends Error {
  override name = 'LookupError';
  constructor(
    readonly kind: 'none' | 'many',
    readonly service: string,
    readonly ref: string,
    message: string,
  ) {
    super(message);
  }
}

/** Whether the object is gone: a 404 from the API, or a name that matches nothing. */
export function isNotFound(error: unknown): boolean {
  if (error instanceof OpenStackError) return error.status === 404;
  return error instanceof LookupError && error.kind === 'none';
}

type Body = Record<string, unknown>;
const object = (value: unknown): Body | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : undefined;
const words = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The message in a JSON error body, in any of the shapes OpenStack APIs use. */
function messageInJson(body: unknown): string | undefined {
  const top = object(body);
  if (!top) return words(body);
  // Keystone {"error": {...}}, Neutron {"NeutronError": {...}}, Nova and Cinder {"itemNotFound": {...}}.
  for (const key of ['error', 'NeutronError']) {
    const inner = top[key];
    const found = words(inner) ?? words(object(inner)?.message);
    if (found) return found;
  }
  const found = words(top.message) ?? words(top.faultstring) ?? words(top.detail);
  if (found) return found;
  // Placement and others: {"errors": [{"title", "detail"}]}.
  if (Array.isArray(top.errors)) {
    const all = top.errors
      .map((e) => words(object(e)?.detail) ?? words(object(e)?.title) ?? words(e))
      .filter((e): e is string => e !== undefined);
    if (all.length) return all.join('; ');
  }
  // Aodh (WSME): {"error_message": {"faultstring": ...}}.
  const fault = words(object(top.error_message)?.faultstring);
  if (fault) return fault;
  // Ironic nests a JSON document in error_message.
  const nested = words(top.error_message);
  if (nested) {
    try {
      return messageInJson(JSON.parse(nested)) ?? nested;
    } catch {
      return nested;
    }
  }
  // Nova and Cinder: the one key is the fault's name.
  const keys = Object.keys(top);
  if (keys.length === 1) return words(object(top[keys[0]!])?.message);
  return undefined;
}

/** Glance (and proxies) answer errors with a text or HTML page: its lines after the status line. */
function messageInText(body: string): string | undefined {
  const plain = body
    .replace(/<(script|style|title)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(h\d|p|div)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  const lines = plain
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length > 1 && /^\d{3}\b/.test(lines[0]!)) lines.shift();
  return lines.length ? lines.join(' ') : undefined;
}

const MAX_MESSAGE = 1000;

/** The API's message from an error response's body (already read as text). */
export function extractErrorMessage(status: number, statusText: string, text: string): string {
  const trimmed = text.trim();
  let found: string | undefined;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      found = messageInJson(JSON.parse(trimmed));
    } catch {
      found = undefined;
    }
  }
  found ??= trimmed === '' ? undefined : messageInText(trimmed);
  if (found === undefined) return `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  return found.length > MAX_MESSAGE ? `${found.slice(0, MAX_MESSAGE)}...` : found;
}
