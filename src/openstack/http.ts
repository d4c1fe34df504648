import { setTimeout as sleep } from 'node:timers/promises';
import { extractErrorMessage, OpenStackError } from './errors.js';
import type { RateLimits } from './rate-limit.js';

/**
 * One JSON request to an OpenStack API, sent again when the cloud is briefly unable to answer
 * (502/503/504, 429, no connection, a timeout) if sending it twice cannot do harm: GET, HEAD, PUT,
 * DELETE and OPTIONS, or a POST/PATCH the caller marks as safe (it carries an idempotency key).
 */

export interface RetryPolicy {
  /** The most times a request is sent. */
  attempts: number;
  /** The first backoff; it doubles each attempt up to maxDelayMs, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** No attempt starts, and no wait is taken, past this long after the first. */
  deadlineMs: number;
  /** Each attempt's limit. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  deadlineMs: 120_000,
  timeoutMs: 30_000,
};

/** Clocks and randomness, replaceable in tests. */
export interface HttpRuntime {
  fetch: typeof fetch;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** The per-endpoint rate limits each attempt waits on (absent: none). */
  limits?: Pick<RateLimits, 'take'>;
}

export const defaultRuntime = (): HttpRuntime => ({
  fetch: (input, init) => fetch(input, init),
  now: Date.now,
  sleep: (ms) => sleep(ms),
  random: Math.random,
});

export interface HttpRequest {
  /** The catalog type of the API, for errors. */
  service: string;
  method: string;
  url: string;
  /** The service endpoint (base URL) whose rate limit the request counts against; default: the URL's origin. */
  endpoint?: string;
  headers?: Record<string, string>;
  /** Sent as JSON, unless it is a string or bytes (then sent as is, with the caller's Content-Type). */
  body?: unknown;
  /** A POST or PATCH that may be sent twice (it carries an idempotency key, or creates nothing). */
  safeToRepeat?: boolean;
  /** Overrides of the policy for this request. */
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON, text for other content types, undefined for an empty body. */
  body: T;
  requestId?: string;
  attempts: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** The wait a Retry-After header asks for (seconds or an HTTP date), in ms. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: between half and all of base * 2^(attempt-1), capped. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The URL as it may appear in messages: no user:password, no secrets in the query. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    for (const key of [...parsed.searchParams.keys()]) {
      if (/token|secret|password|signature/i.test(key)) parsed.searchParams.set(key, '***');
    }
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function encodeBody(request: HttpRequest): { body?: string | Uint8Array; contentType?: string } {
  const { body } = request;
  if (body === undefined) return {};
  if (typeof body === 'string' || body instanceof Uint8Array) return { body };
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

async function decodeBody(response: Response, method: string): Promise<unknown> {
  if (method === 'HEAD' || response.status === 204 || response.status === 304) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (/[/+]json\b/.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

const requestIdOf = (headers: Headers) =>
  headers.get('x-openstack-request-id') ?? headers.get('x-compute-request-id') ?? undefined;

/** Why an attempt got no answer, in words (fetch wraps the socket's error in `cause`). */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'the request was cancelled';
  }
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code === 'UND_ERR_SOCKET') return 'the connection closed before an answer';
  if (cause?.code) return `cannot connect (${cause.code})`;
  return `cannot connect (${error instanceof Error ? (cause?.message ?? error.message) : String(error)})`;
}

/** Sends a request, retrying what may be retried; an error status becomes an OpenStackError. */
export async function sendRequest<T = unknown>(
  request: HttpRequest,
  policy: RetryPolicy = DEFAULT_RETRY,
  runtime: HttpRuntime = defaultRuntime(),
): Promise<HttpResponse<T>> {
  const rules = { ...policy, ...request.retry };
  const method = request.method.toUpperCase();
  const repeatable = IDEMPOTENT.has(method) || request.safeToRepeat === true;
  const { body, contentType } = encodeBody(request);
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  if (contentType && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = contentType;
  }
  const started = runtime.now();
  const fail = (
    fields: { status: number | undefined; detail: string; requestId?: string },
    attempts: number,
    cause?: unknown,
  ) =>
    new OpenStackError(
      { ...fields, service: request.service, method, url: safeUrl(request.url), attempts },
      cause === undefined ? undefined : { cause },
    );

  const endpoint = request.endpoint ?? originOf(request.url);
  for (let attempt = 1; ; attempt++) {
    // Every attempt is a call the cloud sees; the wait for a token is not part of its timeout.
    await runtime.limits?.take(endpoint, request.signal);
    const timeout = AbortSignal.timeout(rules.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    let response: Response | undefined;
    let failure: { detail: string; cause: unknown } | undefined;
    try {
      response = await runtime.fetch(request.url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      failure = { detail: describeFailure(error, rules.timeoutMs), cause: error };
    }

    let waitMs: number | undefined;
    let error: OpenStackError;
    if (response) {
      let decoded: unknown;
      try {
        decoded = response.status < 400 ? await decodeBody(response, method) : await response.text();
      } catch (readError) {
        failure = { detail: describeFailure(readError, rules.timeoutMs), cause: readError };
      }
      const requestId = requestIdOf(response.headers);
      if (!failure && response.status < 400) {
        return {
          status: response.status,
          headers: response.headers,
          body: decoded as T,
          ...(requestId !== undefined ? { requestId } : {}),
          attempts: attempt,
        };
      }
      const detail = failure
        ? failure.detail
        : extractErrorMessage(response.status, response.statusText, decoded as string);
      error = fail(
        { status: response.status, detail, ...(requestId !== undefined ? { requestId } : {}) },
        attempt,
      );
      if (!failure && !RETRYABLE_STATUS.has(response.status)) throw error;
      waitMs = retryAfterMs(response.headers.get('retry-after'), runtime.now());
    } else {
      error = fail({ status: undefined, detail: failure!.detail }, attempt, failure!.cause);
    }

    if (!repeatable || attempt >= rules.attempts) throw error;
    // The server's Retry-After knows best; otherwise back off.
    const delay = waitMs ?? backoffMs(rules, attempt, runtime.random);
    if (runtime.now() + delay - started > rules.deadlineMs) throw error;
    await runtime.sleep(delay);
  }
}
